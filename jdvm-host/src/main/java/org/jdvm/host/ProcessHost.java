package org.jdvm.host;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jdvm.host.os.Containment;
import org.jdvm.host.os.NativeSpawn;
import org.jdvm.host.os.Posix;
import org.jdvm.pmix.Signal;

/**
 * Starts, signals and reaps the real processes of this host (the "node agent" of architecture.md
 * §5), with a number of threads that does not grow with the number of processes. This class is the
 * face; each piece keeps its own state:
 *
 * <ul>
 *   <li>{@link DescriptorBudget}: the open files the host may hold for processes, each start
 *       counted before anything is opened;
 *   <li>{@link Births} and {@link Birth}: how a process starts, and one start with everything it
 *       opened given back in one place when it fails;
 *   <li>{@link Poller}: the one platform thread watching every process's pipes and exit;
 *   <li>{@link RunningProcess} (known to callers as {@link RunningProc}): one process's state;
 *   <li>{@link LiveGroups}: the processes of each containment group, the group ended with its last.
 * </ul>
 *
 * <p>Each process is started directly (no wrapper program) as the leader of a new session, so a
 * signal to its process group reaches what it started too; with every signal at its default action
 * and unblocked, only fds 0-2 open, stdout and stderr on pipes, and stdin on a pipe ({@link
 * StdinPipe}) or {@code /dev/null}. Where jdvm's native start is built ({@link NativeSpawn}) it is
 * born inside its job's cgroup with its pidfd; elsewhere, or where this kernel kills such births
 * ({@link BirthProbe}), {@code posix_spawn} starts it and the {@link Containment} moves it in. It
 * is our child, and only this host reaps it: it is signalled only until it is reaped, under the
 * same lock, so never a process that reused its pid.
 *
 * <p>The poller reads what is ready and hands it to the process's listener, reaps an ended process
 * ({@code waitid}) and reports its exit once its pipes are drained or {@link
 * Poller#DRAIN_AFTER_EXIT_MS} has passed (a descendant may hold them). A stdin writer that finds
 * its pipe full parks (a virtual thread, unpinned) until the poller sees the pipe writable.
 *
 * <p>Every descendant is kept by the {@link Containment} (a cgroup per job and node, or the
 * subreaper), and ended when the last process of its group has ended, when the host closes, or, if
 * the controller was killed, when the next host opens on the same DVM directory. A group holds at
 * most {@link Containment#DEFAULT_PROCS_PER_GROUP} processes (or what the host was made with): the
 * kernel's {@code pids.max} where the cgroup has the pids controller, and the poller's sweep in
 * every mode, which ends a group past its bound with a line on its processes' standard error.
 *
 * <p>Processes are counted against the open-file limit (raised as far as the process may at start):
 * each holds 2 descriptors (its stdout and stderr pipes), or 1 if its stderr is merged into its
 * stdout ({@link LaunchRequest#mergeStderr}, {@code PMIX_IOF_MERGE_STDERR_STDOUT}); one more for
 * its pidfd while the host is in the first eighth of its budget (past it the exit is found when its
 * pipes close, or, while a descendant holds them, by a sweep every {@link Poller#SWEEP_MS} ms); and
 * one more for a stdin pipe. A start is counted before anything is opened, and one that would leave
 * fewer than the reserve for the controller's own files and connections is refused ({@link
 * LaunchException.Kind#OUT_OF_RESOURCE}) with nothing started.
 */
public final class ProcessHost implements AutoCloseable {
  /**
   * The most descriptors one process holds in the controller: stdout, stderr, pidfd, and stdin if
   * piped (one fewer with its stderr merged into its stdout).
   */
  public static final int FDS_PER_PROC = 4;

  private final Containment containment;
  private final DescriptorBudget budget;
  private final LiveGroups groups;
  private final Births births;
  private final Poller poller;
  private volatile boolean closed;

  /** A host that records nothing (tests, tools). */
  public ProcessHost() {
    this(null, true);
  }

  /**
   * A host for the DVM whose directory is {@code dvmDir}: what a killed predecessor on it left
   * running is ended first.
   */
  public ProcessHost(Path dvmDir) {
    this(dvmDir, true);
  }

  /**
   * @param allowCgroup false forces the subreaper mode (tests of that mode)
   */
  ProcessHost(Path dvmDir, boolean allowCgroup) {
    this(dvmDir, allowCgroup, Integer.MAX_VALUE, Long.MAX_VALUE);
  }

  /**
   * @param maxProcs at most this many processes, below what the open-file limit allows (tests)
   * @param maxFds at most this many descriptors for processes, below the limit (tests)
   */
  ProcessHost(Path dvmDir, boolean allowCgroup, int maxProcs, long maxFds) {
    this(dvmDir, allowCgroup, maxProcs, maxFds, Containment.DEFAULT_PROCS_PER_GROUP);
  }

  /**
   * A host for the DVM whose directory is {@code dvmDir}, each job bounded to {@code procsPerJob}
   * processes on this node ({@link Containment#DEFAULT_PROCS_PER_GROUP} by default).
   */
  public ProcessHost(Path dvmDir, int procsPerJob) {
    this(dvmDir, true, Integer.MAX_VALUE, Long.MAX_VALUE, procsPerJob);
  }

