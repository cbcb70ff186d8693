package org.jdvm.host;

import java.util.concurrent.TimeUnit;
import org.jdvm.host.os.Posix;
import org.jdvm.pmix.Signal;

/**
 * One start under way ({@link Births#give}) and what it holds so far: its descriptors counted
 * against the budget and its group's count, then its pipes (both ends until the child has its own),
 * then the child and its pidfd. When the start fails, {@link #undo} gives back whatever it holds,
 * in one place: the child killed and reaped, every pipe end still open closed, the descriptors and
 * the group's count given back.
 */
final class Birth {
  /** No pidfd was asked for (past the budget's pidfd share). */
  static final int NO_PIDFD = Integer.MIN_VALUE;

  final String group;
  final String cmd;
  final DescriptorBudget.Reservation fds;
  private final DescriptorBudget budget;
  private final LiveGroups groups;
  private int[] out;
  private int[] err;
  private int[] in;
  int pid; // 0 until started
  int pidfd = NO_PIDFD; // or -errno if pidfd_open failed
  boolean born; // inside its cgroup, so nothing to move

  /** A start of {@code cmd} in {@code group}, its descriptors reserved; counts it in the group. */
  Birth(
      String group,
      String cmd,
      DescriptorBudget.Reservation fds,
      DescriptorBudget budget,
      LiveGroups groups) {
    this.group = group;
    this.cmd = cmd;
    this.fds = fds;
    this.budget = budget;
    this.groups = groups;
    groups.starting(group);
  }

  /** Opens its pipes: stdout, stderr unless {@code merge}, stdin if {@code stdin}. */
  void openPipes(boolean merge, boolean stdin) throws Posix.PosixException {
    out = Posix.pipe(0);
    err = merge ? null : Posix.pipe(0);
    in = stdin ? Posix.pipe(1) : null;
  }

  /** The fd the child reads as 0, or -1 for {@code /dev/null}. */
  int childIn() {
    return in == null ? -1 : in[0];
  }

  int childOut() {
    return out[1];
  }

  /** The fd the child writes to as 2: its stdout pipe itself when merged. */
  int childErr() {
    return err == null ? out[1] : err[1];
  }

  /** Closes the child's ends of the pipes, once it has its own copies. */
  void closeChildEnds() {
    Posix.close(out[1]);
    out[1] = -1;
    if (err != null) {
      Posix.close(err[1]);
      err[1] = -1;
    }
    if (in != null) {
      Posix.close(in[0]);
      in[0] = -1;
    }
  }

  /** The fd the host reads the child's stdout from. */
  int readsOut() {
    return out[0];
  }

  /** The fd the host reads the child's stderr from, or -1 when merged into stdout. */
  int readsErr() {
    return err == null ? -1 : err[0];
  }

  /** The fd the host writes the child's stdin to, or -1 when it reads {@code /dev/null}. */
  int writesIn() {
    return in == null ? -1 : in[1];
  }

  /** Gives back everything the start holds: it failed. */
  void undo() {
    if (pid > 0) {
      // The process cannot be watched, so it must not run. It is our unreaped child, so its pid is
      // still its own.
      Posix.kill(-pid, Signal.KILL.number());
      Posix.kill(pid, Signal.KILL.number());
    }
    closeAll(out, err, in);
    budget.release(fds.fds());
    if (pid > 0) {
      reapBlocking(pid);
      WatchedPids.remove(pid);
    }
    groups.ended(group);
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
}
