package org.jdvm.core.query;

import java.util.List;

/**
 * Why a spawn would go ahead or be refused, and why each node is or is not one of its candidates
 * ({@code jdvm explain}; spec §8.2.1.6–§8.2.1.8). Computed by the same functions a spawn runs, so
 * it cannot disagree with what the spawn would do in the same state.
 *
 * @param job the namespace explained, or {@code null} for a would-be spawn
 * @param rejection the name of the spawn's rejection ({@code TARGET_NOT_OWNED}, {@code
 *     DOES_NOT_FIT}, ...), or {@code null} when it would go ahead (or, for a job, went ahead)
 * @param status the PMIx status the spawn's reply would carry
 * @param procs how many processes the spawn asks for
 * @param targets what each targeting entry names, in the spawn's order
 * @param asked the allocation asked about ({@code --alloc}), live or remembered, or {@code null}
 * @param nodes one verdict per node considered: every node of the DVM, or those asked about
 */
public record Explanation(
    String job,
    String requester,
    String rejection,
    int status,
    int procs,
    List<Target> targets,
    Target asked,
    List<NodeVerdict> nodes) {
  public Explanation {
    targets = List.copyOf(targets);
    nodes = List.copyOf(nodes);
  }

  /** Whether the spawn would go ahead. */
  public boolean allowed() {
    return rejection == null;
  }

  /**
   * One targeting entry.
   *
   * @param named the entry as the spawn named it ({@code ""}: the default session; {@code null}:
   *     none was named and this is the session the job inherits)
   * @param allocId the live allocation it resolves to, or {@code null} (the default session, or
   *     none found)
   * @param found whether it resolves to a live session
   * @param reserved whether that session is a reservation (its nodes out of the default session)
   * @param owners the reservation's owner set
   * @param mayTarget whether the requester may target it (spec §8.2.1.7)
   * @param terminating whether the session is terminating
   * @param ended what the core remembers of it if it ended, or {@code null}
   */
  public record Target(
      String named,
      String allocId,
      boolean found,
      boolean reserved,
      List<String> owners,
      boolean mayTarget,
      boolean terminating,
      EndedAllocation ended) {
    public Target {
      owners = List.copyOf(owners);
    }
  }

  /**
   * One node's verdict.
   *
   * @param allocId the allocation the node is in, or {@code null}
   * @param owners that allocation's owner set when it is a reservation
   * @param freeSlots its free slots now
   * @param holders the namespaces with live processes on it, with how many
   * @param placed how many of the spawn's processes it would take (for a job: has)
   * @param fate what last happened to it, if it left an allocation or the DVM
   * @param endedWith the ended allocation that fate refers to, when remembered
   */
  public record NodeVerdict(
      String node,
      NodeReason reason,
      String allocId,
      List<String> owners,
      int slots,
      int freeSlots,
      List<Holder> holders,
      int placed,
      NodeFate fate,
      EndedAllocation endedWith) {
    public NodeVerdict {
      owners = List.copyOf(owners);
      holders = List.copyOf(holders);
    }
  }

  /** A namespace holding slots on a node. */
  public record Holder(String namespace, int procs) {}
}
