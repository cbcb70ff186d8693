package org.jdvm.core.mapping;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Pool;

/**
 * The mapper under a {@link NodeFill}: a cap per node, and oversubscription. PRRTE's round-robin
 * mapper ({@code rmaps_rr_mappers.c}) fills the free slots first and, allowed to oversubscribe,
 * spreads the processes left over the candidate nodes in a second pass, each node getting the same
 * share and the first nodes one more; dealing them one per node in turn gives those shares.
 */
final class Filling {
  private Filling() {}

  /** The node of each rank, rank order. */
  static List<Node> targets(List<Pool> pools, int total, MapBy mapBy, NodeFill fill) {
    List<Node> nodes = candidates(pools, fill);
    int cap = fill.perNode() == 0 ? Integer.MAX_VALUE : fill.perNode();
    int[] count = new int[nodes.size()];
    List<Integer> order = new ArrayList<>(total);
    int[] room = new int[nodes.size()];
    for (int i = 0; i < room.length; i++) {
      room[i] = Math.min(nodes.get(i).freeSlots(), cap);
    }
    if (mapBy == MapBy.NODE) {
      deal(room, count, order, total);
    } else {
      fill(room, count, order, total);
    }
    if (order.size() < total && fill.oversubscribe()) {
      for (int i = 0; i < room.length; i++) {
        room[i] = cap - count[i];
      }
      deal(room, count, order, total);
    }
    if (order.size() < total) {
      throw new IllegalStateException("mapper asked to place more processes than fit");
    }
    List<Node> out = new ArrayList<>(total);
    if (mapBy == MapBy.NODE) {
      for (int i : order) {
        out.add(nodes.get(i));
      }
    } else {
      for (int i = 0; i < count.length; i++) {
        for (int k = 0; k < count[i]; k++) {
          out.add(nodes.get(i));
        }
      }
    }
    return out;
  }

  /**
   * The nodes a job may use, in the order they joined their pool: those with a free slot;
   * oversubscribing, every node with slots (a node of none, such as a controller's host that is not
   * one of the DVM's hosts, runs nothing).
   */
  static List<Node> candidates(List<Pool> pools, NodeFill fill) {
    List<Node> nodes = new ArrayList<>();
    for (Pool p : pools) {
      for (Node n : p.nodes()) {
        if (fill.oversubscribe() ? n.slots() > 0 : n.freeSlots() > 0) {
          nodes.add(n);
        }
      }
    }
    return nodes;
  }

  /** Each node's room in turn, up to {@code total} placed. */
  private static void fill(int[] room, int[] count, List<Integer> order, int total) {
    for (int i = 0; i < room.length && order.size() < total; i++) {
      while (room[i] > 0 && order.size() < total) {
        room[i]--;
        count[i]++;
        order.add(i);
      }
    }
  }

  /** One per node with room per round, up to {@code total} placed or no room left. */
  private static void deal(int[] room, int[] count, List<Integer> order, int total) {
    boolean placed = true;
    while (order.size() < total && placed) {
      placed = false;
      for (int i = 0; i < room.length && order.size() < total; i++) {
        if (room[i] > 0) {
          room[i]--;
          count[i]++;
          order.add(i);
          placed = true;
        }
      }
    }
  }
}
