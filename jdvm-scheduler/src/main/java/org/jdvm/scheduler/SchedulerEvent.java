package org.jdvm.scheduler;

import java.util.List;

/** What a scheduler tells the DVM: answers to its asks, and facts about allocations. */
public sealed interface SchedulerEvent {
  /**
   * The ask an answer (granted, refused, cancelled) answers; the journal keeps answers by it.
   *
   * @throws IllegalArgumentException for an event that answers no ask
   */
  static String askIdOf(SchedulerEvent e) {
    return switch (e) {
      case Granted g -> g.askId();
      case Refused x -> x.askId();
      case Cancelled c -> c.askId();
      default -> throw new IllegalArgumentException("not an answer: " + e);
    };
  }

  /**
   * The nodes of an ask were granted.
   *
   * @param allocation the scheduler's id of the allocation they belong to
   * @param deadlineNs when the allocation expires, or {@code null} if it has no time limit
   */
  record Granted(String askId, String allocation, List<NodeGrant> nodes, Long deadlineNs)
      implements SchedulerEvent {
    public Granted {
      nodes = List.copyOf(nodes);
    }
  }

  /** The ask was refused and will not be served; {@code status} is a PMIx status. */
  record Refused(String askId, int status, String reason) implements SchedulerEvent {}

  /** The ask waits in the queue for nodes to free up. */
  record Queued(String askId, int position) implements SchedulerEvent {}

  /** A queued ask was cancelled at the DVM's request. */
  record Cancelled(String askId) implements SchedulerEvent {}

  /** An allocation's time limit is near: advance notice, nothing changes. */
  record Warning(String allocation, long secondsRemaining) implements SchedulerEvent {}

  /**
   * The scheduler took nodes back from an allocation (expiry, or a lender's claim falling due);
   * they are no longer the DVM's.
   *
   * @param whole true if the allocation as a whole ended (its time limit expired)
   */
  record Reclaimed(String allocation, List<String> nodes, boolean whole) implements SchedulerEvent {
    public Reclaimed {
      nodes = List.copyOf(nodes);
    }
  }
}
