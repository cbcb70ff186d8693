package org.jdvm.host.os;

import java.util.HashSet;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * This process as the child subreaper ({@code PR_SET_CHILD_SUBREAPER}, prctl(2)) of the hosts open
 * in it, in both modes: an orphaned descendant is reparented to the controller rather than to init.
 * One instance per host reaps the adopted orphans that have ended ({@link #reapAdopted}).
 */
final class Subreaper {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  private static int
      hosts; // hosts that made this process the subreaper; guarded by Subreaper.class

  private final IntPredicate watched;
  private final Set<Integer> zombiesSeen = new HashSet<>();

  /**
   * @param watched the pids the host watches itself (its own live children), never taken as orphans
   */
  Subreaper(IntPredicate watched) {
    this.watched = watched;
  }

  /** Makes this process the subreaper, if no host has already. */
  static void join() {
    int rc;
    synchronized (Subreaper.class) {
      rc = hosts++ == 0 ? Posix.becomeSubreaper(true) : 0;
    }
    if (rc != 0) {
      LOG.log(
          System.Logger.Level.WARNING, "cannot become the child subreaper: " + Posix.strerror(-rc));
    }
  }

  /** A host that joined is gone: the last one makes this process no subreaper any more. */
  static void leave() {
    synchronized (Subreaper.class) {
      if (--hosts == 0) {
        Posix.becomeSubreaper(false);
      }
    }
  }

  /**
   * Reaps the adopted orphans that have ended: a child of this process that {@code watched} does
   * not name and that was a zombie at the previous call already (so a child the JDK's own process
   * reaper waits for is never taken from it). Call it now and then, from one thread.
   */
  void reapAdopted() {
    Set<Integer> now = new HashSet<>();
    for (int pid : ProcScan.childrenOf((int) ProcessHandle.current().pid())) {
      if (!watched.test(pid) && ProcScan.zombie(pid)) {
        if (zombiesSeen.contains(pid)) {
          Posix.reapPid(pid);
        } else {
          now.add(pid);
        }
      }
    }
    zombiesSeen.clear();
    zombiesSeen.addAll(now);
  }
}
