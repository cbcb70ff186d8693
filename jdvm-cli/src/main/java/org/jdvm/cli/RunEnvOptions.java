package org.jdvm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import org.jdvm.client.JobEnd;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.PmixStatus;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code jdvm run}'s environment, working directory, time limit and MPMD options (docs/cli.md
 * "Environment, working directory, time limit" and "Several programs in one job"), in mpirun's
 * spellings ({@code -x}, {@code --set-env}, {@code --unset-env}, {@code --prepend-env}, {@code
 * --append-env}, {@code --wdir}, {@code --timeout}, {@code --app}, {@code :}) and srun's where
 * mpirun has none ({@code --export}, {@code --chdir}).
 *
 * <p>The options before the first program belong to the job and to its first app; after each {@code
 * :} come the next app's own options ({@link RunApps}: {@code -n}, {@code -x}, {@code --wdir} and
 * the environment directives, as mpirun takes them per app) and its program. The environment
 * directives go to the DVM as PMIx's {@code PMIX_*_ENVAR} in the app's info, so the node that
 * starts a process applies them, in the order given, to that process's environment.
 */
public final class RunEnvOptions {
  /** {@code jdvm run}'s exit status when the DVM ended its job at {@code --timeout}. */
  public static final int EXIT_TIMEOUT = 124;

  /**
   * The first app's environment options as given (the option, its values), in order: their order is
   * their result. Read into directives by {@link #check}, which says what is wrong with one.
   */
  final List<List<String>> given = new ArrayList<>();

  @Option(
      names = "-x",
      paramLabel = "VAR[=VALUE]",
      description =
          "Export VAR (its value here) or VAR=VALUE to the processes (repeatable; mpirun's).",
      parameterConsumer = Ordered.class)
  List<String> exports;

  @Option(
      names = {"--set-env", "--setenv"},
      paramLabel = "VAR=VALUE",
      description = "PMIX_SET_ENVAR: VAR is VALUE in the processes (repeatable).",
      parameterConsumer = Ordered.class)
  List<String> setEnv;

  @Option(
      names = {"--unset-env", "--unsetenv"},
      paramLabel = "VAR",
      description = "PMIX_UNSET_ENVAR: VAR is not in the processes' environment (repeatable).",
      parameterConsumer = Ordered.class)
  List<String> unsetEnv;

  @Option(
      names = "--prepend-env",
      paramLabel = "VAR[c] VALUE",
      arity = "2",
      hideParamSyntax = true,
      description = "PMIX_PREPEND_ENVAR: VALUE, the separator c, then VAR's value (repeatable).",
      parameterConsumer = Ordered.class)
  List<String> prependEnv;

  @Option(
      names = "--append-env",
      paramLabel = "VAR[c] VALUE",
      arity = "2",
      hideParamSyntax = true,
      description = "PMIX_APPEND_ENVAR: VAR's value, the separator c, then VALUE (repeatable).",
      parameterConsumer = Ordered.class)
  List<String> appendEnv;

  @Option(
      names = "--export",
      paramLabel = "ALL|NONE|VARS",
      description =
          "Which of this command's environment the processes get (srun's): ALL (the default),"
              + " NONE, or a comma-separated list of VAR and VAR=VALUE (after ALL, added to it).")
  String export;

  @Option(
      names = {"--wdir", "--chdir"},
      paramLabel = "DIR",
      description = "The processes' working directory (PMIX_WDIR; default this command's).")
  String wdir;

  @Option(
      names = "--timeout",
      paramLabel = "S",
      description =
          "End the job after S seconds (PMIX_JOB_TIMEOUT); this command then exits "
              + EXIT_TIMEOUT
              + ".")
  Integer timeout;

  @Option(
      names = "--app",
      paramLabel = "FILE",
      description =
          "Read the apps from FILE, one per line: [-n N] [-x ...] [--wdir D] CMD [ARG...].")
  String appFile;

  private int endStatus = PmixStatus.SUCCESS;

