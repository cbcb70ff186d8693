package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.State;

/**
 * Nodes a request names, split into those already in the DVM, which the core carves out of the
 * default session itself, and those it must get from the scheduler. A node already in the DVM is
 * available only if it is in no allocation and no pending request has claimed it (decisions.md #5:
 * naming a node reserved elsewhere is refused, never a silent move).
 */
public record NodeRequest(List<Node> present, List<String> absent, boolean available) {

  /** Whether the names are usable at all: none empty, none repeated. */
  public static boolean wellFormed(List<String> names) {
    if (names == null) {
      return true;
    }
    Set<String> seen = new HashSet<>();
    for (String n : names) {
      if (n == null || n.isEmpty() || !seen.add(n)) {
        return false;
      }
    }
    return true;
  }

  public static NodeRequest of(List<String> names, State state) {
    List<Node> present = new ArrayList<>();
    List<String> absent = new ArrayList<>();
    boolean available = true;
    for (String name : names == null ? List.<String>of() : names) {
      Node n = state.nodes().get(name);
      if (n == null) {
        absent.add(name);
      } else {
        available &= n.allocation() == null && n.claimedBy() == 0;
        present.add(n);
      }
    }
    return new NodeRequest(present, absent, available);
  }

  public List<String> presentNames() {
    List<String> names = new ArrayList<>(present.size());
    for (Node n : present) {
      names.add(n.name());
    }
    return names;
  }
}
