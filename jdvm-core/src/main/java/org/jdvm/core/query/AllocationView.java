package org.jdvm.core.query;

import java.util.Collection;
import java.util.List;
import org.jdvm.core.NodeSpec;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Proc;

/** A live allocation (reserved, shared, or a scheduler-instantiated session), read-only. */
public interface AllocationView {
  /** {@code PMIX_ALLOC_ID}. */
  String allocId();

  /** {@code PMIX_ALLOC_REQ_ID} given when it was created, or {@code null}. */
  String allocReqId();

  /** The numeric session id ({@code PMIX_SESSION_ID}). */
  long sessionId();

  /** The scheduler's own id for it, or {@code null}. */
  String schedulerAllocId();

  /** The one namespace whose termination drives the disposition (spec §8.2.1.7). */
  String owner();

  /** The owner set: who may target, extend or release it (the scheduler implicitly too). */
  Collection<String> owners();

  /** The process that requested it (refreshed by EXTEND); warnings go to it alone. */
  Proc requester();

  AllocInheritance inheritance();

  /**
   * True for a reservation; false for a shared allocation whose nodes are in the default session.
   */
  boolean reserved();

  /** Its member nodes, oldest grant first. */
  Collection<? extends NodeView> nodes();

  /** Nodes lent to the scheduler that REAQUIRE would ask back. */
  List<NodeSpec> lentNodes();

  /** The time limit the scheduler set, in seconds, or {@code null}. */
  Long timeLimitSeconds();

  /** The session this one is a child of, or {@code null}. */
  Long parentSessionId();

  /** Whether it survives its parent's termination (and, for sessions, its requester's). */
  boolean separated();

  /** Whether the scheduler instantiated it with session control. */
  boolean schedulerSession();

  /** ACTIVE, or TERMINATING once a session TERMINATE waits for its jobs. */
  String state();

  /** Namespaces of the live jobs whose primary session this is. */
  Collection<String> jobs();
}
