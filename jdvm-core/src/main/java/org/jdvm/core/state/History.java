package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.AllocationEnd;
import org.jdvm.core.query.EndedAllocation;
import org.jdvm.core.query.NodeFate;

/**
 * What the state no longer holds but a person asks about (docs/cli.md {@code jdvm explain}): the
 * allocations that ended, how, and which nodes went with them; and per node the allocation it last
 * left and whether it left the DVM. Kept by {@link State#apply} from the changes alone, so a replay
 * rebuilds it; it is not in snapshots (it decides nothing, and a restored controller remembers from
 * the snapshot on). Bounded: the oldest entries go first.
 *
 * <p>An allocation's end is the changes {@code NodesLeft} (every member), {@code NodesRemoved}
 * (those leaving the DVM), {@code AllocationEnded}, in that order in one outcome
 * (lifecycle.AllocationEnding); the members and the departed are taken from the {@code NodesLeft}
 * and {@code NodesRemoved} just before.
 */
public final class History {
  /** How many ended allocations are remembered. */
  public static final int ENDED_ALLOCATIONS = 1024;

  /** How many nodes' fates are remembered. */
  public static final int NODE_FATES = 4096;

  private final LinkedHashMap<String, EndedAllocation> ended = bounded(ENDED_ALLOCATIONS);
  private final LinkedHashMap<String, NodeFate> fates = bounded(NODE_FATES);
  private String lastLeftAlloc;
  private List<String> lastLeft = List.of();
  private final Set<String> lastRemoved = new HashSet<>();

  private static <V> LinkedHashMap<String, V> bounded(int bound) {
    return new LinkedHashMap<>(16, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > bound;
      }
    };
  }

  /** An ended allocation by {@code PMIX_ALLOC_ID} or request id, the latest first. */
  public EndedAllocation ended(String id) {
    EndedAllocation byId = ended.get(id);
    if (byId != null || id == null) {
      return byId;
    }
    List<EndedAllocation> all = new ArrayList<>(ended.values());
    for (int i = all.size() - 1; i >= 0; i--) {
      if (id.equals(all.get(i).allocReqId())) {
        return all.get(i);
      }
    }
    return null;
  }

  /** Every remembered ended allocation, oldest first. */
  public Collection<EndedAllocation> ended() {
    return Collections.unmodifiableCollection(ended.values());
  }

  /** What last happened to a node, or {@code null}. */
  public NodeFate fate(String node) {
    return fates.get(node);
  }

  void nodesLeft(String allocId, List<String> names) {
    lastLeftAlloc = allocId;
    lastLeft = List.copyOf(names);
    lastRemoved.clear();
    for (String n : names) {
      remember(new NodeFate(n, allocId, false));
    }
  }

  void nodesRemoved(List<String> names) {
    for (String n : names) {
      NodeFate before = fates.get(n);
      remember(new NodeFate(n, before == null ? null : before.allocId(), true));
      lastRemoved.add(n);
    }
  }

  /** The node came (back) into the DVM or into an allocation: its old fate no longer explains. */
  void nodeArrived(String name) {
    fates.remove(name);
  }

  void allocationEnded(Allocation a, AllocationEnd how) {
    List<String> members = a.allocId().equals(lastLeftAlloc) ? lastLeft : List.of();
    List<String> gone = new ArrayList<>();
    for (String n : members) {
      if (lastRemoved.contains(n)) {
        gone.add(n);
      }
    }
    ended.remove(a.allocId());
    ended.put(
        a.allocId(),
        new EndedAllocation(
            a.allocId(),
            a.allocReqId(),
            a.sessionId(),
            a.owner(),
            !a.ownerJob().live(),
            new ArrayList<>(a.owners()),
            a.inheritance(),
            a.reserved(),
            how,
            members,
            gone));
    lastLeftAlloc = null;
    lastLeft = List.of();
    lastRemoved.clear();
  }

  private void remember(NodeFate fate) {
    fates.remove(fate.node());
    fates.put(fate.node(), fate);
  }
}
