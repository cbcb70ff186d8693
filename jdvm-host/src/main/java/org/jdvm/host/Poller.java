package org.jdvm.host;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jdvm.host.os.Containment;
import org.jdvm.host.os.Posix;
import org.jdvm.pmix.Signal;

/**
 * The host's one platform thread and the processes it watches. It waits in {@code epoll} for every
 * process's output pipes and pidfd: it reads what is ready and hands it to the process's listener,
 * reaps an ended process ({@code waitid}) and reports its exit once its pipes are drained or {@link
 * #DRAIN_AFTER_EXIT_MS} has passed (a descendant may hold them). When a process's listener says its
 * output's receiver is behind ({@link ProcListener#holdOutput}), its pipes leave the epoll set
 * until it is resumed, so the process blocks on a full pipe; its exit is still reaped meanwhile,
 * and the time to drain after an exit runs only while its pipes are read, so nothing is cut. A
 * stdin writer that finds its pipe full is woken when the pipe is writable. Every {@link #SWEEP_MS}
 * it has the containment reap adopted orphans, ends the groups past their process bound ({@link
 * #endPastLimit}) and, if a child has ended, looks for the exits of processes without a pidfd whose
 * pipes a descendant holds.
 */
final class Poller {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** How long a process's output may keep flowing after it exited (descendants holding a pipe). */
  static final long DRAIN_AFTER_EXIT_MS = 500;

  /** How often processes without a pidfd whose pipes a descendant holds are checked for exit. */
  static final long SWEEP_MS = 1000;

  /** What an event is about, in the low 2 bits of its key (a process's id in the others). */
  static final int OUT = 0;

  static final int ERR = 1;
  static final int EXIT = 2;
  static final int STDIN = 3;

  private static final long WAKE = -1;
  private static final int EPOLLONESHOT = 1 << 30;
  private static final int READ_BUFFER = 64 << 10;
  private static final int MAX_EVENTS = 256;

  private final Containment containment;
  private final LiveGroups groups;
  private final BooleanSupplier hostClosed;
  private final int epfd;
  private final int wakeFd;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, RunningProcess> procs = new ConcurrentHashMap<>();
  // Poller thread only:
  private final PriorityQueue<RunningProcess> draining =
      new PriorityQueue<>(Comparator.comparingLong(RunningProcess::drainDeadline));
  private final List<RunningProcess> reapSoon = new ArrayList<>();
  private final Set<String> endedPastLimit = new HashSet<>();
  // Processes whose output may be read again, from any thread; the poller takes them on a wake-up.
  private final java.util.Queue<RunningProcess> resumed =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private long nextSweep;
  private final Thread thread;

  /**
   * @param hostClosed whether the host is closing: the thread then stops
   */
  Poller(Containment containment, LiveGroups groups, BooleanSupplier hostClosed) {
    this.containment = containment;
    this.groups = groups;
    this.hostClosed = hostClosed;
    try {
      epfd = Posix.epollCreate();
      wakeFd = Posix.eventfd();
    } catch (Posix.PosixException e) {
      throw new IllegalStateException("cannot watch processes: " + e.getMessage(), e);
    }
    Posix.epollCtl(epfd, true, wakeFd, Posix.EPOLLIN, WAKE);
    thread = Thread.ofPlatform().daemon().name("jdvm-process-poller").start(this::run);
  }

  /** The key of {@code kind}'s events for the process {@code id}. */
  static long key(long id, int kind) {
    return (id << 2) | kind;
  }

  /** An id for a process about to be watched. */
  long nextId() {
    return ids.incrementAndGet();
  }

  /** Watches a process just started: its output pipes and, if it has one, its pidfd. */
  void watch(RunningProcess p) {
    procs.put(p.id(), p);
    Posix.epollCtl(epfd, true, p.fd(OUT), Posix.EPOLLIN, key(p.id(), OUT));
    if (p.fd(ERR) >= 0) {
      Posix.epollCtl(epfd, true, p.fd(ERR), Posix.EPOLLIN, key(p.id(), ERR));
    }
    if (p.pidfd() >= 0) {
      Posix.epollCtl(epfd, true, p.pidfd(), Posix.EPOLLIN, key(p.id(), EXIT));
    }
  }

