package org.jdvm.host;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jdvm.host.os.Containment;
import org.jdvm.host.os.NativeSpawn;
import org.jdvm.host.os.Posix;
import org.jdvm.host.os.Start;
import org.jdvm.pmix.Signal;

/**
 * Starts, signals and reaps the real processes of this host (the "node agent" of architecture.md
 * §5), with a number of threads that does not grow with the number of processes.
 *
 * <p>Each process is started directly (no wrapper program) as the leader of a new session, so a
 * signal to its process group reaches what it started too; with every signal at its default action
 * and unblocked, only fds 0-2 open, stdout and stderr on pipes, and stdin on a pipe ({@link
 * StdinPipe}) or {@code /dev/null}. Where jdvm's native start is built ({@link NativeSpawn}) it is
 * born inside its job's cgroup with its pidfd; elsewhere, or where this kernel kills such births
 * ({@link #birthsSurvive}), {@code posix_spawn} starts it and the {@link Containment} moves it in.
 * It is our child, and only this host reaps it: it is signalled only until it is reaped, under the
 * same lock, so never a process that reused its pid.
 *
 * <p>One platform thread, the poller, waits in {@code epoll} for every process's output pipes and
 * pidfd: it reads what is ready and hands it to the process's listener, reaps an ended process
 * ({@code waitid}) and reports its exit once its pipes are drained or {@link #DRAIN_AFTER_EXIT_MS}
 * has passed (a descendant may hold them). A stdin writer that finds its pipe full parks (a virtual
 * thread, unpinned) until the poller sees the pipe writable.
 *
 * <p>Every descendant is kept by the {@link Containment} (a cgroup per job and node, or the
 * subreaper), and ended when the last process of its group has ended, when the host closes, or, if
 * the controller was killed, when the next host opens on the same DVM directory.
 *
 * <p>Processes are counted against the open-file limit (raised as far as the process may at start):
 * each holds 2 descriptors (its stdout and stderr pipes), or 1 if its stderr is merged into its
 * stdout ({@link LaunchRequest#mergeStderr}, {@code PMIX_IOF_MERGE_STDERR_STDOUT}); one more for
 * its pidfd while the host is in the first eighth of its budget (past it the exit is found when its
 * pipes close, or, while a descendant holds them, by a sweep every {@link #SWEEP_MS} ms); and one
 * more for a stdin pipe. A start is counted before anything is opened, and one that would leave
 * fewer than the reserve for the controller's own files and connections is refused ({@link
 * LaunchException.Kind#OUT_OF_RESOURCE}) with nothing started.
 */
