package org.jdvm.core.query;

/**
 * The answer to {@code PMIX_QUERY_ALLOC_STATUS} (decisions.md #9): a live allocation, or a request
 * still waiting for the scheduler, found by {@code PMIX_ALLOC_ID} or {@code PMIX_ALLOC_REQ_ID}.
 */
public record AllocationStatus(State state, AllocationView allocation, PendingView pending) {
  /** What the id names now. */
  public enum State {
    /** The request waits for the scheduler's answer. */
    PENDING,
    /** The scheduler queued the request. */
    QUEUED,
    /** The allocation exists. */
    ACTIVE,
    /** The allocation is a session terminating while its jobs end. */
    TERMINATING
  }
}
