package org.jdvm.cli;

import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jdvm.cli.pmix.PmixCommand;
import picocli.CommandLine;

/**
 * Every {@code jdvm} subcommand, in the order {@code jdvm --help} lists them: the one place a
 * command is registered (docs/cli.md, "Commands"). Its name is here and nowhere else. From this
 * table come picocli's full model ({@link Main#commandLine}), the model of one command alone that
 * {@link Main#run} builds for {@code jdvm NAME ...} (picocli's model of every command costs more
 * than the JVM's own start-up), and the lean path that skips picocli for the common forms of {@code
 * jdvm run}. Both models are configured by {@link #configure}, so a command behaves the same
 * whichever way it is reached.
 */
enum Subcommand {
  START("start", StartCommand::new),
  STOP("stop", StopCommand::new),
  AGENT("agent", AgentCommand::new),
  RUN("run", RunCommand::new, RunCommand::runLean),
  ALLOC("alloc", AllocCommand::new),
  NODES("nodes", ListCommands.Nodes::new),
  ALLOCS("allocs", ListCommands.Allocs::new),
  JOBS("jobs", ListCommands.Jobs::new),
  EXPLAIN("explain", ExplainCommand::new),
  TREE("tree", TreeCommand::new),
  TOP("top", TopCommand::new),
  KILL("kill", KillCommand::new),
  OUTPUT("output", OutputCommand::new),
  EVENTS("events", EventsCommand::new),
  SESSION("session", SessionCommand::new),
  DEMO("demo", DemoCommand::new),
  BENCH("bench", BenchCommand::new),
  PMIX("pmix", PmixCommand::new),
  /**
   * Picocli's own: it describes its siblings, so it exists only in the full model. (A lambda, not a
   * method reference, which would load picocli's classes on the lean path.)
   */
  HELP("help", () -> new CommandLine.HelpCommand());

  private final String commandName;
  private final Supplier<Object> factory;

  /**
   * Runs the command from a hand parse of its arguments, or returns {@code null} to leave them to
   * picocli (help, and anything picocli would reject and explain); {@code null} for none.
   */
  private final Function<String[], Integer> lean;

  Subcommand(String commandName, Supplier<Object> factory) {
    this(commandName, factory, null);
  }

  Subcommand(String commandName, Supplier<Object> factory, Function<String[], Integer> lean) {
    this.commandName = commandName;
    this.factory = factory;
    this.lean = lean;
  }

  /** The name that selects the command: {@code jdvm NAME}. */
  String commandName() {
    return commandName;
  }

  /** The command with this name, or {@code null}. */
  static Subcommand named(String name) {
    for (Subcommand c : values()) {
      if (c.commandName.equals(name)) {
        return c;
      }
    }
    return null;
  }

  /** Whether the command can be built without the rest of the model. */
  boolean runsAlone() {
    return this != HELP;
  }

  /**
   * Runs {@code jdvm NAME ARGS...} ({@code args[0]} is the name) and returns its exit status: the
   * lean path if the command has one and it reads the arguments, else picocli's model of this
   * command alone, or the full model for a command that needs it.
   */
  int run(String... args) {
    Integer status = lean != null ? lean.apply(args) : null;
    if (status != null) {
      return status;
    }
    if (!runsAlone()) {
      return Main.commandLine().execute(args);
    }
    return alone().execute(Arrays.copyOfRange(args, 1, args.length));
  }

  /** Picocli's model of this command alone, named as the full model names it. */
  CommandLine alone() {
    return configure(new CommandLine(factory.get()).setCommandName("jdvm " + commandName));
  }

  /** Adds every command, in table order, to the model of the {@code jdvm} command itself. */
  static CommandLine withAll(CommandLine jdvm) {
    for (Subcommand c : values()) {
      jdvm.addSubcommand(c.commandName, c.factory.get());
    }
    return configure(jdvm);
  }

  /**
   * What both models share. Parsing stops at the first positional argument: in {@code jdvm run
   * hostname -f} the {@code -f} is the command's, as with {@code mpirun}. (Picocli applies this to
   * the subcommands present when it is called, so it comes last.)
   */
  private static CommandLine configure(CommandLine commandLine) {
    return commandLine.setStopAtPositional(true).setExecutionExceptionHandler(Subcommand::failed);
  }

  /**
   * What escapes a command becomes one line and an exit status, never a stack trace (docs/cli.md
   * "Exit statuses"): an {@link IllegalArgumentException} is input the command cannot take (2);
   * anything else an internal error (1).
   */
  private static int failed(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
    String name = commandLine.getCommandSpec().qualifiedName();
    if (e instanceof IllegalArgumentException) {
      commandLine.getErr().println(name + ": " + e.getMessage());
      commandLine.getErr().flush();
      return Main.EXIT_USAGE;
    }
    commandLine.getErr().println(name + ": internal error: " + e);
    commandLine.getErr().flush();
    return Main.EXIT_FAILURE;
  }
}
