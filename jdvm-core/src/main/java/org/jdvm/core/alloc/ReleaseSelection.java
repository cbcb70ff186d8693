package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.JobKind;
import org.jdvm.core.Limits;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.State;

/**
 * Which nodes a RELEASE names (decisions.md #7): a whole allocation by PMIX_ALLOC_ID or
 * PMIX_ALLOC_REQ_ID; nodes by PMIX_ALLOC_NODE_LIST; or a count, which takes the most recently
 * granted nodes (of the named allocation, else of the requester's own), never the node the
 * requesting process runs on (a release gives up resources no longer required:
 * rfc0005-allocation-api.txt "Description").
 *
 * @param whole the allocation released as a whole, or {@code null} for a partial release
 * @param nodes the nodes of a partial release
 * @param allocations the allocations those nodes belong to, in order (ownership is checked on them)
 * @param tooFew a count asked for more nodes than may be released
 */
record ReleaseSelection(
    Allocation whole,
    List<Node> nodes,
    List<Allocation> allocations,
    boolean tooFew,
    ReleaseRejection why) {

  static ReleaseSelection of(Allocate r, Job requester, State state) {
    boolean hasList = r.nodeList() != null && !r.nodeList().isEmpty();
    boolean hasCount = r.nodeCount() != null;
    boolean named = r.allocId() != null || r.allocReqId() != null;
    if (hasCount && (r.nodeCount() < 0 || hasList || !named && isScheduler(requester))
        || !NodeRequest.wellFormed(r.nodeList())
        || r.lendSeconds() != null
            && (r.lendSeconds() <= 0 || r.lendSeconds() > Limits.MAX_SECONDS)) {
      return refuse(ReleaseRejection.BAD_NODE_REQUEST);
    }
    if (!named && !hasList && !hasCount) {
      return refuse(ReleaseRejection.NOTHING_NAMED);
    }
    Allocation a = null;
    if (named) {
      a = state.allocations().byAllocId(r.allocId());
      a = a != null ? a : state.allocations().byReqId(r.allocReqId());
      if (a == null) {
        return refuse(ReleaseRejection.ALLOCATION_NOT_FOUND);
      }
    }
    if (hasList) {
      return listed(r.nodeList(), a, state);
    }
    if (hasCount) {
      return counted(r.nodeCount(), a, requester, requesterNode(requester, r));
    }
    return new ReleaseSelection(a, List.copyOf(a.nodes()), List.of(a), false, null);
  }

  private static ReleaseSelection listed(List<String> names, Allocation named, State state) {
    List<Node> nodes = new ArrayList<>();
    Set<Allocation> owners = new LinkedHashSet<>();
    for (String name : names) {
      Node n = state.nodes().get(name);
      if (n == null) {
        return refuse(ReleaseRejection.NODE_NOT_FOUND);
      }
      if (n.allocation() == null || named != null && n.allocation() != named) {
        return refuse(ReleaseRejection.NODE_NOT_ALLOCATED);
      }
      nodes.add(n);
      owners.add(n.allocation());
    }
    return new ReleaseSelection(null, nodes, List.copyOf(owners), false, null);
  }

  private static ReleaseSelection counted(int count, Allocation named, Job requester, Node own) {
    List<Allocation> from = named != null ? List.of(named) : List.copyOf(requester.ownerOf());
    List<Node> candidates = new ArrayList<>();
    for (Allocation a : from) {
      for (Node n : a.nodes()) {
        if (n != own && n.claimedBy() == 0) {
          candidates.add(n);
        }
      }
    }
    if (candidates.size() < count) {
      return new ReleaseSelection(null, List.of(), from, true, null);
    }
    candidates.sort(Comparator.comparingLong(Node::joinSeq).reversed());
    List<Node> nodes = List.copyOf(candidates.subList(0, count));
    Set<Allocation> owners = new LinkedHashSet<>();
    for (Node n : nodes) {
      owners.add(n.allocation());
    }
    return new ReleaseSelection(null, nodes, List.copyOf(owners), false, null);
  }

  /** The node the requesting process runs on, which a count never takes; or {@code null}. */
  private static Node requesterNode(Job requester, Allocate r) {
    ProcRecord p = requester.proc(r.requester().rank());
    return p == null || !p.live() ? null : p.nodeRecord();
  }

  private static boolean isScheduler(Job requester) {
    return requester.kind() == JobKind.SCHEDULER;
  }

  private static ReleaseSelection refuse(ReleaseRejection why) {
    return new ReleaseSelection(null, List.of(), List.of(), false, why);
  }
}
