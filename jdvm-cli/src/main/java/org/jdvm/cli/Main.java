package org.jdvm.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jdvm} command: one command with a subcommand per operation, each registered once, in
 * {@link Subcommand}.
 */
@Command(
    name = "jdvm",
    mixinStandardHelpOptions = true,
    version = "jdvm 0.1.0",
    description = "A distributed virtual machine for HPC workloads that speaks PMIx.")
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
    RunCommand.ownsProcessStdin = true;
    System.exit(run(args));
  }

  /**
   * Runs the command line and returns the exit status. {@code jdvm NAME ...} builds the model of
   * that one command only, and {@code jdvm run} with plain arguments takes a lean path that never
   * builds picocli's model (a fresh {@code jdvm run -n 1 /bin/true} should be done in under 100 ms,
   * and the model alone costs more); see {@link Subcommand#run}. Anything else goes through the
   * full model, which also explains mistakes.
   */
  public static int run(String... args) {
    if (args.length == 2 && args[0].equals(AotTraining.COMMAND)) {
      return AotTraining.run(args[1]);
    }
    Subcommand command = args.length > 0 ? Subcommand.named(args[0]) : null;
    return command != null ? command.run(args) : commandLine().execute(args);
  }

  /** Picocli's model of {@code jdvm} with every command in {@link Subcommand}. */
  static CommandLine commandLine() {
    return Subcommand.withAll(new CommandLine(new Main()));
  }

  @Override
  public void run() {
    // A command of commands does nothing alone: say so, with the usage, as a usage error (2).
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "which command? one is missing after '" + spec.qualifiedName() + "'");
  }
}
