package org.jdvm.core.house;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No package of any module's main code reaches, through the packages it names, back to itself: the
 * graph of package references (imports and fully qualified names, from {@link Sources}) has no
 * strongly connected component of more than one package (Tarjan's algorithm).
 */
class PackageCyclesTest {
  @Test
  void noPackageCycleAnywhere() {
    Map<String, String> owner = Sources.packages();
    Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
    owner.keySet().forEach(p -> graph.put(p, new TreeMap<>()));
    for (Sources.Source s : Sources.all()) {
      for (String to : Sources.referencedPackages(s, owner)) {
        graph.get(s.pkg()).computeIfAbsent(to, k -> new TreeSet<>()).add(s.where());
      }
    }
    List<String> cycles = new ArrayList<>();
    for (List<String> component : components(graph)) {
      if (component.size() > 1) {
        StringBuilder sb = new StringBuilder("cycle among " + component + ":");
        for (String a : component) {
          for (String b : component) {
            Set<String> files = graph.get(a).get(b);
            if (files != null) {
              sb.append("\n  ").append(a).append(" -> ").append(b).append(" in ").append(files);
            }
          }
        }
        cycles.add(sb.toString());
      }
    }
    assertThat(cycles).isEmpty();
  }

  @Test
  void theSearchFindsACycle() {
    Map<String, Map<String, Set<String>>> g = new TreeMap<>();
    g.put("a", Map.of("b", Set.of()));
    g.put("b", Map.of("c", Set.of()));
    g.put("c", Map.of("a", Set.of()));
    g.put("d", Map.of("a", Set.of()));
    assertThat(components(g)).contains(List.of("a", "b", "c")).contains(List.of("d"));
  }

  /** The strongly connected components of {@code graph}, each sorted (iterative Tarjan). */
  static List<List<String>> components(Map<String, ? extends Map<String, ?>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> out = new ArrayList<>();
    int[] next = {0};
    for (String root : graph.keySet()) {
      if (index.containsKey(root)) {
        continue;
      }
      Deque<Object[]> work = new ArrayDeque<>();
      work.push(new Object[] {root, new ArrayList<>(graph.get(root).keySet()).iterator()});
      index.put(root, next[0]);
      low.put(root, next[0]++);
      stack.push(root);
      onStack.add(root);
      while (!work.isEmpty()) {
        Object[] frame = work.peek();
        String v = (String) frame[0];
        @SuppressWarnings("unchecked")
        java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
        if (it.hasNext()) {
          String w = it.next();
          if (!graph.containsKey(w)) {
            continue;
          }
          if (!index.containsKey(w)) {
            index.put(w, next[0]);
            low.put(w, next[0]++);
            stack.push(w);
            onStack.add(w);
            work.push(new Object[] {w, new ArrayList<>(graph.get(w).keySet()).iterator()});
          } else if (onStack.contains(w)) {
            low.put(v, Math.min(low.get(v), index.get(w)));
          }
          continue;
        }
        work.pop();
        if (!work.isEmpty()) {
          String parent = (String) work.peek()[0];
          low.put(parent, Math.min(low.get(parent), low.get(v)));
        }
        if (low.get(v).equals(index.get(v))) {
          List<String> component = new ArrayList<>();
          String w;
          do {
            w = stack.pop();
            onStack.remove(w);
            component.add(w);
          } while (!w.equals(v));
          component.sort(null);
          out.add(component);
        }
      }
    }
    return out;
  }
}
