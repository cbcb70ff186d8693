package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change.AskClosed;
import org.jdvm.core.Change.AskQueued;
import org.jdvm.core.Change.LoanReturned;
import org.jdvm.core.Change.NodesJoined;
import org.jdvm.core.Change.NodesLeft;
import org.jdvm.core.Change.NodesLent;
import org.jdvm.core.Change.NodesRemoved;
import org.jdvm.core.Effect.HandBackNodes;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.Effect.ShrinkNodes;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Report.SchedulerCancelled;
import org.jdvm.core.Report.SchedulerGranted;
import org.jdvm.core.Report.SchedulerQueued;
import org.jdvm.core.Report.SchedulerRefused;
import org.jdvm.core.lifecycle.Asks;
import org.jdvm.core.lifecycle.NodeDeparture;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Ask;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * The scheduler's answers to an ask (decisions.md #4, #8): a grant becomes the allocation (or its
 * extension, its reacquired nodes, or an accepted loan); a refusal is the requester's answer; a
 * queued ask keeps waiting and can be cancelled. An answer to an ask the core no longer has is
 * stale: nodes granted for it that are not in the DVM are handed straight back.
 */
public final class SchedulerAnswers {
  private SchedulerAnswers() {}

  public static void granted(SchedulerGranted g, Txn txn) {
    Ask ask = txn.state().asks().get(g.askId());
    if (ask == null) {
      handBackStale(g, txn);
      return;
    }
    switch (ask.kind()) {
      case NEW -> grantNew(ask, g, txn);
      case EXTEND, REAQUIRE -> grantMore(ask, g, txn);
      case LEND -> grantLoan(ask, txn);
    }
  }

  public static void refused(SchedulerRefused r, Txn txn) {
    Ask ask = txn.state().asks().get(r.askId());
    if (ask != null) {
      int status = r.status() == PmixStatus.SUCCESS ? PmixStatus.ERR_OUT_OF_RESOURCE : r.status();
      txn.change(new AskClosed(ask.askId()));
      txn.effect(new Reply(ask.replyTo(), status, List.of()));
    }
  }

  public static void queued(SchedulerQueued q, Txn txn) {
    Ask ask = txn.state().asks().get(q.askId());
    if (ask != null && !ask.queued()) {
      txn.change(new AskQueued(ask.askId()));
    }
  }

  public static void cancelled(SchedulerCancelled c, Txn txn) {
    Ask ask = txn.state().asks().get(c.askId());
    if (ask != null) {
      Asks.cancel(ask, PmixStatus.ERR_JOB_CANCELED, txn);
    }
  }

  private static void grantNew(Ask ask, SchedulerGranted g, Txn txn) {
    Granted nodes = Granted.of(ask, g.nodes(), txn.state());
    if (overLimit(ask, g, nodes, true, txn)) {
      return;
    }
    txn.change(new AskClosed(ask.askId()));
    if (nodes.isEmpty()) {
      txn.effect(new Reply(ask.replyTo(), PmixStatus.ERR_OUT_OF_RESOURCE, List.of()));
      return;
    }
    Allocation a =
        Creation.create(
            ask.terms(),
            ask.requester(),
            g.schedulerAllocId(),
            g.timeLimitSeconds(),
            nodes.carved(),
            nodes.fresh(),
            txn);
    List<String> names = Creation.names(nodes.carved(), nodes.fresh());
    txn.effect(
        new Reply(
            ask.replyTo(),
            PmixStatus.SUCCESS,
            Replies.allocation(a, ask.terms().allocReqId(), names)));
  }

  /** EXTEND (nodes and/or time) and REAQUIRE (the lent nodes back). */
  private static void grantMore(Ask ask, SchedulerGranted g, Txn txn) {
    Allocation a = txn.state().allocations().byAllocId(ask.allocId());
    Granted nodes = Granted.of(ask, g.nodes(), txn.state());
    if (overLimit(ask, g, nodes, false, txn)) {
      return;
    }
    txn.change(new AskClosed(ask.askId()));
    Creation.addNodes(nodes.fresh(), txn);
    List<String> names = Creation.names(nodes.carved(), nodes.fresh());
    if (!names.isEmpty()) {
      txn.change(new NodesJoined(a.allocId(), names));
    }
    if (ask.kind() == org.jdvm.core.AskKind.REAQUIRE) {
      txn.change(new LoanReturned(a.allocId()));
    }
    Extension.finish(a, ask.terms().inheritance(), ask.requester(), g.timeLimitSeconds(), txn);
    txn.effect(
        new Reply(
            ask.replyTo(),
            PmixStatus.SUCCESS,
            Replies.allocation(a, ask.terms().allocReqId(), names)));
  }