  /**
   * Checks everything these options and the command line say before anything starts: {@code null}
   * when the run may go on, else the usage status, with one line on {@code err}.
   */
  Integer check(List<String> command, int procs, PrintStream err) {
    try {
      apps(command, procs);
      return null;
    } catch (IllegalArgumentException e) {
      err.println("jdvm run: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
  }

  /**
   * The spawn's apps and the job's time limit: {@code command} split at {@code :} (or the apps of
   * {@code --app FILE}), each with its processes, environment and working directory. {@code mpi} is
   * {@code --mpi}'s mode, given to every app.
   */
  SpawnRequest.Builder builder(List<String> command, int procs, String mpi, PrintStream err) {
    List<RunApps.AppSpec> apps = apps(command, procs);
    Map<String, String> environ = System.getenv();
    SpawnRequest.Builder b = null;
    for (RunApps.AppSpec a : apps) {
      List<String> argv = a.argv();
      b = b == null ? SpawnRequest.of(argv) : b.app(argv.get(0), argv.subList(1, argv.size()));
      b.procs(a.procs());
      RunApps.forward(b, environ, export);
      RunApps.directives(b, a.directives(), environ, err);
      if (mpi != null) {
        b.env("JDVM_MPI", mpi);
      }
      b.cwd(System.getProperty("user.dir"));
      if (a.wdir() != null) {
        b.wdir(RunApps.directory(a.wdir()).toString());
      }
    }
    if (timeout != null) {
      b.jobTimeout(timeout);
    }
    return b;
  }

  private List<RunApps.AppSpec> apps(List<String> command, int procs) {
    if (timeout != null && timeout < 1) {
      throw new IllegalArgumentException("--timeout takes a number of seconds, at least 1");
    }
    RunApps.checkExport(export);
    if (appFile == null) {
      if (command.isEmpty() || command.get(0).equals(RunApps.SEPARATOR)) {
        throw new IllegalArgumentException("no command given (after the options, or --app FILE)");
      }
      List<RunApps.Directive> directives = new ArrayList<>();
      for (List<String> g : given) {
        directives.add(RunApps.directive(g.get(0), g.subList(1, g.size())));
      }
      return RunApps.split(command, new RunApps.AppSpec(procs, directives, wdir, List.of()));
    }
    if (!command.isEmpty()) {
      throw new IllegalArgumentException("--app FILE names the programs: give no command");
    }
    try {
      return RunApps.appFile(Files.readAllLines(Path.of(appFile)));
    } catch (IOException e) {
      throw new IllegalArgumentException("--app " + appFile + ": cannot read it (" + e + ")");
    }
  }

  /** Remembers how the job ended, for {@link #exitStatus}. */
  void seen(JobEnd end) {
    endStatus = end.status();
  }

  /** {@value #EXIT_TIMEOUT} when the DVM ended the job at its time limit, else the job's status. */
  int exitStatus(int status, String nspace, PrintStream err) {
    if (endStatus != PmixStatus.ERR_TIMEOUT) {
      return status;
    }
    err.println(
        "jdvm run: job "
            + nspace
            + " ended: its time limit (--timeout "
            + timeout
            + ") was reached");
    return EXIT_TIMEOUT;
  }

  /**
   * Keeps the environment options in the order they were given, as their result depends on it
   * (PRRTE's "applied in the order they are given on the command line").
   */
  static final class Ordered implements picocli.CommandLine.IParameterConsumer {
    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec spec) {
      String option = ((picocli.CommandLine.Model.OptionSpec) argSpec).longestName();
      int arity = argSpec.arity().max();
      List<String> values = new ArrayList<>();
      values.add(option);
      for (int i = 0; i < arity; i++) {
        if (args.isEmpty()) {
          throw new picocli.CommandLine.ParameterException(
              spec.commandLine(), option + " takes " + argSpec.paramLabel());
        }
        values.add(args.pop());
      }
      of(spec).given.add(values);
    }

    /** The instance of these options in the command being parsed (they are a mixin of it). */
    private static RunEnvOptions of(CommandSpec spec) {
      if (spec.userObject() instanceof RunEnvOptions self) {
        return self;
      }
      for (CommandSpec m : spec.mixins().values()) {
        if (m.userObject() instanceof RunEnvOptions self) {
          return self;
        }
      }
      throw new IllegalStateException("RunEnvOptions is not a mixin of " + spec.name());
    }
  }
}
