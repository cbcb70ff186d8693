package org.jdvm.core.mapping;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jdvm.core.Change.Placement;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Pool;
import org.jdvm.pmix.App;

/**
 * Places a job's processes on its candidate nodes: exactly the nodes of the sessions it may target
 * (spec §8.2.1.6, §8.2.1.11 #1). Without a {@link NodeFill} it never oversubscribes a node and
 * walks only nodes with a free slot, in the order they joined their pool, so its cost is the number
 * of processes plus the nodes it touches, never the size of the pool. With one ({@code -N}, {@code
 * --oversubscribe}) it walks every candidate node once: at most {@code perNode} processes on a
 * node, the free slots filled first, and when oversubscribing the rest dealt one per node in turn
 * over the candidate nodes with room under the cap — PRRTE's second pass, whose even split (the
 * first nodes one more) this gives; by slot a node's ranks stay consecutive.
 */
public final class Mapper {
  private Mapper() {}

  /**
   * The total number of processes of a job's apps. The caller has bounded it ({@code
   * LimitChecks.spawn}); an overflow here would be a broken invariant.
   */
  public static int size(List<App> apps) {
    int total = 0;
    for (App app : apps) {
      total = Math.addExact(total, app.maxprocs());
    }
    return total;
  }

  /** Whether {@code procs} processes fit in these disjoint pools. */
  public static boolean fits(List<Pool> pools, long procs) {
    long free = 0;
    for (Pool p : pools) {
      free += p.freeSlots();
    }
    return free >= procs;
  }

  /**
   * Whether {@code procs} processes fit in these disjoint pools under {@code fill}: within the free
   * slots and at most {@code perNode} per node; oversubscribing, within {@code perNode} on every
   * candidate node (without a cap: whenever there is a candidate node).
   */
  public static boolean fits(List<Pool> pools, long procs, NodeFill fill) {
    if (!NodeFill.fills(fill)) {
      return fits(pools, procs);
    }
    long room = 0;
    for (Node n : Filling.candidates(pools, fill)) {
      long cap = fill.perNode() == 0 ? procs : fill.perNode();
      room += fill.oversubscribe() ? cap : Math.min(n.freeSlots(), cap);
      if (room >= procs) {
        return true;
      }
    }
    return room >= procs;
  }

  /**
   * Places every process, ranks in app order. The caller has checked {@link #fits}.
   *
   * @return one placement per rank, rank order
   */
  public static List<Placement> place(List<App> apps, List<Pool> pools, MapBy mapBy) {
    return place(apps, pools, mapBy, null);
  }

  /**
   * Places every process under {@code fill} ({@code null}: within the free slots), ranks in app
   * order. The caller has checked {@link #fits(List, long, NodeFill)}.
   *
   * @return one placement per rank, rank order
   */
  public static List<Placement> place(
      List<App> apps, List<Pool> pools, MapBy mapBy, NodeFill fill) {
    int total = size(apps);
    List<Node> targets;
    if (NodeFill.fills(fill)) {
      targets = Filling.targets(pools, total, mapBy, fill);
    } else {
      targets = mapBy == MapBy.NODE ? byNode(pools, total) : bySlot(pools, total);
    }
    if (fill != null && fill.rankByNode()) {
      targets = rankedByNode(targets);
    }
    List<Placement> out = new ArrayList<>(total);
    int rank = 0;
    for (int appIndex = 0; appIndex < apps.size(); appIndex++) {
      for (int i = 0; i < apps.get(appIndex).maxprocs(); i++, rank++) {
        out.add(new Placement(rank, targets.get(rank).name(), appIndex));
      }
    }
    return out;
  }

  /**
   * The same processes per node, ranks dealt one node at a time ({@code --rank-by node}): over the
   * nodes in the order they were first placed on, a round takes one rank on each node that has one
   * left, until none has.
   */
  static List<Node> rankedByNode(List<Node> placed) {
    java.util.LinkedHashMap<Node, Integer> left = new java.util.LinkedHashMap<>();
    for (Node n : placed) {
      left.merge(n, 1, Integer::sum);
    }
    List<Node> out = new ArrayList<>(placed.size());
    while (out.size() < placed.size()) {
      for (var e : left.entrySet()) {
        if (e.getValue() > 0) {
          out.add(e.getKey());
          e.setValue(e.getValue() - 1);
        }
      }
    }
    return out;
  }

  /** Fills each node's free slots before the next node. */
  private static List<Node> bySlot(List<Pool> pools, int total) {
    List<Node> out = new ArrayList<>(total);
    for (Pool pool : pools) {
      for (Node node : pool.withFreeSlots()) {
        for (int s = node.freeSlots(); s > 0 && out.size() < total; s--) {
          out.add(node);
        }
        if (out.size() == total) {
          return out;
        }
      }
    }
    throw new IllegalStateException("mapper asked to place more processes than fit");
  }

  /** One process per node per round, over the nodes with a free slot. */
  private static List<Node> byNode(List<Pool> pools, int total) {
    List<Node> out = new ArrayList<>(total);
    List<Node> round = new ArrayList<>();
    List<Integer> left = new ArrayList<>();
    Iterator<Pool> poolIt = pools.iterator();
    Iterator<Node> nodeIt = null;
    while (out.size() < total) {
      if (nodeIt == null || !nodeIt.hasNext()) {
        if (poolIt.hasNext()) {
          nodeIt = poolIt.next().withFreeSlots().iterator();
          continue;
        }
        break;
      }
      Node node = nodeIt.next();
      out.add(node);
      round.add(node);
      left.add(node.freeSlots() - 1);
    }
    while (out.size() < total) {
      boolean placed = false;
      for (int i = 0; i < round.size() && out.size() < total; i++) {
        if (left.get(i) > 0) {
          left.set(i, left.get(i) - 1);
          out.add(round.get(i));
          placed = true;
        }
      }
      if (!placed) {
        throw new IllegalStateException("mapper asked to place more processes than fit");
      }
    }
    return out;
  }
}
