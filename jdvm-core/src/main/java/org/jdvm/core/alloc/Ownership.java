package org.jdvm.core.alloc;

import org.jdvm.core.JobKind;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;

/**
 * The owner-set rule, the one place that answers "may requester R act on allocation or session S"
 * (spec §8.2.1.7; decisions.md #10, #15): R's namespace is in S's owner set, or R is the scheduler,
 * the implicit owner of every session. Release, extend, reacquire, cancel, session control and
 * spawn targeting all ask here.
 *
 * <p>Ownership is a set seeded with the owning namespace and grown by spawning into the
 * reservation; it is never inherited transitively, and jdvm does not adopt PRRTE's "a tool of the
 * same uid owns it too".
 */
public final class Ownership {
  private Ownership() {}

  /** Whether the requester may release, extend, reacquire or control the allocation. */
  public static boolean mayActOn(Allocation allocation, Job requester) {
    return requester.kind() == JobKind.SCHEDULER || allocation.ownedBy(requester.namespace());
  }

  /**
   * Whether the requester may spawn into the session (spec §8.2.1.7, the rule for spawn targets):
   * the default session ({@code null}) and a shared allocation, whose nodes are in the default
   * session, are open to every requester; a reservation to those who {@link #mayActOn} it.
   */
  public static boolean mayTarget(Allocation session, Job requester) {
    return session == null || !session.reserved() || mayActOn(session, requester);
  }
}
