package org.jdvm.core.query;

/**
 * Why a spawn may or may not put a process on a node, in the order the checks run (spec
 * §8.2.1.6–§8.2.1.8). One function in the core decides it ({@code spawn.NodeRule}); a spawn places
 * processes only on nodes it calls {@link #USABLE}, and {@code jdvm explain} renders it.
 */
public enum NodeReason {
  /** The node is not in the DVM: it was lost, or went back to the scheduler (§8.2.1.6). */
  NOT_IN_DVM("§8.2.1.6"),
  /**
   * The node is reserved to an allocation the spawn does not target and the requester is not in its
   * owner set: a job that does not target a reservation never sees its nodes (§8.2.1.6, §8.2.1.7).
   */
  RESERVED_TO_OTHERS("§8.2.1.7"),
  /** The node's session is not among the spawn's targets (§8.2.1.6). */
  NOT_TARGETED("§8.2.1.6"),
  /**
   * The spawn targets the node's reservation and the requester is not in its owner set: the whole
   * spawn is refused (§8.2.1.7, §8.2.1.8).
   */
  NOT_OWNED("§8.2.1.7"),
  /** The node's session is terminating and takes no new job (decisions.md #13). */
  TERMINATING("decisions.md #13"),
  /** The node is a candidate but every slot is held (by the processes named). */
  NO_FREE_SLOT("§8.2.1.6"),
  /** The node is a candidate with a free slot (or the spawn may oversubscribe it). */
  USABLE("§8.2.1.6");

  private final String clause;

  NodeReason(String clause) {
    this.clause = clause;
  }

  /** The clause of the spec (or the decision) whose rule this is. */
  public String clause() {
    return clause;
  }
}
