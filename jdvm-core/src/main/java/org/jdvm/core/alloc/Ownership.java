package org.jdvm.core.alloc;

import org.jdvm.core.JobKind;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;

/**
 * Who may act on an allocation (spec §8.2.1.7; decisions.md #10): a namespace in its owner set, or
 * the scheduler, the implicit owner of every session. Ownership is a set seeded with the owning
 * namespace and grown by spawning into the reservation; it is never inherited transitively, and
 * jdvm does not adopt PRRTE's "a tool of the same uid owns it too".
 */
public final class Ownership {
  private Ownership() {}

  public static boolean mayActOn(Allocation allocation, Job requester) {
    return requester.kind() == JobKind.SCHEDULER || allocation.ownedBy(requester.namespace());
  }
}
