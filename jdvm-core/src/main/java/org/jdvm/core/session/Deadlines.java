package org.jdvm.core.session;

import org.jdvm.core.Change.SessionDeadlineSet;
import org.jdvm.core.Outcome;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;

/**
 * Session time limits: the only clock the core keeps. Time arrives with each command; a tick at or
 * past a session's deadline terminates the session (decisions.md #13: expiry is TERMINATE), and
 * each outcome reports the next deadline so the shell knows when to tick.
 */
public final class Deadlines {
  private Deadlines() {}

  /** Terminates every session whose deadline has passed, earliest first. */
  public static void tick(Txn txn) {
    State state = txn.state();
    for (Allocation a = state.allocations().earliestDeadline();
        a != null && a.deadlineNs() <= txn.nowNs();
        a = state.allocations().earliestDeadline()) {
      txn.change(new SessionDeadlineSet(a.allocId(), null));
      SessionOps.terminate(a, txn);
    }
  }

  /** The next deadline, or {@link Outcome#NO_DEADLINE}. */
  public static long next(State state) {
    Allocation a = state.allocations().earliestDeadline();
    return a == null ? Outcome.NO_DEADLINE : a.deadlineNs();
  }
}
