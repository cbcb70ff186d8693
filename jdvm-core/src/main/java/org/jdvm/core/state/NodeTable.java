package org.jdvm.core.state;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import org.jdvm.core.NodeFill;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.query.NodeView.Origin;

/**
 * Every node of the DVM by name, and the default session's pool. A node is in exactly one pool: its
 * reservation's, or the default one. Membership in an allocation and the pool move together.
 */
public final class NodeTable {
  private final LinkedHashMap<String, Node> byName = new LinkedHashMap<>();
  private final Pool defaultPool = new Pool(Sessions.DEFAULT_ID);
  private long joinSeq;
  private long slotsInUse;

  public Node get(String name) {
    return byName.get(name);
  }

  public Collection<Node> all() {
    return Collections.unmodifiableCollection(byName.values());
  }

  public int size() {
    return byName.size();
  }

  public Pool defaultPool() {
    return defaultPool;
  }

  /**
   * The slots in use on every node together, which is the number of live processes in the DVM: a
   * process holds its slot from its placement until it ends.
   */
  public long slotsInUse() {
    return slotsInUse;
  }

  long joinSeq() {
    return joinSeq;
  }

  /** Adds a node read from a snapshot; its pool is restored separately. */
  void restore(Node node) {
    Check.state(byName.putIfAbsent(node.name(), node) == null, "node twice", node.name());
  }

  void restoreCounters(long lastJoinSeq, long inUse) {
    joinSeq = lastJoinSeq;
    slotsInUse = inUse;
  }

  void add(NodeSpec spec, Origin origin, boolean controller) {
    Check.state(!byName.containsKey(spec.name()), "node joined the DVM twice", spec.name());
    Node node = new Node(spec.name(), spec.slots(), origin, controller);
    byName.put(spec.name(), node);
    defaultPool.add(node);
  }

  void remove(Node node) {
    Check.state(!node.controller(), "the controller's node left the DVM");
    Check.state(node.allocation == null, "a node left the DVM inside an allocation", node);
    Check.state(node.residents().isEmpty(), "a node left the DVM with live processes", node);
    Check.state(node.claimedBy == 0, "a claimed node left the DVM", node);
    node.pool.remove(node);
    byName.remove(node.name());
  }

  void join(Allocation allocation, Node node) {
    Check.state(node.allocation == null, "node joined a second allocation", node);
    node.allocation = allocation;
    node.joinSeq = ++joinSeq;
    allocation.members.add(node);
    if (allocation.reserved()) {
      defaultPool.remove(node);
      allocation.pool.add(node);
    }
  }

  void leave(Allocation allocation, Node node) {
    Check.state(node.allocation == allocation, "node left an allocation it is not in", node);
    node.allocation = null;
    node.joinSeq = 0;
    allocation.members.remove(node);
    if (allocation.reserved()) {
      allocation.pool.remove(node);
      defaultPool.add(node);
    }
  }

  void place(ProcRecord proc) {
    Node node = proc.nodeRecord();
    Check.state(
        node.freeSlots() > 0 || NodeFill.oversubscribes(proc.job().fill()),
        "a process placed on a full node",
        node);
    int freeBefore = node.freeSlots();
    node.slotsInUse++;
    slotsInUse++;
    node.pool.slotsChanged(node, freeBefore);
    node.addResident(proc);
  }

  void free(ProcRecord proc) {
    Node node = proc.nodeRecord();
    node.removeResident(proc);
    int freeBefore = node.freeSlots();
    node.slotsInUse--;
    slotsInUse--;
    Check.state(node.slotsInUse >= 0, "slots in use went negative", node);
    node.pool.slotsChanged(node, freeBefore);
  }

  void claim(Node node, long askId) {
    Check.state(node.claimedBy == 0, "node claimed twice", node);
    node.claimedBy = askId;
  }

  void unclaim(Node node, long askId) {
    Check.state(node.claimedBy == askId, "node unclaimed by an ask that does not hold it", node);
    node.claimedBy = 0;
  }
}
