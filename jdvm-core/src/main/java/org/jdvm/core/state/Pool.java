package org.jdvm.core.state;

import java.util.Collections;
import java.util.LinkedHashSet;
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

  /** Called after {@code node}'s slots in use changed by {@code delta}. */
  void slotsChanged(Node node, int delta) {
    freeSlots -= delta;
    if (node.freeSlots() > 0) {
      withFreeSlots.add(node);
    } else {
      withFreeSlots.remove(node);
    }
  }
}
