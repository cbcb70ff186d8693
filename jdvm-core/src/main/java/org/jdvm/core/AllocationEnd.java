package org.jdvm.core;

/** How an allocation ended (spec §8.2.1.9), which decides where its nodes went. */
public enum AllocationEnd {
  /**
   * Returned to the scheduler: an owner's PMIX_ALLOC_RELEASE, a NONE or CHILD disposition.
   * Scheduler nodes left the DVM; start-up nodes reverted to the default session.
   */
  RELEASED,
  /** A DEFAULT or CHILD_DEFAULT disposition: every node stayed in the DVM, unreserved. */
  UNRESERVED,
  /** The scheduler terminated it: scheduler nodes left the DVM; start-up nodes reverted. */
  RECLAIMED,
  /** The DVM tore down. */
  TORN_DOWN
}
