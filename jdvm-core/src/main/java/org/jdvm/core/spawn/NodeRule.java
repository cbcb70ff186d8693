package org.jdvm.core.spawn;

import java.util.List;
import org.jdvm.core.NodeFill;
import org.jdvm.core.alloc.Ownership;
import org.jdvm.core.query.NodeReason;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Sessions;

/**
 * Whether a spawn may put a process on one node, and if not, which rule says no (spec
 * §8.2.1.6–§8.2.1.8): the checks of {@link NodeReason}, in its order, over the same predicates the
 * spawn's targeting runs ({@link Ownership#mayTarget}, a session's pool, {@code terminating}, the
 * node's free slots). A spawn places processes only on nodes this calls {@code USABLE} (it asserts
 * so, {@link SpawnRule#launch}); {@code jdvm explain} renders it.
 */
public final class NodeRule {
  private NodeRule() {}

  /**
   * The reason for {@code node} ({@code null}: not in the DVM) under a spawn that targets {@code
   * sessions} ({@code null} entries: the default session), asked by {@code requester} ({@code
   * null}: a requester the DVM refuses, who owns nothing), filling nodes as {@code fill} says.
   */
  public static NodeReason reason(
      Node node, List<Allocation> sessions, Job requester, NodeFill fill) {
    if (node == null) {
      return NodeReason.NOT_IN_DVM;
    }
    boolean targeted = false;
    boolean terminating = false;
    for (Allocation s : sessions) {
      if (sessionOf(s, node)) {
        targeted = true;
        terminating |= s != null && s.terminating();
      }
    }
    if (!targeted) {
      return node.reserved() && !mayTarget(node.allocation(), requester)
          ? NodeReason.RESERVED_TO_OTHERS
          : NodeReason.NOT_TARGETED;
    }
    if (node.reserved() && !mayTarget(node.allocation(), requester)) {
      return NodeReason.NOT_OWNED;
    }
    if (terminating) {
      return NodeReason.TERMINATING;
    }
    if (node.freeSlots() == 0 && !NodeFill.oversubscribes(fill)) {
      return NodeReason.NO_FREE_SLOT;
    }
    return NodeReason.USABLE;
  }

  /**
   * Whether the node is in the session: a reservation's own pool, or the default session (which a
   * shared allocation's nodes are in).
   */
  private static boolean sessionOf(Allocation session, Node node) {
    if (session == null || !session.reserved()) {
      return node.pool().sessionId() == Sessions.DEFAULT_ID;
    }
    return session.pool() == node.pool();
  }

  private static boolean mayTarget(Allocation a, Job requester) {
    return requester != null && Ownership.mayTarget(a, requester);
  }
}
