package org.jdvm.host;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.jdvm.host.os.Posix;

/**
 * The open files the host may hold for its processes, and what each holds: 2 descriptors (its
 * stdout and stderr pipes), or 1 if its stderr is merged into its stdout ({@link
 * LaunchRequest#mergeStderr}); one more for its pidfd while the host is in the first {@link
 * #PIDFD_SHARE}th of its budget; and one more for a stdin pipe. A start is counted ({@link
 * #reserve}) before anything is opened, so that concurrent starts never pass the budget together;
 * one that would pass it is refused as out of resource with nothing started.
 */
final class DescriptorBudget {
  /**
   * The open-file limit a privileged controller sets itself (the kernel's default {@code
   * fs.nr_open}): room for 250,000 processes.
   */
  static final long WANTED_FILES = 1 << 20;

  /** A process gets a pidfd while less than this fraction (1/n) of the budget is in use. */
  static final int PIDFD_SHARE = 8;

  /** What one start holds: its descriptors, and whether one of them is its pidfd. */
  record Reservation(int fds, boolean withPidfd) {}

  private final long budget;
  private final int maxProcs;
  private final AtomicLong inUse = new AtomicLong();

  /**
   * @param budget the descriptors the host may hold for processes
   * @param maxProcs at most this many processes, whatever the descriptors allow
   */
  DescriptorBudget(long budget, int maxProcs) {
    this.budget = budget;
    this.maxProcs = maxProcs;
  }

  /**
   * The budget of this process: the open-file limit, raised as far as the process may, less a
   * reserve for the controller's own files and connections.
   *
   * @param maxProcs at most this many processes, below what the open-file limit allows (tests)
   * @param maxFds at most this many descriptors for processes, below the limit (tests)
   */
  static DescriptorBudget ofFileLimit(int maxProcs, long maxFds) {
    long limit = Posix.raiseFileLimit(WANTED_FILES);
    long reserve = Math.max(128, limit / 64); // the controller's own files and connections
    long budget = Math.min(maxFds, Math.max(ProcessHost.FDS_PER_PROC, limit - reserve));
    return new DescriptorBudget(budget, maxProcs);
  }

  /**
   * Counts what a start of {@code cmd} will hold, before any of it is opened; {@link #release}
   * gives it back if the start fails.
   *
   * @param liveProcs how many processes the host runs now
   * @throws LaunchException out of resource if the host would pass its limit
   */
  Reservation reserve(String cmd, boolean merge, boolean stdin, IntSupplier liveProcs)
      throws LaunchException {
    boolean withPidfd;
    int need;
    long before;
    do {
      before = inUse.get();
      // A pidfd reports the exit at once, even while a descendant holds the pipes; past an eighth
      // of the descriptor budget it is left out, and the exit is found when the pipes close, or
      // by the sweep.
      withPidfd = before < budget / PIDFD_SHARE;
      need = (merge ? 1 : 2) + (withPidfd ? 1 : 0) + (stdin ? 1 : 0);
      if (liveProcs.getAsInt() >= maxProcs || before + need > budget) {
        throw refused(cmd, merge, liveProcs.getAsInt(), before, need);
      }
    } while (!inUse.compareAndSet(before, before + need));
    return new Reservation(need, withPidfd);
  }

  private LaunchException refused(String cmd, boolean merge, int live, long before, int need) {
    return new LaunchException(
        LaunchException.Kind.OUT_OF_RESOURCE,
        "cannot start "
            + cmd
            + ": this host runs "
            + live
            + " processes, its limit (open files: "
            + before
            + " of the "
            + budget
            + " it may hold for processes in use, "
            + need
            + " more needed; the open-file limit is "
            + Posix.fileLimit()[0]
            + (merge ? ")" : "; merging stderr into stdout halves a process's share)"),
        null);
  }

  /** Gives back {@code fds} descriptors (a start that failed). */
  void release(int fds) {
    inUse.addAndGet(-fds);
  }

  /** Gives back one descriptor (a pipe or pidfd closed). */
  void releaseOne() {
    inUse.decrementAndGet();
  }

  /** The descriptors held for processes now. */
  long inUse() {
    return inUse.get();
  }

  /**
   * The most processes the budget holds with {@code outputFds} output pipes each (without stdin
   * pipes): one more descriptor each for the first {@link #PIDFD_SHARE}th, the pidfd.
   */
  long maxProcs(int outputFds) {
    long share = budget / PIDFD_SHARE;
    long withPidfd = (share + outputFds) / (outputFds + 1); // started while below the share
    long left = Math.max(0, budget - withPidfd * (outputFds + 1));
    return Math.min(maxProcs, withPidfd + left / outputFds);
  }
}