  /**
   * @param procsPerJob the most processes one group (a job on this node) may hold
   */
  ProcessHost(Path dvmDir, boolean allowCgroup, int maxProcs, long maxFds, int procsPerJob) {
    Posix.unavailable()
        .ifPresent(
            why -> {
              throw new IllegalStateException("jdvm starts processes on Linux only: " + why);
            });
    this.budget = DescriptorBudget.ofFileLimit(maxProcs, maxFds);
    this.containment = Containment.open(dvmDir, allowCgroup, WatchedPids::contains, procsPerJob);
    this.groups = new LiveGroups(containment, () -> closed);
    this.births = new Births(containment, budget, groups);
    this.poller = new Poller(containment, groups, () -> closed);
  }

  /** A one-line description of how processes are contained on this host, for the log. */
  public String isolation() {
    return "containment=" + containment.mode().name().toLowerCase(Locale.ROOT);
  }

  /** How processes are contained and started here, one line for {@code jdvm start}. */
  public String containment() {
    return containment.describe();
  }

  /** Starts every process with {@link Posix#spawn} from now on (tests of that path). */
  ProcessHost startingWithPosixSpawn() {
    births.startingWithPosixSpawn();
    return this;
  }

  /**
   * The most processes this host runs at once: the open-file limit, less a reserve for the
   * controller's own files and connections, at 3 descriptors a process for the first eighth and 2
   * after (without stdin pipes).
   */
  public long maxProcs() {
    return budget.maxProcs(2);
  }

  /**
   * {@link #maxProcs()} of a host this process would make now, before one is made: how many
   * processes one process can hold under its open-file limit ({@code jdvm start --node-agents auto}
   * hosts virtual nodes in agents above it).
   */
  public static long maxProcsOfThisProcess() {
    return DescriptorBudget.ofFileLimit(Integer.MAX_VALUE, Long.MAX_VALUE).maxProcs(2);
  }

  /**
   * {@link #maxProcs()} for processes whose stderr is merged into their stdout: 2 descriptors a
   * process for the first eighth, 1 after.
   */
  public long maxMergedProcs() {
    return budget.maxProcs(1);
  }

  /** The descriptors held for processes now (tests: the accounting against what is open). */
  long fdsInUse() {
    return budget.inUse();
  }

  /** How many emptied cgroups are kept for later jobs (tests). */
  int keptCgroups() {
    return containment.keptCgroups();
  }

  /** The processes running (or draining their output) now. */
  public int liveProcs() {
    return poller.watching();
  }

  /** Starts a process in the default group. */
  public RunningProc start(LaunchRequest request, ProcListener listener) throws LaunchException {
    return start("default", request, listener);
  }

  /**
   * Starts a process; returns once it runs (or could not start). Its descendants belong to {@code
   * group} (a job on a node) and are ended when the group's last process has ended.
   *
   * @throws LaunchException if the command does not exist, is not executable, the host is at its
   *     limit, or the OS refuses
   */
  public RunningProc start(String group, LaunchRequest request, ProcListener listener)
      throws LaunchException {
    Path exe = CommandPath.resolve(request);
    String cmd = request.argv().get(0);
    if (exe == null) {
      throw new LaunchException(
          LaunchException.Kind.EXE_NOT_FOUND, "command not found or not executable: " + cmd, null);
    }
    if (closed) {
      throw new LaunchException(
          LaunchException.Kind.INTERRUPTED, "the host is closing; " + cmd + " not started", null);
    }
    DescriptorBudget.Reservation fds =
        budget.reserve(cmd, request.mergeStderr(), request.stdin(), poller::watching);
    Birth b = births.give(group, request, exe, fds);
    RunningProc p = new RunningProc(poller, budget, poller.nextId(), b, listener);
    if (b.writesIn() >= 0) {
      p.attachStdin(b.writesIn(), cmd + "[" + b.pid + "]");
    }
    poller.watch(p);
    return p;
  }

  /**
   * Sends a signal to each process's group (so to what it started in its session). Processes
   * already reaped are skipped, so no other process that reused a pid is ever signalled.
   */
  public void signal(Collection<RunningProc> targets, int signal) {
    for (RunningProc p : targets) {
      p.signal(signal);
    }
  }

  /**
   * Ends processes for good: TERM (and CONT, so a stopped process can act on it) to each group,
   * then KILL to whatever is left after {@code graceMillis}. Returns when all have exited or the
   * KILL was sent.
   */
  public void terminate(Collection<RunningProc> targets, long graceMillis) {
    signal(targets, Signal.TERM.number());
    signal(targets, Signal.CONT.number());
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
    for (RunningProc p : targets) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        p.awaitExit(left);
      }
    }
    List<RunningProc> stubborn = targets.stream().filter(RunningProc::isAlive).toList();
    signal(stubborn, Signal.KILL.number());
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    List<RunningProcess> all = poller.processes();
    for (RunningProcess p : all) {
      p.signal(Signal.KILL.number());
    }
    for (RunningProcess p : all) {
      p.awaitExit(TimeUnit.SECONDS.toNanos(2));
    }
    closed = true;
    containment.close();
    groups.shutdown();
    poller.close();
  }

  /** A started process (its state and behaviour are {@link RunningProcess}'s). */
  public static final class RunningProc extends RunningProcess {
    RunningProc(Poller poller, DescriptorBudget budget, long id, Birth b, ProcListener listener) {
      super(poller, budget, id, b, listener);
    }
  }
}
