package org.jdvm.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
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

  @picocli.CommandLine.Mixin RunPlacementOptions placement = new RunPlacementOptions();

  @Option(
      names = "--mpi",
      paramLabel = "pmix|pmi|none",
      description =
          "Which MPI wire-up the processes are given (default both): pmix (Open MPI), pmi"
              + " (MPICH's simple PMI) or none; Slurm's --mpi spelling.")
  String mpi;

  @Option(names = "--detach", description = "Print the job's namespace and return at once.")
  boolean detach;

  @Option(
      names = "--stdin",
      paramLabel = "RANK|all|none",
      description =
          "Which processes read this command's standard input: one rank (default 0, as mpirun),"
              + " all, or none (they read /dev/null).")
  String stdin = "0";

  @Option(
      names = {"--keep-going", "--enable-recovery"},
      description =
          "A process that exits non-zero or is killed leaves the others running (by default the"
              + " job is ended then, as mpirun ends it).")
  boolean keepGoing;

  @Option(
      names = {"--merge-stderr", "--merge-stderr-to-stdout"},
      description =
          "Each process's stderr is its stdout: both arrive in order on this command's stdout"
              + " (PMIX_IOF_MERGE_STDERR_STDOUT). A node then holds each process with one open"
              + " file instead of two, so about twice as many of them.")
  boolean mergeStderr;

  @picocli.CommandLine.Mixin RunOutputOptions outputOptions = new RunOutputOptions();

  @Parameters(
      paramLabel = "CMD",
      arity = "0..*",
      parameterConsumer = RestIsCommand.class,
      description =
          "The command and its arguments (after --); ':' starts another app of the same job,"
              + " with its own -n, -x, --wdir (mpirun's MPMD form).")
  List<String> command = new ArrayList<>();

  /** Environment, working directory, time limit and several apps (docs/cli.md). */
  @picocli.CommandLine.Mixin RunEnvOptions runEnv = new RunEnvOptions();

  /**
   * Everything from the program on is the command line, as mpirun reads it: options after the
   * program are its own, and after a {@code :} the next app's ({@link RunEnvOptions}), not this
   * command's (picocli would otherwise take a second {@code -n} as this command's again).
   */
  static final class RestIsCommand implements picocli.CommandLine.IParameterConsumer {
    @Override
    public void consumeParameters(
        java.util.Stack<String> args,
        picocli.CommandLine.Model.ArgSpec argSpec,
        picocli.CommandLine.Model.CommandSpec spec) {
      List<String> rest = new ArrayList<>();
      while (!args.isEmpty()) {
        rest.add(args.pop());
      }
      List<String> all =
          new ArrayList<>(argSpec.getValue() == null ? List.of() : argSpec.getValue());
      all.addAll(rest);
      argSpec.setValue(all);
    }
  }

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
        case "--target", "--map-by", "--dvm", "--dir", "--stdin", "--mpi" -> {
          if (value == null) {
            return null;
          }
          switch (a) {
            case "--target" -> r.targets.add(value);
            case "--map-by" -> r.placement.mapBy = value;
            case "--dvm" -> r.dvm.dvm = value;
            case "--stdin" -> r.stdin = value;
            case "--mpi" -> r.mpi = value;
            default -> r.dvm.dir = java.nio.file.Path.of(value);
          }
          i++;
        }
        case "--detach" -> r.detach = true;
        case "--keep-going", "--enable-recovery" -> r.keepGoing = true;
        case "--merge-stderr", "--merge-stderr-to-stdout" -> r.mergeStderr = true;
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
    return !command.isEmpty()
        && (placement.mapBy == null
            || placement.mapBy.equals("slot")
            || placement.mapBy.equals("node"))
        && validMpi(mpi)
        && stdinRank(stdin) != null
        && targets.stream().noneMatch(String::isBlank);
  }

  /** Whether {@code --mpi} is absent or names a mode (docs/protocol.md "Simple PMI"). */
  private static boolean validMpi(String mode) {
    return mode == null || mode.equals("pmix") || mode.equals("pmi") || mode.equals("none");
  }

  /** Which rank reads stdin: a rank, WILDCARD for all, -1 for none; {@code null} if not valid. */
  static Integer stdinRank(String s) {
    if (s == null) {
      return null;
    }
    return switch (s) {
      case "all" -> Proc.RANK_WILDCARD;
      case "none" -> NO_STDIN;
      default -> {
        try {
          int rank = Integer.parseInt(s);
          yield rank >= 0 ? rank : null;
        } catch (NumberFormatException e) {
          yield null;
        }
      }
    };
  }

  /** {@code --stdin none}. */
  static final int NO_STDIN = -1;

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
    String placementError = placement.check();
    if (placementError != null) {
      err.println("jdvm run: " + placementError);
      return Main.EXIT_USAGE;
    }
    if (!validMpi(mpi)) {
      err.println("jdvm run: --mpi takes pmix, pmi or none");
      return Main.EXIT_USAGE;
    }
    Integer rank = stdinRank(stdin);
    if (rank == null || rank != NO_STDIN && rank != Proc.RANK_WILDCARD && rank >= procs) {
      err.println("jdvm run: --stdin takes a rank below -n, all, or none");
      return Main.EXIT_USAGE;
    }
    if (targets.stream().anyMatch(String::isBlank)) {
      err.println("jdvm run: --target must name an allocation, a session or a namespace");
      return Main.EXIT_USAGE;
    }
    Integer badApps = runEnv.check(command, procs, err);
    if (badApps != null) {
      return badApps;
    }
    // A detached job's output is the DVM's to keep (jdvm output), not this command's to print in
    // the moment before it returns.
    return connected(detach ? OutputHandler.DISCARD : OutputHandler.STDIO, false, this::run);
  }

  private int run(JdvmClient client) throws PmixException {
    // Ctrl-C or SIGTERM: the client's own exit hook ends the job before it closes the connection
    // (a hook of our own would race the client's, and the closed socket could win and leave the
    // job running). It is registered before the spawn goes out, so an interrupt while the spawn is
    // under way still ends the job once the DVM names it.
    SpawnRequest spawnRequest = request();
    CompletableFuture<Job> spawning = client.spawnAsync(spawnRequest);
    if (!detach) {
      client.onExit(() -> stopJob(client, spawning));
      Interrupts.install(() -> sendStop(client, spawning));
    }
    Job job;
    try {
      job = spawning.get();
    } catch (ExecutionException e) {
      PmixException why =
          e.getCause() instanceof PmixException p
              ? p
              : new PmixException(PmixStatus.ERROR, String.valueOf(e.getCause()));
      RunPlacementOptions.outputFirst(client);
      int refused = spawnRefused(why, command, out, err);
      RefusedRunHint.say(client, spawnRequest, targets, placement, why.status(), err);
      return refused;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.EXIT_FAILURE;
    }
    if (detach) {
      out.println(job.nspace());
      return Main.EXIT_OK;
    }
    int rank = stdinRank(stdin);
    FileChannel stdinChannel = null;
    if (rank != NO_STDIN) {
      // In the background of a terminal, reading it would stop jdvm (SIGTTIN): the rank gets an
      // empty stdin instead, as mpirun does not read a terminal it does not own either.
      InputStream in = InputStream.nullInputStream();
      if (!ownsProcessStdin) {
        in = System.in; // embedded (a test): read what System.in was set to
      } else if (!inBackgroundOfATerminal()) {
        stdinChannel = new FileInputStream(FileDescriptor.in).getChannel();
        in = Channels.newInputStream(stdinChannel);
      }
      client.forwardStdin(in, new Proc(job.nspace(), rank));
    }
    int exitCode;
    try {
      exitCode =
          Reattach.awaitEnd(dvm, client, job, OutputHandler.STDIO, err, end -> ended(job, end));
      exitCode = runEnv.exitStatus(exitCode, job.nspace(), err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exitCode = Main.EXIT_FAILURE;
    }
    closeStdin(stdinChannel);
    return exitCode;
  }

  private void ended(Job job, org.jdvm.client.JobEnd end) {
    sayHowItEnded(job, end);
    runEnv.seen(end);
  }

  /** As mpirun says it: a signal nobody asked jdvm for ended a process (and so the job). */
  private void sayHowItEnded(Job job, org.jdvm.client.JobEnd end) {
    if (end.status() == PmixStatus.ERR_JOB_ABORTED_BY_SIG && end.exitCode() > 128) {
      err.println(
          "jdvm run: job "
              + job.nspace()
              + " ended: a process was killed by signal "
              + signalName(end.exitCode() - 128));
    }
  }

  /**
   * Whether this JVM is the {@code jdvm} command itself ({@link Main#main}), so that its stdin is
   * the process's file descriptor 0, which {@code jdvm run} may read and close; embedded in another
   * program (a test), it forwards whatever {@code System.in} is.
   */
  static volatile boolean ownsProcessStdin;

  /**
   * Ends the stdin forwarder's read. A thread blocked reading a terminal or an open pipe sits in
   * native code, and the JVM waits up to 300 ms for such threads before it exits (HotSpot's
   * VM_Exit); closing the channel signals the read out of its system call, so jdvm run exits as
   * soon as its job has ended.
   */
  private static void closeStdin(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing is read from stdin any more either way.
    }
  }

  /**
   * The spawn: the command, its environment (PMIx's, simple PMI's and jdvm's own left out, so a
   * {@code jdvm run} inside a job does not hand its own wire-up on), targets, mapping.
   */
  SpawnRequest request() {
    SpawnRequest.Builder b = runEnv.builder(command, procs, mpi, err);
    List<String> ids = new ArrayList<>();
    for (String t : targets) {
      ids.add(t.equals("default") ? "" : t);
    }
    if (!ids.isEmpty()) {
      b.target(ids.toArray(String[]::new));
    }
    placement.applyTo(b);
    int rank = stdinRank(stdin);
    if (rank != NO_STDIN && !detach) {
      b.stdin(rank);
    }
    if (keepGoing) {
      b.recoverable(true);
    }
    if (mergeStderr) {
      b.mergeStderr(true);
    }
    outputOptions.apply(b);
    return b.forwardOutput(true).notifyCompletion(true).build();
  }

  private static String signalName(int number) {
    for (org.jdvm.pmix.Signal s : org.jdvm.pmix.Signal.values()) {
      if (s.number() == number) {
        return s.name() + " (" + number + ")";
      }
    }
    return Integer.toString(number);
  }

  /** A refused spawn: a missing command is said plainly; anything else by its status. */
  static int spawnRefused(PmixException e, List<String> command, PrintStream out, PrintStream err) {
    if (e.status() == org.jdvm.pmix.PmixStatus.ERR_JOB_EXE_NOT_FOUND) {
      err.println("jdvm: command not found or not executable: " + command.get(0));
      return Main.EXIT_REFUSED;
    }
    return Outcomes.failed(e, false, out, err);
  }

  /**
   * Whether stdin is a terminal whose foreground process group is not this process's (a shell's
   * {@code &}): from {@code /proc/self}, the pgrp and tpgid fields of {@code stat}.
   */
  static boolean inBackgroundOfATerminal() {
    try {
      String fd0 = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
      if (!fd0.startsWith("/dev/pts/") && !fd0.startsWith("/dev/tty")) {
        return false;
      }
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // After "pid (comm) ": state ppid pgrp session tty_nr tpgid ...
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return !f[2].equals(f[5]);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** How long the exit hook waits for the DVM to take the job's termination. */
  static final long STOP_WAIT_MS = 5000;

  /**
   * On Ctrl-C (or SIGTERM), end the job rather than leave it behind: the DVM kills every process of
   * it once it has the request, which the reply confirms (bounded).
   */
  /**
   * A forced exit's last word: writes the job's termination without waiting for the answer (the
   * process halts next; the DVM reads the request before it sees the connection close).
   */
  static void sendStop(JdvmClient client, CompletableFuture<Job> spawning) {
    try {
      Job job = spawning.get(Interrupts.LAST_WORD_MS, TimeUnit.MILLISECONDS);
      if (!job.end().isDone()) {
        terminate(client, job);
      }
    } catch (ExecutionException | TimeoutException e) {
      // No job was named in time, or the DVM is gone: nothing to end.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void stopJob(JdvmClient client, CompletableFuture<Job> spawning) {
    try {
      Job job = spawning.get(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
      if (job.end().isDone()) {
        return;
      }
      terminate(client, job).get(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // The DVM is going or gone; nothing more to do.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sends the job's termination; the future is its answer. */
  private static CompletableFuture<Void> terminate(JdvmClient client, Job job) {
    return client.jobControlAsync(
        job.nspace(), Info.of(PmixKeys.JOB_CTRL_TERMINATE, Value.bool(true)));
  }
}
