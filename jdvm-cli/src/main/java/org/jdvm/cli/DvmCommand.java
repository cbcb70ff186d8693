package org.jdvm.cli;

import java.io.PrintStream;
import java.util.function.Consumer;
import org.jdvm.client.OutputHandler;
import picocli.CommandLine.Mixin;

/**
 * What every command that talks to a running DVM has: the options that find it ({@link
 * DvmOptions}), the two streams it prints to, and one way to connect, act, and turn what goes wrong
 * into the exit statuses of docs/cli.md. Subclasses are commands, or the mixin of several ({@link
 * SessionCommand.Target}).
 */
abstract class DvmCommand {
  @Mixin DvmOptions dvm = new DvmOptions();

  PrintStream out = System.out;
  PrintStream err = System.err;

  /**
   * Connects as the environment says, runs {@code action} and returns its exit status: 1 when the
   * DVM cannot be reached, 3 when it refuses (printed as JSON with {@code json}).
   */
  int connected(OutputHandler output, boolean json, DvmOptions.ClientAction action) {
    return dvm.run(output, json, out, err, action);
  }

  /** Sets an attribute of a request from an option, if the option was given. */
  static <T> void ifGiven(T value, Consumer<? super T> setter) {
    if (value != null) {
      setter.accept(value);
    }
  }
}
