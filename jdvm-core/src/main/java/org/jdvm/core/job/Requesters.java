package org.jdvm.core.job;

import org.jdvm.core.state.Job;
import org.jdvm.core.state.State;
import org.jdvm.pmix.Proc;

/**
 * Who a requester is. The shell authenticated the connection and says which namespace it speaks
 * for; the core decides from its own job table whether that is a tool, an application or the
 * scheduler (architecture.md §4).
 */
public final class Requesters {
  private Requesters() {}

  /** The refusal for this requester, or {@code null} if it is a live namespace. */
  public static RequesterRejection check(State state, Proc requester) {
    if (state.tornDown()) {
      return RequesterRejection.DVM_TORN_DOWN;
    }
    Job job = state.jobs().get(requester.nspace());
    if (job == null) {
      return RequesterRejection.UNKNOWN_NAMESPACE;
    }
    return job.live() ? null : RequesterRejection.TERMINATED_NAMESPACE;
  }

  /** The requester's job; call after {@link #check} passed. */
  public static Job job(State state, Proc requester) {
    return state.jobs().get(requester.nspace());
  }
}
