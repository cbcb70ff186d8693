package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jdvm.core.query.NodeView;

/** A node of the DVM. Mutated only by the {@link State#apply} path. */
public final class Node implements NodeView {
  private final String name;
  private final int slots;
  private final Origin origin;
  private final boolean controller;
  int slotsInUse;
  Allocation allocation;
  Pool pool;
  long claimedBy;
  long joinSeq;
  private final List<ProcRecord> residents = new ArrayList<>(2);

  Node(String name, int slots, Origin origin, boolean controller) {
    this.name = name;
    this.slots = slots;
    this.origin = origin;
    this.controller = controller;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int slots() {
    return slots;
  }

  @Override
  public int slotsInUse() {
    return slotsInUse;
  }

  public int freeSlots() {
    return Math.max(0, slots - slotsInUse);
  }

  @Override
  public Origin origin() {
    return origin;
  }

  @Override
  public boolean controller() {
    return controller;
  }

  @Override
  public boolean reserved() {
    return allocation != null && allocation.reserved();
  }

  @Override
  public String allocId() {
    return allocation == null ? null : allocation.allocId();
  }

  @Override
  public long sessionId() {
    return pool.sessionId();
  }

  /** The allocation the node is a member of, or {@code null}. */
  public Allocation allocation() {
    return allocation;
  }

  /** The pool (session) the node is in. */
  public Pool pool() {
    return pool;
  }

  /** The ask that claims the node until the scheduler answers, or 0. */
  public long claimedBy() {
    return claimedBy;
  }

  /** The order the node joined its allocation in; later grants have larger numbers. */
  public long joinSeq() {
    return joinSeq;
  }

  /** The live processes placed on this node. */
  public List<ProcRecord> residents() {
    return Collections.unmodifiableList(residents);
  }

  void addResident(ProcRecord proc) {
    residents.add(proc);
  }

  void removeResident(ProcRecord proc) {
    Check.state(residents.remove(proc), "process not resident on its node", name);
  }

  @Override
  public String toString() {
    return name;
  }
}