public final class ProcessHost implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** How long a process's output may keep flowing after it exited (descendants holding a pipe). */
  static final long DRAIN_AFTER_EXIT_MS = 500;

  /**
   * The most descriptors one process holds in the controller: stdout, stderr, pidfd, and stdin if
   * piped (one fewer with its stderr merged into its stdout).
   */
  public static final int FDS_PER_PROC = 4;

  /**
   * The open-file limit a privileged controller sets itself (the kernel's default {@code
   * fs.nr_open}): room for 250,000 processes.
   */
  static final long WANTED_FILES = 1 << 20;

  private static final int OUT = 0;
  private static final int ERR = 1;
  private static final int EXIT = 2;
  private static final int STDIN = 3;
  private static final long WAKE = -1;
  private static final int EPOLLONESHOT = 1 << 30;
  private static final int READ_BUFFER = 64 << 10;
  private static final int NO_PIDFD = Integer.MIN_VALUE;

  /** The group of the start-up check that births into a cgroup live ({@link #birthsSurvive}). */
  private static final String PROBE_GROUP = "\u0000birth-check";

  private static final int E2BIG = 7;
  private static final int ENOSYS = 38;

  /** Whether starts go through {@link NativeSpawn}: it loaded, and clone3 has not failed. */
  private volatile boolean nativeSpawn = NativeSpawn.unavailable().isEmpty();

  private static final int PIDFD_SHARE = 8;

  /** How often processes without a pidfd whose pipes a descendant holds are checked for exit. */
  private static final long SWEEP_MS = 1000;

  private final Containment containment;
  private final int maxProcs;
  private final long fdBudget;
  private final AtomicLong fdsInUse = new AtomicLong(); // descriptors held for processes
  private final int epfd;
  private final int wakeFd;
  private final Thread poller;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, RunningProc> procs = new ConcurrentHashMap<>();

  /**
   * The children every host in this JVM watches itself. One set for the JVM, not one per host: a
   * host's sweep reaps zombie children nobody watches (orphans it adopted), and with two hosts in
   * one JVM (an agent and a DVM in a test, say) a per-host set let one host reap the other's child
   * and steal its exit status.
   */
  private static final java.util.Set<Integer> livePids = ConcurrentHashMap.newKeySet();

  private final Map<String, int[]> liveByGroup = new HashMap<>();
  private final ExecutorService groupEnds = Executors.newVirtualThreadPerTaskExecutor();
  private final List<RunningProc> reapSoon = new ArrayList<>(); // poller thread only
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
    Posix.unavailable()
        .ifPresent(
            why -> {
              throw new IllegalStateException("jdvm starts processes on Linux only: " + why);
            });
    long limit = Posix.raiseFileLimit(WANTED_FILES);
    long reserve = Math.max(128, limit / 64); // the controller's own files and connections
    this.fdBudget = Math.min(maxFds, Math.max(FDS_PER_PROC, limit - reserve));
    this.maxProcs = maxProcs;
    this.containment = Containment.open(dvmDir, allowCgroup, livePids::contains);
    if (nativeSpawn && containment.mode() == Containment.Mode.CGROUP && !birthsSurvive()) {
      nativeSpawn = false;
    }
    describeStarts();
    try {
      epfd = Posix.epollCreate();
      wakeFd = Posix.eventfd();
    } catch (Posix.PosixException e) {
      throw new IllegalStateException("cannot watch processes: " + e.getMessage(), e);
    }
    Posix.epollCtl(epfd, true, wakeFd, Posix.EPOLLIN, WAKE);
    poller = Thread.ofPlatform().daemon().name("jdvm-process-poller").start(this::pollLoop);
  }

  /** A one-line description of how processes are contained on this host, for the log. */
  public String isolation() {
    return "containment=" + containment.mode().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** How processes are contained and started here, one line for {@code jdvm start}. */
  public String containment() {
    return containment.describe();
  }

  /** Records how processes start now ({@link #containment}). */
  private void describeStarts() {
    containment.describeStarts(
        !nativeSpawn
            ? "started by posix_spawn"
                + (containment.mode() == Containment.Mode.CGROUP ? " and moved in" : "")
            : containment.mode() == Containment.Mode.CGROUP
                ? "each process born in its job's cgroup (clone3)"
                : "started by clone3");
  }

  /** Starts every process with {@link Posix#spawn} from now on (tests of that path). */
  ProcessHost startingWithPosixSpawn() {
    nativeSpawn = false;
    describeStarts();
    return this;
  }

  /**
   * The most processes this host runs at once: the open-file limit, less a reserve for the
   * controller's own files and connections, at 3 descriptors a process for the first eighth and 2
   * after (without stdin pipes).
   */
  public long maxProcs() {
    return maxProcs(2);
  }

  /**
   * {@link #maxProcs()} for processes whose stderr is merged into their stdout: 2 descriptors a
   * process for the first eighth, 1 after.
   */
  public long maxMergedProcs() {
    return maxProcs(1);
  }

  private long maxProcs(int outputFds) {
    long share = fdBudget / PIDFD_SHARE;
    long withPidfd = (share + outputFds) / (outputFds + 1); // started while below the share
    long left = Math.max(0, fdBudget - withPidfd * (outputFds + 1));
    return Math.min(maxProcs, withPidfd + left / outputFds);
  }

  /** The descriptors held for processes now (tests: the accounting against what is open). */
  long fdsInUse() {
    return fdsInUse.get();
  }

  /** How many emptied cgroups are kept for later jobs (tests). */
  int keptCgroups() {
    return containment.keptCgroups();
  }

  /** The processes running (or draining their output) now. */
  public int liveProcs() {
    return procs.size();
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
    Path exe = resolve(request);
    String cmd = request.argv().get(0);
    if (exe == null) {
      throw new LaunchException(
          LaunchException.Kind.EXE_NOT_FOUND, "command not found or not executable: " + cmd, null);
    }
    if (closed) {
      throw new LaunchException(
          LaunchException.Kind.INTERRUPTED, "the host is closing; " + cmd + " not started", null);
    }
    boolean merge = request.mergeStderr();
    // The descriptors this process will hold are counted before any is opened, so that
    // concurrent starts never pass the budget together; a failure below gives them back.
    boolean withPidfd;
    int need;
    long before;
    do {
      before = fdsInUse.get();
      // A pidfd reports the exit at once, even while a descendant holds the pipes; past an eighth
      // of the descriptor budget it is left out, and the exit is found when the pipes close, or
      // by the sweep.
      withPidfd = before < fdBudget / PIDFD_SHARE;
      need = (merge ? 1 : 2) + (withPidfd ? 1 : 0) + (request.stdin() ? 1 : 0);
      if (procs.size() >= maxProcs || before + need > fdBudget) {
        throw new LaunchException(
            LaunchException.Kind.OUT_OF_RESOURCE,
            "cannot start "
                + cmd
                + ": this host runs "
                + procs.size()
                + " processes, its limit (open files: "
                + before
                + " of the "
                + fdBudget
                + " it may hold for processes in use, "
                + need
                + " more needed; the open-file limit is "
                + Posix.fileLimit()[0]
                + (merge ? ")" : "; merging stderr into stdout halves a process's share)"),
            null);
      }
    } while (!fdsInUse.compareAndSet(before, before + need));
    int[] out = null;
    int[] err = null;
    int[] in = null;
    int pid;
    List<String> argv = new ArrayList<>(request.argv());
    argv.set(0, exe.toString());
    Map<String, String> env = request.environment();
    String[] tag = containment.tagFor(group);
    if (tag != null) {
      env = new HashMap<>(env);
      env.put(tag[0], tag[1]);
    }
    groupStarting(group);
    boolean born = false;
    int pidfd = NO_PIDFD;
    try {
      out = Posix.pipe(0);
      err = merge ? null : Posix.pipe(0);
      in = request.stdin() ? Posix.pipe(1) : null;
      int stdin = in == null ? -1 : in[0];
      int stderr = merge ? out[1] : err[1];
      Start start = new Start(exe, argv, env, request.workingDirectory(), stdin, out[1], stderr);
      Path birthplace = nativeSpawn ? containment.birthplace(group) : null;
      NativeSpawn.Started started = nativeSpawn ? spawnNative(start, birthplace, withPidfd) : null;
      if (started != null) {
        pid = started.pid();
        pidfd = withPidfd ? started.pidfd() : NO_PIDFD;
        born = birthplace != null;
      } else {
        pid = Posix.spawn(start);
      }
    } catch (Posix.PosixException e) {
      closeAll(out, err, in);
      fdsInUse.addAndGet(-need);
      groupEnded(group);
      int errno = e.errno();
      boolean resources =
          errno == Posix.EMFILE
              || errno == Posix.ENFILE
              || errno == Posix.ENOMEM
              || errno == Posix.EAGAIN;
      throw new LaunchException(
          resources ? LaunchException.Kind.OUT_OF_RESOURCE : LaunchException.Kind.START_REFUSED,
          "cannot start " + cmd + ": " + Posix.strerror(errno),
          e);
    }
    Posix.close(out[1]);
    if (err != null) {
      Posix.close(err[1]);
    }
    if (in != null) {
      Posix.close(in[0]);
    }
    livePids.add(pid);
    if (!born) {
      containment.adopt(pid, group);
    }
    if (withPidfd && pidfd == NO_PIDFD) {
      pidfd = Posix.pidfdOpen(pid);
    }
    if (pidfd < 0 && pidfd != NO_PIDFD) {
      // Out of descriptors between the check and here: the process cannot be watched, so it
      // must not run. It is our unreaped child, so its pid is still its own.
      Posix.kill(-pid, Signal.KILL.number());
      Posix.kill(pid, Signal.KILL.number());
      closeAll(
          new int[] {out[0], -1},
          err == null ? null : new int[] {err[0], -1},
          in == null ? null : new int[] {-1, in[1]});
      fdsInUse.addAndGet(-need);
      reapBlocking(pid);
      livePids.remove(pid);
      groupEnded(group);
      throw new LaunchException(
          LaunchException.Kind.OUT_OF_RESOURCE,
          "cannot watch " + cmd + ": " + Posix.strerror(-pidfd),
          null);
    }
    long id = ids.incrementAndGet();
    RunningProc p =
        new RunningProc(this, id, pid, pidfd, out[0], err == null ? -1 : err[0], group, listener);
    if (in != null) {
      p.stdin = new StdinPipe(new FdOutput(p, in[1]), cmd + "[" + pid + "]");
    }
    procs.put(id, p);
    Posix.epollCtl(epfd, true, out[0], Posix.EPOLLIN, (id << 2) | OUT);
    if (err != null) {
      Posix.epollCtl(epfd, true, err[0], Posix.EPOLLIN, (id << 2) | ERR);
    }
    if (pidfd >= 0) {
      Posix.epollCtl(epfd, true, pidfd, Posix.EPOLLIN, (id << 2) | EXIT);
    }
    return p;
  }

  /**
   * Whether a process born into a fresh cgroup lives: it exits normally rather than killed at
   * birth. Linux 6.14 and later kill such a process when the cgroup this one runs in has been
   * killed fewer times than the target (see {@link Containment#end}); a fresh target has never been
   * killed, so only a controller in a cgroup once killed and not emptied meets it, and then starts
   * with {@code posix_spawn} and moves.
   */
  private boolean birthsSurvive() {
    Path exe =
        Stream.of("/bin/true", "/usr/bin/true")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);
    Path where = containment.birthplace(PROBE_GROUP);
    if (exe == null || where == null) {
      return false;
    }
    int pidfd = -1;
    try {
      NativeSpawn.Started s =
          NativeSpawn.spawn(new Start(exe, List.of("true"), Map.of(), null, -1, 1, 2), where, true);
      pidfd = s.pidfd();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      Posix.Exit exit;
      while ((exit = Posix.reap(pidfd)) == null && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      if (exit == null) {
        Posix.kill(s.pid(), Signal.KILL.number());
      }
      boolean lived = exit != null && exit.signal() == 0 && exit.exitCode() == 0;
      if (!lived) {
        LOG.log(
            System.Logger.Level.WARNING,
            "a process born into a cgroup did not live ("
                + exit
                + "): processes are started by"
                + " posix_spawn and moved into their cgroups");
      }
      return lived;
    } catch (Posix.PosixException e) {
      LOG.log(
          System.Logger.Level.INFO,
          "cannot start a process inside a cgroup ("
              + e.getMessage()
              + "): processes are"
              + " started by posix_spawn and moved into their cgroups");
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      Posix.close(pidfd);
      containment.end(PROBE_GROUP);
    }
  }

  /**
   * Starts through {@link NativeSpawn}, or returns {@code null} for {@link Posix#spawn} to start
   * instead: when this kernel has no {@code clone3} (never tried again), or a birth inside the
   * cgroup failed (this start is made outside and moved; a failed attempt leaves nothing behind).
   */
  private NativeSpawn.Started spawnNative(Start start, Path birthplace, boolean withPidfd)
      throws Posix.PosixException {
    try {
      return NativeSpawn.spawn(start, birthplace, withPidfd);
    } catch (Posix.PosixException e) {
      switch (e.errno()) {
        case ENOSYS, E2BIG -> {
          nativeSpawn = false;
          describeStarts();
          LOG.log(
              System.Logger.Level.INFO,
              "this kernel has no clone3: processes are started by posix_spawn");
          return null;
        }
        default -> {
          // A birth inside the cgroup failed (the cgroup refused it, or the program did): start
          // it again the other way, which moves it in, or fails with the program's own error.
          if (birthplace != null) {
            return null;
          }
          throw e;
        }
      }
    }
  }

  private static void closeAll(int[]... pipes) {
    for (int[] p : pipes) {
      if (p != null) {
        Posix.close(p[0]);
        Posix.close(p[1]);
      }
    }
  }

  /** Reaps a child we could not watch, bounded. */
  private static void reapBlocking(int pid) {
    int fd = Posix.pidfdOpen(pid);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (fd >= 0 && Posix.reap(fd) == null && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    Posix.close(fd);
  }

  private void groupStarting(String group) {
    synchronized (liveByGroup) {
      liveByGroup.computeIfAbsent(group, g -> new int[1])[0]++;
    }
  }

  /** The group lost a process; its last one gone, whatever it left behind is ended. */
  private void groupEnded(String group) {
    synchronized (liveByGroup) {
      int[] n = liveByGroup.get(group);
      if (n == null || --n[0] > 0) {
        return;
      }
      liveByGroup.remove(group);
      // Usually nothing of the group runs any more: then it ends here, on this thread.
      if (closed || containment.endIfNothingRuns(group)) {
        return;
      }
    }
    groupEnds.execute(
        () -> {
          synchronized (liveByGroup) {
            if (liveByGroup.containsKey(group)) {
              return; // started again meanwhile: the group is in use
            }
            containment.end(group);
          }
        });
  }

  /**
   * Resolves the command the way a shell would with the process's own PATH: a name containing a
   * slash is taken relative to the working directory; a bare name is looked up on PATH.
   */
  static Path resolve(LaunchRequest request) {
    String cmd = request.argv().get(0);
    Path cwd = request.workingDirectory() != null ? request.workingDirectory() : Path.of("");
    if (cmd.contains("/")) {
      Path p = cwd.resolve(cmd);
      return isExecutableFile(p) ? p.toAbsolutePath() : null;
    }
    String path = request.environment().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
    for (String dir : path.split(":")) {
      Path p = cwd.resolve(dir.isEmpty() ? "." : dir).resolve(cmd);
      if (isExecutableFile(p)) {
        return p.toAbsolutePath();
      }
    }
    return null;
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }

  // ---- the poller ----------------------------------------------------------------------------

  private void pollLoop() {
    int max = 256;
    PriorityQueue<RunningProc> draining =
        new PriorityQueue<>((a, b) -> Long.compare(a.drainDeadline, b.drainDeadline));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment events = arena.allocate(Posix.EPOLL_EVENT_SIZE * max, 8);
      MemorySegment buf = arena.allocate(READ_BUFFER, 8);
      MemorySegment state = Posix.callState(arena);
      MemorySegment eight = arena.allocate(8, 8);
      boolean adopting = true; // the subreaper in both modes
      long nextSweep = System.nanoTime();
      while (!closed) {
        long timeout = -1;
        if (!draining.isEmpty()) {
          long left = draining.peek().drainDeadline - System.nanoTime();
          timeout = Math.max(0, TimeUnit.NANOSECONDS.toMillis(left) + 1);
        }
        if (!reapSoon.isEmpty()) {
          // Pipes closed before the process became a zombie: look again shortly.
          for (RunningProc p : List.copyOf(reapSoon)) {
            exited(p, draining);
          }
          reapSoon.removeIf(p -> p.exit != null);
          timeout = reapSoon.isEmpty() ? timeout : (timeout < 0 ? 1 : Math.min(timeout, 1));
        }
        if (adopting) {
          if (System.nanoTime() - nextSweep >= 0) {
            containment.reapAdopted();
            // Only when some child has ended: with thousands of running processes the sweep
            // would otherwise cost a waitid for each, every second.
            if (Posix.peekZombie() != 0) {
              for (RunningProc p : procs.values()) {
                if (p.pidfd < 0 && p.exit == null) {
                  exited(p, draining);
                }
              }
            }
            nextSweep = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SWEEP_MS);
          }
          timeout = timeout < 0 ? SWEEP_MS : Math.min(timeout, SWEEP_MS);
        }
        int n = Posix.epollWait(epfd, events, max, (int) Math.min(timeout, Integer.MAX_VALUE));
        for (int i = 0; i < n; i++) {
          long data = Posix.eventData(events, i);
          if (data == WAKE) {
            Posix.read(wakeFd, eight, state);
            continue;
          }
          RunningProc p = procs.get(data >>> 2);
          if (p == null) {
            continue;
          }
          try {
            switch ((int) (data & 3)) {
              case OUT, ERR -> pump(p, (int) (data & 3), buf, state, draining);
              case EXIT -> exited(p, draining);
              default -> p.stdinWritable();
            }
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "pid " + p.pid + ": " + e, e);
          }
        }
        long now = System.nanoTime();
        while (!draining.isEmpty() && draining.peek().drainDeadline - now <= 0) {
          finish(draining.poll());
        }
      }
    } catch (Throwable t) {
      LOG.log(System.Logger.Level.ERROR, "the process poller failed: " + t, t);
    }
  }

  private void pump(
      RunningProc p,
      int stream,
      MemorySegment buf,
      MemorySegment state,
      PriorityQueue<RunningProc> draining) {
    int fd = stream == OUT ? p.outFd : p.errFd;
    if (fd < 0) {
      return;
    }
    ProcListener.Stream s = stream == OUT ? ProcListener.Stream.STDOUT : ProcListener.Stream.STDERR;
    for (int round = 0; round < 16; round++) {
      long n = Posix.read(fd, buf, state);
      if (n > 0) {
        p.listener.output(s, buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        continue;
      }
      if (n == -Posix.EAGAIN) {
        return;
      }
      if (n == -Posix.EINTR) {
        continue;
      }
      // End of file (or an error): the stream is done.
      closeStream(p, stream);
      if (p.exit != null && p.outFd < 0 && p.errFd < 0) {
        draining.remove(p);
        finish(p);
      } else if (p.exit == null && p.pidfd < 0 && p.outFd < 0 && p.errFd < 0) {
        exited(p, draining); // no pidfd: both pipes closed is the sign of the exit
        if (p.exit == null) {
          reapSoon.add(p);
        }
      }
      return;
    }
  }

  private void closeStream(RunningProc p, int stream) {
    int fd = stream == OUT ? p.outFd : p.errFd;
    if (fd >= 0) {
      Posix.epollDel(epfd, fd);
      Posix.close(fd);
      fdsInUse.decrementAndGet();
      if (stream == OUT) {
        p.outFd = -1;
      } else {
        p.errFd = -1;
      }
    }
  }

  private void exited(RunningProc p, PriorityQueue<RunningProc> draining) {
    Posix.Exit e;
    synchronized (p) {
      if (p.exit != null) {
        return;
      }
      e = p.pidfd >= 0 ? Posix.reap(p.pidfd) : Posix.reapChild(p.pid);
      if (e == null) {
        return; // not yet (a spurious wake-up)
      }
      p.exit = e;
      livePids.remove(p.pid);
      if (p.pidfd >= 0) {
        Posix.epollDel(epfd, p.pidfd);
        Posix.close(p.pidfd);
        fdsInUse.decrementAndGet();
      }
    }
    p.reaped.countDown();
    if (p.stdin != null) {
      p.stdin.processExited();
    }
    if (p.outFd < 0 && p.errFd < 0) {
      finish(p);
    } else {
      p.drainDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MS);
      draining.add(p);
    }
  }

  private void finish(RunningProc p) {
    if (p.finished) {
      return;
    }
    p.finished = true;
    closeStream(p, OUT);
    closeStream(p, ERR);
    procs.remove(p.id);
    try {
      p.listener.exited(p.exit.exitCode(), p.exit.signal());
    } finally {
      p.done.complete(null);
      groupEnded(p.group);
    }
  }

  // ---- signals -------------------------------------------------------------------------------

  /**
   * Sends a signal to each process's group (so to what it started in its session). Processes
   * already reaped are skipped, so no other process that reused a pid is ever signalled.
   */
  public void signal(Collection<RunningProc> targets, int signal) {
    for (RunningProc p : targets) {
      p.signal(signal);
    }
  }

  /** The process group of a process, from {@code /proc/<pid>/stat}; -1 if it cannot be read. */
  static long processGroupOf(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so parse after the
      // last ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
      return Long.parseLong(f[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
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
    List<RunningProc> all = List.copyOf(procs.values());
    signal(all, Signal.KILL.number());
    for (RunningProc p : all) {
      p.awaitExit(TimeUnit.SECONDS.toNanos(2));
    }
    closed = true;
    containment.close();
    groupEnds.shutdown();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment one = arena.allocate(ValueLayout.JAVA_LONG);
      one.set(ValueLayout.JAVA_LONG, 0, 1L);
      Posix.write(wakeFd, one, Posix.callState(arena));
    }
    try {
      poller.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (RunningProc p : List.copyOf(procs.values())) {
      Posix.close(p.outFd);
      Posix.close(p.errFd);
    }
    Posix.close(wakeFd);
    Posix.close(epfd);
  }

  /** A started process. */
  public static final class RunningProc {
    private final ProcessHost host;
    private final long id;
    private final int pid;
    private final int pidfd;
    private final String group;
    private final ProcListener listener;
    private final CountDownLatch reaped = new CountDownLatch(1);
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private StdinPipe stdin;
    private volatile Posix.Exit exit;
    // Poller thread only:
    private int outFd;
    private int errFd;
    private long drainDeadline;
    private boolean finished;
    // The stdin writer waiting for room, completed by the poller.
    private volatile CompletableFuture<Void> stdinRoom;
    private boolean stdinWatched;

    RunningProc(
        ProcessHost host,
        long id,
        int pid,
        int pidfd,
        int outFd,
        int errFd,
        String group,
        ProcListener listener) {
      this.host = host;
      this.id = id;
      this.pid = pid;
      this.pidfd = pidfd;
      this.outFd = outFd;
      this.errFd = errFd;
      this.group = group;
      this.listener = listener;
    }

    /** Its stdin pipe, or {@code null} when it reads {@code /dev/null}. */
    public StdinPipe stdin() {
      return stdin;
    }

    public long pid() {
      return pid;
    }

    /** Whether it has not been reaped yet. */
    public boolean isAlive() {
      return exit == null;
    }

    /** Always: every process leads its own session and process group. */
    public boolean ownGroup() {
      return true;
    }

    /** Sends a signal to its process group, unless it has been reaped. */
    synchronized void signal(int signal) {
      if (exit != null) {
        return;
      }
      if (Posix.kill(-pid, signal) != 0) {
        Posix.kill(pid, signal);
      }
    }

    /** Waits at most {@code nanos} for the process to exit; true if it has. */
    public boolean awaitExit(long nanos) {
      try {
        return reaped.await(nanos, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !isAlive();
      }
    }

    /** Completes once its exit has been reported (after its output). */
    public CompletableFuture<Void> reported() {
      return done;
    }

    /** For tests: waits for the exit and returns the status as a shell reports it, bounded. */
    public int waitFor(long millis) throws TimeoutException, InterruptedException {
      if (!reaped.await(millis, TimeUnit.MILLISECONDS)) {
        throw new TimeoutException("pid " + pid + " still running after " + millis + " ms");
      }
      Posix.Exit e = exit;
      return e.signal() > 0 ? Signal.shellExitStatus(e.signal()) : e.exitCode();
    }

    void stdinWritable() {
      CompletableFuture<Void> f = stdinRoom;
      if (f != null) {
        f.complete(null);
      }
    }
  }

  /**
   * A process's stdin pipe (non-blocking), written by one thread (the {@link StdinPipe}'s); a write
   * that finds it full parks until the poller sees room. A close during a write (the process
   * exited) is carried out by the writer as it returns, so the fd is never closed under a write.
   */
  private static final class FdOutput extends OutputStream {
    private final RunningProc proc;
    private final Object lock = new Object();
    private int fd;
    private boolean writing;
    private volatile boolean closeRequested;

    FdOutput(RunningProc proc, int fd) {
      this.proc = proc;
      this.fd = fd;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int target;
      synchronized (lock) {
        if (fd < 0 || closeRequested) {
          throw new IOException("closed");
        }
        writing = true;
        target = fd;
      }
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment state = Posix.callState(arena);
        MemorySegment src = arena.allocate(Math.max(1, len));
        MemorySegment.copy(b, off, src, ValueLayout.JAVA_BYTE, 0, len);
        long done = 0;
        while (done < len) {
          if (closeRequested) {
            throw new IOException("closed");
          }
          long n = Posix.write(target, src.asSlice(done, len - done), state);
          if (n >= 0) {
            done += n;
          } else if (n == -Posix.EAGAIN) {
            awaitRoom(target);
          } else if (n != -Posix.EINTR) {
            throw new IOException(Posix.strerror((int) -n));
          }
        }
      } finally {
        synchronized (lock) {
          writing = false;
          if (closeRequested && fd >= 0) {
            Posix.close(fd);
            proc.host.fdsInUse.decrementAndGet();
            fd = -1;
          }
        }
      }
    }

    private void awaitRoom(int target) throws IOException {
      CompletableFuture<Void> f = new CompletableFuture<>();
      proc.stdinRoom = f;
      int rc =
          Posix.epollCtl(
              proc.host.epfd,
              !proc.stdinWatched,
              target,
              Posix.EPOLLOUT | EPOLLONESHOT,
              (proc.id << 2) | STDIN);
      proc.stdinWatched = true;
      if (rc != 0) {
        throw new IOException("cannot wait for the pipe: " + Posix.strerror(-rc));
      }
      try {
        // Bounded, as a safety net: a wake-up lost would only cost this second.
        f.get(1, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        // Try again.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted");
      } catch (ExecutionException e) {
        throw new IOException(e.getCause());
      }
    }

    @Override
    public void close() {
      synchronized (lock) {
        if (writing) {
          closeRequested = true;
        } else if (fd >= 0) {
          Posix.close(fd); // closing removes it from the epoll set too
          proc.host.fdsInUse.decrementAndGet();
          fd = -1;
        }
      }
      CompletableFuture<Void> f = proc.stdinRoom;
      if (f != null) {
        f.complete(null);
      }
    }
  }
}
