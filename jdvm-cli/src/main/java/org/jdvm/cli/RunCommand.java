package org.jdvm.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jdvm run}: spawn a job, forward its output, wait for it, and exit with its status
 * (docs/cli.md). This is the command people and scripts run most, so it also has a lean path that
 * {@link Main} takes without building picocli's model (see {@link #parseLean}); both paths fill the
 * same fields.
 */
@Command(
    description = "Run a job and wait for it; exits with the job's status.",
    mixinStandardHelpOptions = true)
public final class RunCommand extends DvmCommand implements Callable<Integer> {
  @Option(
      names = {"-n", "--np"},
      paramLabel = "NP",
      description = "Number of processes (default 1).")
  int procs = 1;

  @Option(
      names = "--target",
      paramLabel = "ID",
      description =
          "An allocation id to run in (repeatable); 'default' is the default session."
              + " The job may use the union of the targets' nodes.")
  List<String> targets = new ArrayList<>();

  @Option(
      names = "--map-by",
      paramLabel = "slot|node",
      description = "Fill each node's slots first (slot, the default) or go round the nodes.")
  String mapBy;

  @Option(names = "--detach", description = "Print the job's namespace and return at once.")
  boolean detach;

  @Parameters(
      paramLabel = "CMD",
      arity = "1..*",
      description = "The command and its arguments (after --).")
  List<String> command = new ArrayList<>();

  public RunCommand() {}

  /** The job a command runs inside something else it holds ({@code alloc new -- CMD}). */
  RunCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Parses {@code run}'s arguments by hand, for the lean start-up path. Returns {@code null} when
   * the arguments need picocli (help, or anything it would reject), which then parses them again
   * and says what is wrong.
   */
  static RunCommand parseLean(String[] args) {
    RunCommand r = new RunCommand();
    int i = 1;
    for (; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        i++;
        break;
      }
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "-n", "--np" -> {
          Integer n = positive(value);
          if (n == null) {
            return null;
          }
          r.procs = n;
          i++;
        }
        case "--target", "--map-by", "--dvm", "--dir" -> {
          if (value == null) {
            return null;
          }
          switch (a) {
            case "--target" -> r.targets.add(value);
            case "--map-by" -> r.mapBy = value;
            case "--dvm" -> r.dvm.dvm = value;
            default -> r.dvm.dir = java.nio.file.Path.of(value);
          }
          i++;
        }
        case "--detach" -> r.detach = true;
        default -> {
          if (a.startsWith("-")) {
            return null;
          }
          r.command.addAll(List.of(args).subList(i, args.length));
          return r.valid() ? r : null;
        }
      }
    }
    r.command.addAll(List.of(args).subList(Math.min(i, args.length), args.length));
    return r.valid() ? r : null;
  }

  /**
   * The lean path: runs the command if {@link #parseLean} reads the arguments, else {@code null}.
   */
  static Integer runLean(String[] args) {
    RunCommand run = parseLean(args);
    return run != null ? run.call() : null;
  }

  private boolean valid() {
    return !command.isEmpty() && (mapBy == null || mapBy.equals("slot") || mapBy.equals("node"));
  }

  private static Integer positive(String s) {
    if (s == null) {
      return null;
    }
    try {
      int n = Integer.parseInt(s);
      return n > 0 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public Integer call() {
    if (procs < 1) {
      err.println("jdvm run: -n must be at least 1");
      return Main.EXIT_USAGE;
    }
    if (mapBy != null && !mapBy.equals("slot") && !mapBy.equals("node")) {
      err.println("jdvm run: --map-by takes slot or node");
      return Main.EXIT_USAGE;
    }
    return connected(OutputHandler.STDIO, false, this::run);
  }

  private int run(JdvmClient client) throws PmixException {
    Job job;
    try {
      job = client.spawn(request());
    } catch (PmixException e) {
      return spawnRefused(e, command, out, err);
    }
    if (detach) {
      out.println(job.nspace());
      return Main.EXIT_OK;
    }
    Thread interrupt = Thread.ofPlatform().unstarted(() -> stopJob(client, job));
    Runtime.getRuntime().addShutdownHook(interrupt);
    try {
      return job.awaitEnd().exitCode();
    } finally {
      removeHook(interrupt);
    }
  }

  /** The spawn: the command, its environment (PMIx's and jdvm's own left out), targets, mapping. */
  SpawnRequest request() {
    SpawnRequest.Builder b = SpawnRequest.of(command).procs(procs);
    for (Map.Entry<String, String> e : System.getenv().entrySet()) {
      String k = e.getKey();
      if (!k.startsWith("PMIX_") && !k.startsWith("JDVM_")) {
        b.env(k, e.getValue());
      }
    }
    b.cwd(System.getProperty("user.dir"));
    List<String> ids = new ArrayList<>();
    for (String t : targets) {
      ids.add(t.equals("default") ? "" : t);
    }
    if (!ids.isEmpty()) {
      b.target(ids.toArray(String[]::new));
    }
    ifGiven(mapBy, b::mapBy);
    return b.forwardOutput(true).notifyCompletion(true).build();
  }

  /** A refused spawn: a missing command is said plainly; anything else by its status. */
  static int spawnRefused(PmixException e, List<String> command, PrintStream out, PrintStream err) {
    if (e.status() == org.jdvm.pmix.PmixStatus.ERR_JOB_EXE_NOT_FOUND) {
      err.println("jdvm: command not found or not executable: " + command.get(0));
      return Main.EXIT_REFUSED;
    }
    return Outcomes.failed(e, false, out, err);
  }

  /** On Ctrl-C (or SIGTERM), end the job rather than leave it behind. */
  private static void stopJob(JdvmClient client, Job job) {
    if (!job.end().isDone()) {
      try {
        client.terminate(job.nspace());
      } catch (PmixException e) {
        // The DVM is going or gone; nothing more to do.
      }
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs.
    }
  }
}