  /** The scheduler accepted a loan: the nodes leave the DVM and go to it for a while. */
  private static void grantLoan(Ask ask, Txn txn) {
    Allocation a = txn.state().allocations().byAllocId(ask.allocId());
    List<Node> lending = new ArrayList<>(ask.claimed());
    List<String> names = NodeDeparture.names(lending);
    List<NodeSpec> specs = new ArrayList<>(lending.size());
    for (Node n : lending) {
      specs.add(new NodeSpec(n.name(), n.slots()));
    }
    txn.change(new AskClosed(ask.askId()));
    if (!lending.isEmpty()) {
      txn.change(new NodesLent(a.allocId(), specs, ask.terms().lendSeconds()));
      NodeDeparture.procsEnd(lending, txn);
      txn.change(new NodesLeft(a.allocId(), names));
      txn.change(new NodesRemoved(names));
      txn.effect(new ShrinkNodes(names));
      txn.effect(
          new HandBackNodes(a.allocId(), a.schedulerAllocId(), names, ask.terms().lendSeconds()));
    }
    txn.effect(new Reply(ask.replyTo(), PmixStatus.SUCCESS, Replies.released(a.allocId(), names)));
  }

  /**
   * A grant that would take the DVM past a limit ({@link LimitChecks#grant}) is not taken: the ask
   * closes, the nodes new to the DVM go straight back to the scheduler, and the requester hears
   * {@code PMIX_ERR_OUT_OF_RESOURCE}. Returns whether it was refused.
   */
  private static boolean overLimit(
      Ask ask, SchedulerGranted g, Granted nodes, boolean creates, Txn txn) {
    if (LimitChecks.grant(nodes.fresh().size(), creates && !nodes.isEmpty(), txn.state()) == null) {
      return false;
    }
    txn.change(new AskClosed(ask.askId()));
    if (!nodes.fresh().isEmpty()) {
      List<String> names = Creation.names(List.of(), nodes.fresh());
      txn.effect(new HandBackNodes(null, g.schedulerAllocId(), names, null));
    }
    txn.effect(new Reply(ask.replyTo(), PmixStatus.ERR_OUT_OF_RESOURCE, List.of()));
    return true;
  }

  private static void handBackStale(SchedulerGranted g, Txn txn) {
    List<String> stale = new ArrayList<>();
    for (NodeSpec n : g.nodes()) {
      if (txn.state().nodes().get(n.name()) == null) {
        stale.add(n.name());
      }
    }
    if (!stale.isEmpty()) {
      txn.effect(new HandBackNodes(null, g.schedulerAllocId(), stale, null));
    }
  }

  /**
   * What a grant gives: the DVM nodes the ask claimed plus granted nodes already in the DVM and
   * free (carved), and granted nodes new to the DVM (fresh). A granted node already in another
   * allocation, or claimed by another ask, is not the scheduler's to give and is left alone.
   */
  record Granted(List<Node> carved, List<NodeSpec> fresh) {
    static Granted of(Ask ask, List<NodeSpec> granted, State state) {
      List<Node> carved = new ArrayList<>(ask.claimed());
      List<NodeSpec> fresh = new ArrayList<>();
      for (NodeSpec spec : granted) {
        Node n = state.nodes().get(spec.name());
        if (n == null) {
          if (fresh.stream().noneMatch(f -> f.name().equals(spec.name()))) {
            fresh.add(spec);
          }
        } else if (n.allocation() == null && n.claimedBy() == 0 && !carved.contains(n)) {
          carved.add(n);
        }
      }
      return new Granted(carved, fresh);
    }

    boolean isEmpty() {
      return carved.isEmpty() && fresh.isEmpty();
    }
  }
}
