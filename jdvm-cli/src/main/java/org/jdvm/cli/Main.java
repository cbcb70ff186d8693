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
    subcommands = {
      StartCommand.class,
      StopCommand.class,
      RunCommand.class,
      AllocCommand.class,
      ListCommands.Nodes.class,
      ListCommands.Allocs.class,
      ListCommands.Jobs.class,
      EventsCommand.class,
      SessionCommand.class,
      DemoCommand.class,
      PmixCommand.class,
      CommandLine.HelpCommand.class
    })
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

  /**
   * Runs the command line and returns the exit status. {@code jdvm run} with plain arguments takes
   * a lean path that never builds picocli's command model (a fresh {@code jdvm run -n 1 /bin/true}
   * should be done in under 100 ms, and the model alone costs more); anything unusual goes through
   * picocli, which also explains mistakes.
   */
  public static int run(String... args) {
    if (args.length > 0 && args[0].equals("run")) {
      RunCommand lean = RunCommand.parseLean(args);
      if (lean != null) {
        return lean.call();
      }
    }
    return commandLine().execute(args);
  }

  /**
   * The picocli model. Parsing stops at the first positional argument: in {@code jdvm run hostname
   * -f} the {@code -f} is the command's, as with {@code mpirun}.
   */
  static CommandLine commandLine() {
    return new CommandLine(new Main()).setStopAtPositional(true);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
