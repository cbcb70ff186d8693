package org.jdvm.core.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.Core;
import org.jdvm.core.CoreInternals;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.state.StateDigest;
import org.jdvm.core.state.StateInvariants;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;

/**
 * A model of the shell around the core: it executes effects the way agents and a scheduler would
 * (launches and kills become later reports, asks wait for an answer, nodes handed back return to
 * the scheduler's spare pool) and checks the named invariants after every command:
 *
 * <ul>
 *   <li>every node in exactly one session (and the other state invariants);
 *   <li>a job's processes only on nodes of the sessions it was permitted to target;
 *   <li>no owner set holds a dead or unknown namespace;
 *   <li>a rejected command changed nothing (state digest equal before and after);
 *   <li>no request is answered twice (and, after the drain, every request was answered);
 *   <li>a timeout warning goes only to the allocation's requester.
 * </ul>
 */
final class SimShell {
  final Core core;
  long nowNs;
  final Set<RequestId> issued = new HashSet<>();
  final Map<RequestId, Integer> replies = new HashMap<>();
  final Map<String, NodeSpec> universe = new LinkedHashMap<>();
  final Set<String> lost = new HashSet<>();
  final Set<String> lent = new HashSet<>();
  final List<Effect.AskScheduler> asks = new ArrayList<>();
  final List<Effect.LaunchProcs> launches = new ArrayList<>();
  final List<Effect.KillProcs> kills = new ArrayList<>();
  final Set<Long> sessionsReported = new HashSet<>();
  final List<Change> journal = new ArrayList<>();
  int rejections;
  int commands;
  final Map<String, Integer> stats = new java.util.TreeMap<>();

  SimShell(Core core, List<NodeSpec> schedulerPool) {
    this.core = core;
    for (NodeSpec n : schedulerPool) {
      universe.put(n.name(), n);
    }
  }

  /** Runs one command, executes its effects, and checks every invariant. */
  Outcome run(Command command) {
    commands++;
    boolean request = command instanceof Request;
    String before = request ? StateDigest.of(CoreInternals.state(core)) : null;
    if (command instanceof Request r && !issued.add(r.requestId())) {
      throw new AssertionError("the simulation reused request id " + r.requestId());
    }
    Outcome o = core.handle(command, nowNs);
    journal.addAll(o.changes());
    for (Change c : o.changes()) {
      stats.merge(c.getClass().getSimpleName(), 1, Integer::sum);
    }
    if (o.rejected()) {
      stats.merge(o.rejection().name(), 1, Integer::sum);
      rejections++;
      if (!before.equals(StateDigest.of(CoreInternals.state(core)))) {
        throw new AssertionError("a rejected command changed the state");
      }
    }
    checkPlacements(o);
    for (Effect e : o.effects()) {
      execute(e);
    }
    StateInvariants.verify(CoreInternals.state(core));
    return o;
  }

  /** Processes are placed only on nodes of the sessions their job may target. */
  private void checkPlacements(Outcome o) {
    for (Change c : o.changes()) {
      if (c instanceof Change.ProcsPlaced p) {
        JobView job = core.view().job(p.namespace()).orElseThrow();
        for (Change.Placement pl : p.placements()) {
          long session = core.view().node(pl.node()).orElseThrow().sessionId();
          if (!job.targetSessionIds().contains(session)) {
            throw new AssertionError(
                "process "
                    + p.namespace()
                    + "."
                    + pl.rank()
                    + " placed on "
                    + pl.node()
                    + " in session "
                    + session
                    + " outside its targets "
                    + job.targetSessionIds());
          }
        }
      }
    }
  }

  private void execute(Effect e) {
    switch (e) {
      case Effect.Reply r -> {
        if (!issued.contains(r.requestId())) {
          throw new AssertionError("a reply to a request never made: " + r);
        }
        if (replies.merge(r.requestId(), 1, Integer::sum) > 1) {
          throw new AssertionError("request answered twice: " + r.requestId());
        }
      }
      case Effect.AskScheduler a -> asks.add(a);
      case Effect.CancelAsk c -> asks.removeIf(a -> a.askId() == c.askId());
      case Effect.HandBackNodes h -> {
        if (h.lendSeconds() != null) {
          lent.addAll(h.nodeNames());
        }
      }
      case Effect.AddNodes a -> a.nodes().forEach(n -> lent.remove(n.name()));
      case Effect.ShrinkNodes s -> {}
      case Effect.LaunchProcs l -> launches.add(l);
      case Effect.SignalProcs s -> {}
      case Effect.KillProcs k -> kills.add(k);
      case Effect.NotifyProc n -> checkNotification(n);
      case Effect.ReportSessionComplete r -> {
        if (!sessionsReported.add(r.sessionId())) {
          throw new AssertionError("session " + r.sessionId() + " reported complete twice");
        }
      }
    }
  }

  /** A timeout warning goes to the allocation's requester and nobody else (spec §8.2.1.11 #6). */
  private void checkNotification(Effect.NotifyProc n) {
    if (n.status() != PmixStatus.ALLOC_TIMEOUT_WARNING) {
      return;
    }
    String allocId =
        n.infos().stream()
            .filter(i -> i.key().equals(PmixKeys.ALLOC_ID))
            .findFirst()
            .orElseThrow()
            .value()
            .asString();
    var a = core.view().allocation(allocId).orElseThrow();
    if (!a.requester().equals(n.target())) {
      throw new AssertionError("warning for " + allocId + " went to " + n.target());
    }
  }

  /** Scheduler nodes neither in the DVM, nor lost, nor lent: what the scheduler can grant. */
  List<NodeSpec> spare() {
    List<NodeSpec> out = new ArrayList<>();
    for (NodeSpec n : universe.values()) {
      if (core.view().node(n.name()).isEmpty()
          && !lost.contains(n.name())
          && !lent.contains(n.name())) {
        out.add(n);
      }
    }
    return out;
  }

  List<String> liveNodes(boolean withController) {
    List<String> out = new ArrayList<>();
    for (NodeView n : core.view().nodes()) {
      if (withController || !n.controller()) {
        out.add(n.name());
      }
    }
    return out;
  }

  /** Every request ever made was answered exactly once. */
  void checkEveryRequestAnswered() {
    for (RequestId id : issued) {
      Integer n = replies.get(id);
      if (n == null || n != 1) {
        throw new AssertionError("request " + id + " answered " + (n == null ? 0 : n) + " times");
      }
    }
  }
}
