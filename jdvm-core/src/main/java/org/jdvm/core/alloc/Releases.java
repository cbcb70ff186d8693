package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.AllocationEnd;
import org.jdvm.core.AskKind;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change.NodesLeft;
import org.jdvm.core.Change.NodesRemoved;
import org.jdvm.core.Effect.HandBackNodes;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.Effect.ShrinkNodes;
import org.jdvm.core.Rejection;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.lifecycle.AllocationEnding;
import org.jdvm.core.lifecycle.NodeDeparture;
import org.jdvm.core.query.NodeView.Origin;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * PMIX_ALLOC_RELEASE (spec §8.2.1.9.1 trigger 1; decisions.md #7, #8).
 *
 * <p>Whole or partial, always checked: every allocation the nodes belong to must be owned by the
 * requester (or the requester is the scheduler). A whole release ends the allocation. Released
 * nodes that came from the scheduler leave the DVM (their processes with them) and are handed back;
 * start-up nodes revert to the default session; the controller's own node never leaves. With
 * PMIX_ALLOC_LEND the scheduler is asked to take the nodes on loan; they leave only once it
 * accepts. PMIX_ALLOC_INHERITANCE is ignored here.
 */
public final class Releases {
  private Releases() {}

  public static void release(Allocate r, Txn txn) {
    Job requester = Requesters.job(txn.state(), r.requester());
    ReleaseSelection sel = ReleaseSelection.of(r, requester, txn.state());
    Rejection why = check(r, sel, requester);
    if (why == null && r.lendSeconds() != null) {
      why = LimitChecks.ask(r.requester(), txn.state());
    }
    if (why != null) {
      txn.reject(r.requestId(), why);
    } else if (r.lendSeconds() != null) {
      lend(r, sel, txn);
    } else if (sel.whole() != null) {
      List<String> members = NodeDeparture.names(sel.nodes());
      AllocationEnding.end(sel.whole(), AllocationEnd.RELEASED, txn);
      txn.effect(
          new Reply(
              r.requestId(), PmixStatus.SUCCESS, Replies.released(sel.whole().allocId(), members)));
    } else {
      partial(r, sel, txn);
    }
  }

  private static ReleaseRejection check(Allocate r, ReleaseSelection sel, Job requester) {
    if (sel.why() != null) {
      return sel.why();
    }
    for (Allocation a : sel.allocations()) {
      if (!Ownership.mayActOn(a, requester)) {
        return ReleaseRejection.NOT_OWNER;
      }
    }
    if (sel.tooFew()) {
      return ReleaseRejection.COUNT_TOO_LARGE;
    }
    for (Node n : sel.nodes()) {
      if (n.claimedBy() != 0) {
        return ReleaseRejection.NODE_BUSY;
      }
    }
    if (r.lendSeconds() != null) {
      if (sel.allocations().size() != 1) {
        return ReleaseRejection.LEND_SPANS_ALLOCATIONS;
      }
      for (Node n : sel.nodes()) {
        if (n.origin() != Origin.SCHEDULER) {
          return ReleaseRejection.NOT_LENDABLE;
        }
      }
    }
    return null;
  }

  private static void partial(Allocate r, ReleaseSelection sel, Txn txn) {
    Map<Allocation, List<Node>> byAllocation = new LinkedHashMap<>();
    List<Node> leaving = new ArrayList<>();
    for (Node n : sel.nodes()) {
      byAllocation.computeIfAbsent(n.allocation(), a -> new ArrayList<>()).add(n);
      if (n.origin() == Origin.SCHEDULER && !n.controller()) {
        leaving.add(n);
      }
    }
    NodeDeparture.procsEnd(leaving, txn);
    for (Map.Entry<Allocation, List<Node>> e : byAllocation.entrySet()) {
      txn.change(new NodesLeft(e.getKey().allocId(), NodeDeparture.names(e.getValue())));
    }
    if (!leaving.isEmpty()) {
      txn.change(new NodesRemoved(NodeDeparture.names(leaving)));
      txn.effect(new ShrinkNodes(NodeDeparture.names(leaving)));
    }
    for (Map.Entry<Allocation, List<Node>> e : byAllocation.entrySet()) {
      List<Node> gone = new ArrayList<>(e.getValue());
      gone.retainAll(leaving);
      if (!gone.isEmpty()) {
        Allocation a = e.getKey();
        txn.effect(
            new HandBackNodes(a.allocId(), a.schedulerAllocId(), NodeDeparture.names(gone), null));
      }
    }
    String allocId = byAllocation.size() == 1 ? sel.allocations().get(0).allocId() : null;
    txn.effect(
        new Reply(
            r.requestId(),
            PmixStatus.SUCCESS,
            Replies.released(allocId, NodeDeparture.names(sel.nodes()))));
  }

  private static void lend(Allocate r, ReleaseSelection sel, Txn txn) {
    Allocation a = sel.allocations().get(0);
    List<String> names = NodeDeparture.names(sel.nodes());
    AskTerms terms =
        new AskTerms(
            a.owner(),
            a.reserved(),
            null,
            a.allocId(),
            r.allocReqId(),
            null,
            false,
            0,
            names,
            null,
            null,
            true,
            r.lendSeconds());
    Asking.open(
        AskKind.LEND, r.requestId(), r.requester(), terms, names, a.schedulerAllocId(), txn);
  }
}
