package org.jdvm.endpoint.pmi;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code PMI_process_mapping} value (docs/protocol.md "Simple PMI"): {@code
 * (vector,(start,nodes,ppn),...)}, each block placing {@code ppn} consecutive ranks on each of
 * {@code nodes} nodes numbered from {@code start}, as MPICH's nodemap reads it. The blocks cover
 * every rank exactly, so the reader never wraps around.
 */
final class ProcessMapping {
  private ProcessMapping() {}

  /**
   * The mapping of a job whose node {@code i} (in the order given) holds the ranks {@code
   * ranksPerNode.get(i)}; {@code null} when a rank is missing or given twice.
   */
  static String of(List<List<Integer>> ranksPerNode, int size) {
    int[] nodeOf = new int[size];
    java.util.Arrays.fill(nodeOf, -1);
    for (int node = 0; node < ranksPerNode.size(); node++) {
      for (int rank : ranksPerNode.get(node)) {
        if (rank < 0 || rank >= size || nodeOf[rank] >= 0) {
          return null;
        }
        nodeOf[rank] = node;
      }
    }
    // runs of consecutive ranks on one node: (node, length)
    List<int[]> runs = new ArrayList<>();
    for (int rank = 0; rank < size; rank++) {
      if (nodeOf[rank] < 0) {
        return null;
      }
      int[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
      if (last != null && last[0] == nodeOf[rank]) {
        last[1]++;
      } else {
        runs.add(new int[] {nodeOf[rank], 1});
      }
    }
    StringBuilder b = new StringBuilder("(vector");
    int i = 0;
    while (i < runs.size()) {
      int start = runs.get(i)[0];
      int ppn = runs.get(i)[1];
      int nodes = 1;
      while (i + nodes < runs.size()
          && runs.get(i + nodes)[0] == start + nodes
          && runs.get(i + nodes)[1] == ppn) {
        nodes++;
      }
      b.append(",(").append(start).append(',').append(nodes).append(',').append(ppn).append(')');
      i += nodes;
    }
    return b.append(')').toString();
  }

  /** The node lists of a {@code pmix.pmap} value {@code raw:0,1;2,3}; {@code null} if not one. */
  static List<List<Integer>> parseRaw(String pmap) {
    if (pmap == null || !pmap.startsWith("raw:")) {
      return null;
    }
    List<List<Integer>> out = new ArrayList<>();
    for (String node : pmap.substring(4).split(";", -1)) {
      List<Integer> ranks = new ArrayList<>();
      for (String r : node.split(",", -1)) {
        try {
          ranks.add(Integer.parseInt(r));
        } catch (NumberFormatException e) {
          return null;
        }
      }
      out.add(ranks);
    }
    return out;
  }
}
