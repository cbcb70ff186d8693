package org.jdvm.host;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.host.os.Posix;
import org.jdvm.pmix.Signal;

/**
 * A process the host runs — callers know it as {@link ProcessHost.RunningProc} — and its state: its
 * pid and pidfd, the host's ends of its pipes, its exit once reaped, and its report. The poller
 * thread reads its output, reaps it and reports it; signals are sent under its lock only until it
 * is reaped, so never to a process that reused its pid; its stdin is written by its {@link
 * StdinPipe}'s thread ({@link StdinOutput}).
 */
public abstract sealed class RunningProcess permits ProcessHost.RunningProc {
  private final Poller poller;
  private final DescriptorBudget budget;
  private final long id;
  private final int pid;
  private final int pidfd;
  private final String group;
  private final ProcListener listener;
  private final CountDownLatch reaped = new CountDownLatch(1);
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private StdinPipe stdin;
  private volatile Posix.Exit exit;
  private final long bornNs = System.nanoTime();
  // This JVM's peak resident set once the process was born, at or above what its exec recorded.
  private final long spawnerMaxRssKiB = Posix.selfMaxRssKiB();
  private long reapedNs;
  // Poller thread only:
  private int outFd;
  private int errFd;
  private long drainDeadline;
  private boolean finished;
  private boolean outputHeld;
  // What was left of the drain after its exit when its output was held (ns), or -1.
  private long drainLeft = -1;
  // The stdin writer waiting for room, completed by the poller.
  private volatile CompletableFuture<Void> stdinRoom;
  private boolean stdinWatched;

