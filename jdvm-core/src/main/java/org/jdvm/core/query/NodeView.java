package org.jdvm.core.query;

/** A node of the DVM, read-only. */
public interface NodeView {
  /** Where a node came from. */
  enum Origin {
    /** Found at start-up; it reverts to the default session when released. */
    STARTUP,
    /** Granted by the scheduler; it leaves the DVM when released. */
    SCHEDULER
  }

  String name();

  int slots();

  int slotsInUse();

  Origin origin();

  /** Whether the node is withheld from the default session by a reservation. */
  boolean reserved();

  /** The allocation the node belongs to (reserved or shared), or {@code null}. */
  String allocId();

  /**
   * The session the node is in: its reservation's, or the default session's ({@code 0xFFFFFFFF}).
   */
  long sessionId();

  /** Whether this is the controller's own node, which never leaves the DVM. */
  boolean controller();
}
