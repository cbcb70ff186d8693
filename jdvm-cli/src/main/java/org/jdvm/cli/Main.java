package org.jdvm.cli;

import org.jdvm.cli.pmix.PmixCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jdvm} command: one command with a subcommand per operation. */
@Command(
    name = "jdvm",
    mixinStandardHelpOptions = true,
    version = "jdvm 0.1.0",
    description = "A distributed virtual machine for HPC workloads that speaks PMIx.",
    subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, PmixCommand.class})
public final class Main implements Runnable {
  /** Exit status: success. */
  public static final int EXIT_OK = 0;

  /** Exit status: could not reach the DVM, or an internal error. */
  public static final int EXIT_FAILURE = 1;

  /** Exit status: the command line was not understood. */
  public static final int EXIT_USAGE = 2;

  /** Exit status: the DVM (or the codec) refused the input; the reason is printed. */
  public static final int EXIT_REFUSED = 3;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit status. */
  public static int run(String... args) {
    return new CommandLine(new Main()).execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