  RunningProcess(Poller poller, DescriptorBudget budget, long id, Birth b, ProcListener listener) {
    this.poller = poller;
    this.budget = budget;
    this.id = id;
    this.pid = b.pid;
    this.pidfd = b.pidfd;
    this.outFd = b.readsOut();
    this.errFd = b.readsErr();
    this.group = b.group;
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

  /** Sends a signal to its process group, unless it has been reaped. */
  synchronized void signal(int signal) {
    if (exit != null) {
      return;
    }
    if (Posix.kill(-pid, signal) != 0) {
      Posix.kill(pid, signal);
    }
  }

  long id() {
    return id;
  }

  int pidfd() {
    return pidfd;
  }

  /** Hands the listener a line of jdvm's own as standard error (the poller's thread only). */
  void notice(String line) {
    listener.output(
        ProcListener.Stream.STDERR, line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  String group() {
    return group;
  }

  /** Gives it a stdin pipe on {@code fd} (the host's end), fed by a {@link StdinPipe}. */
  void attachStdin(int fd, String name) {
    stdin = new StdinPipe(new StdinOutput(this, fd), name);
  }

  // ---- the poller's side -----------------------------------------------------------------------

  /** The host's end of its stdout ({@link Poller#OUT}) or stderr pipe; -1 once closed or merged. */
  int fd(int stream) {
    return stream == Poller.OUT ? outFd : errFd;
  }

  boolean pipesClosed() {
    return outFd < 0 && errFd < 0;
  }

  long drainDeadline() {
    return drainDeadline;
  }

  void drainUntil(long deadline) {
    drainDeadline = deadline;
  }

  /** What {@link #readOutput} found: nothing more now, the end, or a receiver behind. */
  enum Read {
    AGAIN,
    END,
    HELD
  }

  /**
   * Reads what {@code stream} holds, at most 16 buffers, and hands it to the listener: {@code END}
   * at its end (or an error), {@code HELD} when the listener asks to stop reading ({@link
   * ProcListener#holdOutput}: the poller resumes it when told), {@code AGAIN} when it holds nothing
   * more now.
   */
  Read readOutput(int stream, MemorySegment buf, MemorySegment state) {
    int fd = fd(stream);
    ProcListener.Stream s =
        stream == Poller.OUT ? ProcListener.Stream.STDOUT : ProcListener.Stream.STDERR;
    for (int round = 0; round < 16; round++) {
      long n = Posix.read(fd, buf, state);
      if (n > 0) {
        listener.output(s, buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        if (listener.holdOutput(() -> poller.resume(this))) {
          return Read.HELD;
        }
        continue;
      }
      if (n == -Posix.EAGAIN) {
        return Read.AGAIN;
      }
      if (n == -Posix.EINTR) {
        continue;
      }
      return Read.END;
    }
    return Read.AGAIN;
  }

  /** Whether its pipes are not read now: a receiver of its output is behind. */
  boolean outputHeld() {
    return outputHeld;
  }

  /**
   * Its pipes are not read from now on, and the time it had left to drain after its exit (if it has
   * exited) stops running: a paused reader never cuts its last output.
   */
  void holdOutput(long now, boolean wasDraining) {
    outputHeld = true;
    if (wasDraining) {
      drainLeft = Math.max(0, drainDeadline - now);
    }
  }

  /** Its pipes are read again; true if it is draining after its exit again (its deadline set). */
  boolean resumeOutput(long now) {
    outputHeld = false;
    if (drainLeft < 0) {
      return false;
    }
    drainDeadline = now + drainLeft;
    drainLeft = -1;
    return true;
  }

  /** It exited while its output was held: it drains for {@code nanos} once it is resumed. */
  void drainLater(long nanos) {
    drainLeft = nanos;
  }

  /** Closes the host's end of its stdout or stderr pipe, if open. */
  void closeStream(int stream) {
    int fd = fd(stream);
    if (fd >= 0) {
      poller.unwatch(fd);
      Posix.close(fd);
      budget.releaseOne();
      if (stream == Poller.OUT) {
        outFd = -1;
      } else {
        errFd = -1;
      }
    }
  }

  /**
   * Reaps it if it has ended ({@code waitid}), under the lock signals take, and closes its pidfd;
   * true if it was reaped now (false: reaped before, or it runs still).
   */
  boolean reap() {
    synchronized (this) {
      if (exit != null) {
        return false;
      }
      Posix.Exit e = pidfd >= 0 ? Posix.reap(pidfd) : Posix.reapChild(pid);
      if (e == null) {
        return false; // not yet (a spurious wake-up)
      }
      reapedNs = System.nanoTime();
      exit = e;
      WatchedPids.remove(pid);
      if (pidfd >= 0) {
        poller.unwatch(pidfd);
        Posix.close(pidfd);
        budget.releaseOne();
      }
    }
    reaped.countDown();
    if (stdin != null) {
      stdin.processExited();
    }
    return true;
  }

  /** Marks it finished; false if it was already (its exit is reported once). */
  boolean finishing() {
    if (finished) {
      return false;
    }
    finished = true;
    return true;
  }

  /** Reports its exit to its listener and completes {@link #reported}. */
  void reportExit() {
    try {
      Posix.Exit e = exit;
      // A peak no higher than this JVM's is this JVM's, recorded at the exec: not known.
      long rss = e.maxRssKiB() > spawnerMaxRssKiB ? e.maxRssKiB() : -1;
      Rusage usage =
          e.hasUsage()
              ? new Rusage(e.userMicros(), e.systemMicros(), rss, (reapedNs - bornNs) / 1000)
              : null;
      listener.exited(e.exitCode(), e.signal(), usage);
    } finally {
      done.complete(null);
    }
  }

  /** Closes the host's ends of its output pipes as the host closes (nothing watches them now). */
  void abandonOutputs() {
    Posix.close(outFd);
    Posix.close(errFd);
  }

  // ---- the stdin writer's side -----------------------------------------------------------------

  /**
   * Has the poller complete the future returned once the stdin pipe {@code fd} has room (one
   * wake-up: {@code EPOLLONESHOT}).
   */
  CompletableFuture<Void> awaitStdinRoom(int fd) throws IOException {
    CompletableFuture<Void> f = new CompletableFuture<>();
    stdinRoom = f;
    int rc = poller.watchOnce(fd, !stdinWatched, Posix.EPOLLOUT, Poller.key(id, Poller.STDIN));
    stdinWatched = true;
    if (rc != 0) {
      throw new IOException("cannot wait for the pipe: " + Posix.strerror(-rc));
    }
    return f;
  }

  /** Wakes the stdin writer waiting for room, if one is: the pipe is writable, or closed. */
  void stdinWritable() {
    CompletableFuture<Void> f = stdinRoom;
    if (f != null) {
      f.complete(null);
    }
  }

  /** The stdin pipe's end was closed: one descriptor fewer. */
  void stdinClosed() {
    budget.releaseOne();
  }
}