  /**
   * Watches {@code fd} for {@code events} once ({@code EPOLLONESHOT}), added to the set if {@code
   * add}, else armed again; 0 or {@code -errno}.
   */
  int watchOnce(int fd, boolean add, int events, long key) {
    return Posix.epollCtl(epfd, add, fd, events | EPOLLONESHOT, key);
  }

  /** Stops watching {@code fd}. */
  void unwatch(int fd) {
    Posix.epollDel(epfd, fd);
  }

  /** The processes running (or draining their output) now. */
  int watching() {
    return procs.size();
  }

  /** The processes running (or draining their output) now. */
  List<RunningProcess> processes() {
    return List.copyOf(procs.values());
  }

  /** The output of {@code p} may be read again (any thread): the poller watches its pipes again. */
  void resume(RunningProcess p) {
    resumed.add(p);
    wake();
  }

  private void wake() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment one = arena.allocate(ValueLayout.JAVA_LONG);
      one.set(ValueLayout.JAVA_LONG, 0, 1L);
      Posix.write(wakeFd, one, Posix.callState(arena));
    }
  }

  /** Wakes the thread to see the host closed, waits for it (bounded), and closes what is left. */
  void close() {
    wake();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (RunningProcess p : List.copyOf(procs.values())) {
      p.abandonOutputs();
    }
    Posix.close(wakeFd);
    Posix.close(epfd);
  }

  private void run() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment events = arena.allocate(Posix.EPOLL_EVENT_SIZE * MAX_EVENTS, 8);
      MemorySegment buf = arena.allocate(READ_BUFFER, 8);
      MemorySegment state = Posix.callState(arena);
      MemorySegment eight = arena.allocate(8, 8);
      nextSweep = System.nanoTime();
      while (!hostClosed.getAsBoolean()) {
        long timeout = beforeWait();
        int n =
            Posix.epollWait(epfd, events, MAX_EVENTS, (int) Math.min(timeout, Integer.MAX_VALUE));
        for (int i = 0; i < n; i++) {
          long data = Posix.eventData(events, i);
          if (data == WAKE) {
            Posix.read(wakeFd, eight, state);
            resumeHeld();
            continue;
          }
          dispatch(data, buf, state);
        }
        long now = System.nanoTime();
        while (!draining.isEmpty() && draining.peek().drainDeadline() - now <= 0) {
          finish(draining.poll());
        }
      }
    } catch (Throwable t) {
      LOG.log(System.Logger.Level.ERROR, "the process poller failed: " + t, t);
    }
  }

  /**
   * Looks again at the processes whose pipes closed before they became zombies, sweeps when due,
   * and returns how long the next wait may last (ms): until the first drain deadline, a millisecond
   * while a process waits to be reaped, at most {@link #SWEEP_MS}.
   */
  private long beforeWait() {
    long timeout = -1;
    if (!draining.isEmpty()) {
      long left = draining.peek().drainDeadline() - System.nanoTime();
      timeout = Math.max(0, TimeUnit.NANOSECONDS.toMillis(left) + 1);
    }
    if (!reapSoon.isEmpty()) {
      // Pipes closed before the process became a zombie: look again shortly.
      for (RunningProcess p : List.copyOf(reapSoon)) {
        exited(p);
      }
      reapSoon.removeIf(p -> !p.isAlive());
      timeout = reapSoon.isEmpty() ? timeout : (timeout < 0 ? 1 : Math.min(timeout, 1));
    }
    // The subreaper in both modes: there are adopted orphans to reap.
    if (System.nanoTime() - nextSweep >= 0) {
      sweep();
      nextSweep = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SWEEP_MS);
    }
    return timeout < 0 ? SWEEP_MS : Math.min(timeout, SWEEP_MS);
  }

  private void sweep() {
    containment.reapAdopted();
    List<String> live = groups.names();
    endedPastLimit.retainAll(live);
    if (!live.isEmpty()) {
      for (String g : containment.pastProcLimit(live)) {
        endPastLimit(g);
      }
    }
    // Only when some child has ended: with thousands of running processes the sweep would
    // otherwise cost a waitid for each, every second.
    if (Posix.peekZombie() != 0) {
      for (RunningProcess p : procs.values()) {
        if (p.pidfd() < 0 && p.isAlive()) {
          exited(p);
        }
      }
    }
  }

  /**
   * A group holds more processes than its bound ({@link Containment#procsPerGroup}): each of its
   * processes is told why on its standard error (what the job's owner sees, as Slurm's step daemon
   * reports an OOM kill there), and KILLed with its process group; the group's last exit then ends
   * whatever it left ({@link LiveGroups#ended}). Once per group; logged once.
   */
  private void endPastLimit(String group) {
    if (!endedPastLimit.add(group)) {
      return;
    }
    String why =
        "jdvm: the job's processes on this node ("
            + group
            + ") went past their bound, "
            + containment.procLimitHow()
            + "; the job is ended (KILL)\n";
    LOG.log(System.Logger.Level.WARNING, why.strip());
    for (RunningProcess p : procs.values()) {
      if (p.group().equals(group) && p.isAlive()) {
        p.notice(why);
        p.signal(Signal.KILL.number());
      }
    }
  }

  private void dispatch(long data, MemorySegment buf, MemorySegment state) {
    RunningProcess p = procs.get(data >>> 2);
    if (p == null) {
      return;
    }
    try {
      switch ((int) (data & 3)) {
        case OUT, ERR -> pump(p, (int) (data & 3), buf, state);
        case EXIT -> exited(p);
        default -> p.stdinWritable();
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "pid " + p.pid() + ": " + e, e);
    }
  }

  private void pump(RunningProcess p, int stream, MemorySegment buf, MemorySegment state) {
    if (p.fd(stream) < 0 || p.outputHeld()) {
      return;
    }
    RunningProcess.Read read = p.readOutput(stream, buf, state);
    if (read == RunningProcess.Read.HELD) {
      hold(p);
      return;
    }
    if (read == RunningProcess.Read.AGAIN) {
      return;
    }
    // End of file (or an error): the stream is done.
    p.closeStream(stream);
    if (!p.isAlive() && p.pipesClosed()) {
      draining.remove(p);
      finish(p);
    } else if (p.isAlive() && p.pidfd() < 0 && p.pipesClosed()) {
      exited(p); // no pidfd: both pipes closed is the sign of the exit
      if (p.isAlive()) {
        reapSoon.add(p);
      }
    }
  }

  /** Reaps {@code p} if it has ended; reports it now, or once its pipes are drained. */
  private void exited(RunningProcess p) {
    if (!p.reap()) {
      return;
    }
    if (p.pipesClosed()) {
      finish(p);
    } else if (p.outputHeld()) {
      p.drainLater(TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MS));
    } else {
      p.drainUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MS));
      draining.add(p);
    }
  }

  /** Stops reading the pipes of {@code p}: a receiver of its output is behind. */
  private void hold(RunningProcess p) {
    p.holdOutput(System.nanoTime(), draining.remove(p));
    for (int stream : new int[] {OUT, ERR}) {
      if (p.fd(stream) >= 0) {
        Posix.epollDel(epfd, p.fd(stream));
      }
    }
  }

  /** Reads again the pipes of the processes resumed since the last wake-up. */
  private void resumeHeld() {
    RunningProcess p;
    while ((p = resumed.poll()) != null) {
      if (!p.outputHeld() || procs.get(p.id()) != p) {
        continue;
      }
      if (p.resumeOutput(System.nanoTime())) {
        draining.add(p);
      }
      for (int stream : new int[] {OUT, ERR}) {
        if (p.fd(stream) >= 0) {
          Posix.epollCtl(epfd, true, p.fd(stream), Posix.EPOLLIN, key(p.id(), stream));
        }
      }
    }
  }

  /** Reports the exit of {@code p} once, after its output; its group may end with it. */
  private void finish(RunningProcess p) {
    if (!p.finishing()) {
      return;
    }
    p.closeStream(OUT);
    p.closeStream(ERR);
    procs.remove(p.id());
    try {
      p.reportExit();
    } finally {
      groups.ended(p.group());
    }
  }
}
