package org.jdvm.core.state;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The nodes of one session: the default session, or one reservation. A node is in exactly one pool.
 * The pool keeps the nodes with a free slot and the number of free slots, so the mapper finds room
 * without scanning full nodes and a spawn that does not fit is known in O(1).
 */
public final class Pool {
  private final long sessionId;
  private final LinkedHashSet<Node> nodes = new LinkedHashSet<>();
  private final LinkedHashSet<Node> withFreeSlots = new LinkedHashSet<>();
  private long freeSlots;

  Pool(long sessionId) {
    this.sessionId = sessionId;
  }

  public long sessionId() {
    return sessionId;
  }

  public Set<Node> nodes() {
    return Collections.unmodifiableSet(nodes);
  }

  /** The nodes with at least one free slot, in the order they joined the pool. */
  public Set<Node> withFreeSlots() {
    return Collections.unmodifiableSet(withFreeSlots);
  }

  public long freeSlots() {
    return freeSlots;
  }

  /** Fills an empty pool from a snapshot, in the orders it had. */
  void restore(List<Node> members, List<Node> withRoom, long free) {
    Check.state(nodes.isEmpty(), "restored into a used pool", sessionId);
    for (Node n : members) {
      Check.state(nodes.add(n), "node in a pool twice", n.name());
      Check.state(n.pool == null, "node in two pools", n.name());
      n.pool = this;
    }
    for (Node n : withRoom) {
      Check.state(nodes.contains(n) && withFreeSlots.add(n), "room on a node not here", n.name());
    }
    freeSlots = free;
  }

  void add(Node node) {
    Check.state(nodes.add(node), "node added to a pool twice", node.name());
    node.pool = this;
    freeSlots += node.freeSlots();
    if (node.freeSlots() > 0) {
      withFreeSlots.add(node);
    }
  }

  void remove(Node node) {
    Check.state(nodes.remove(node), "node removed from a pool it is not in", node.name());
    node.pool = null;
    freeSlots -= node.freeSlots();
    withFreeSlots.remove(node);
  }

  /**
   * Called after {@code node}'s slots in use changed, with its free slots before. A node beyond its
   * slots (oversubscribed) has none free, however far beyond: a process ending there frees a slot
   * only once the node is back within its slots.
   */
  void slotsChanged(Node node, int freeBefore) {
    freeSlots += node.freeSlots() - freeBefore;
    if (node.freeSlots() > 0) {
      withFreeSlots.add(node);
    } else {
      withFreeSlots.remove(node);
    }
  }
}
