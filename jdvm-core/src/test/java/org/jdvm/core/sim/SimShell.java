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
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.core.engine.CoreInternals;
import org.jdvm.core.journal.Entry;
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
  Core core;
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

  /** With crashes: the journal, the source of crash decisions, and what the crashes did. */
  SimJournal durable;

  java.util.Random crashRnd;
  int crashPercent;
  final Map<String, Integer> crashes = new java.util.TreeMap<>();
  final Set<RequestId> failedVisibly = new HashSet<>();
  private boolean redelivering;

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
    String before = request || durable != null ? StateDigest.of(CoreInternals.state(core)) : null;
    if (command instanceof Request r && !issued.add(r.requestId()) && !redelivering) {
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
    if (durable != null && SimJournal.journaled(o)) {
      return journaledRun(command, o, before);
    }
    for (Effect e : o.effects()) {
      execute(e);
    }
    StateInvariants.verify(CoreInternals.state(core));
    return o;
  }

  /** The crash points of docs/journal.md, in the order a batch passes them. */
  enum CrashPoint {
    BEFORE_WRITE,
    TORN_WRITE,
    AFTER_WRITE,
    MID_DISPATCH,
    DURING_SNAPSHOT
  }

  /**
   * Journals the outcome before executing its effects, as the controller does, and now and then
   * crashes the controller at one of the points, recovers from what was written, and checks that
   * the recovered state is the state the journal promised.
   */
  private Outcome journaledRun(Command command, Outcome o, String before) {
    CrashPoint crash =
        crashRnd.nextInt(100) < crashPercent
            ? CrashPoint.values()[crashRnd.nextInt(CrashPoint.DURING_SNAPSHOT.ordinal())]
            : null;
    String beforeDigest = before != null ? before : null;
    if (crash == CrashPoint.BEFORE_WRITE || crash == CrashPoint.TORN_WRITE) {
      if (crash == CrashPoint.TORN_WRITE) {
        durable.append(o, nowNs, crashRnd.nextInt(durable.lastBatchLength(o, nowNs)));
      }
      // The batch never became durable: recovery must give the state before the command, and the
      // command comes again (an agent re-reports; a client whose connection broke asks again).
      crashAndRecover(crash, beforeDigest, 0);
      redelivering = true;
      try {
        commands--;
        return run(command);
      } finally {
        redelivering = false;
      }
    }
    String after = StateDigest.of(CoreInternals.state(core));
    durable.append(o, nowNs, -1);
    if (crash == CrashPoint.AFTER_WRITE) {
      crashAndRecover(crash, after, 0);
      return o;
    }
    List<Effect> effects = o.effects();
    int executed = crash == CrashPoint.MID_DISPATCH ? crashRnd.nextInt(effects.size() + 1) : -1;
    for (int i = 0; i < effects.size(); i++) {
      if (i == executed) {
        crashAndRecover(crash, after, keptAmong(effects, executed));
        return o;
      }
      execute(effects.get(i));
    }
    if (executed == effects.size()) {
      crashAndRecover(crash, after, keptAmong(effects, executed));
      return o;
    }
    durable.dispatched();
    StateInvariants.verify(CoreInternals.state(core));
    if (durable.snapshotDue()) {
      if (crashRnd.nextInt(4) == 0) {
        crash = CrashPoint.DURING_SNAPSHOT; // one snapshot in four is damaged
      }
      durable.snapshot(core, nowNs, crash == CrashPoint.DURING_SNAPSHOT ? crashRnd : null);
      if (crash == CrashPoint.DURING_SNAPSHOT) {
        crashAndRecover(crash, after, 0);
      }
    }
    return o;
  }

  /**
   * How many of the first {@code executed} effects the journal holds (a batch keeps no replies or
   * process notifications): the place in the recovered effects where executing again starts.
   */
  private static int keptAmong(List<Effect> effects, int executed) {
    return Entry.Batch.kept(effects.subList(0, executed)).size();
  }

  /**
   * The controller dies: every client loses its connection (its unanswered requests failed
   * visibly), the core is rebuilt from the journal alone, its state must equal {@code expected},
   * and the effects the journal holds as not dispatched are executed again — the world (agents, the
   * scheduler) takes each at most once; replies and events are for connections that are gone.
   */
  private void crashAndRecover(CrashPoint point, String expected, int alreadyExecuted) {
    crashes.merge(point.name(), 1, Integer::sum);
    for (RequestId id : issued) {
      if (!replies.containsKey(id)) {
        failedVisibly.add(id);
      }
    }
    var result = durable.recover(core);
    core = result.core();
    String got = StateDigest.of(CoreInternals.state(core));
    if (!got.equals(expected)) {
      throw new AssertionError(
          "recovery after a crash " + point + " gave another state:\n" + diff(expected, got));
    }
    StateInvariants.verify(CoreInternals.state(core));
    // Each effect reaches the world at most once: an agent or scheduler knows what it already
    // did (a launch by namespace and rank, an ask by id), here by the effect's place in its batch.
    List<Effect> again = result.undispatched();
    if (Boolean.getBoolean("jdvm.sim.debug")) {
      System.out.println(
          "crash "
              + point
              + " at command "
              + commands
              + " undispatched="
              + again
              + " skip="
              + alreadyExecuted);
    }
    for (int i = alreadyExecuted; i < again.size(); i++) {
      executeAgain(again.get(i));
    }
    if (!again.isEmpty()) {
      durable.dispatched(); // as the server's first write after a recovery does
    }
  }

  private static String diff(String want, String got) {
    String[] w = want.split("\n");
    String[] g = got.split("\n");
    for (int i = 0; i < Math.min(w.length, g.length); i++) {
      if (!w[i].equals(g[i])) {
        return "want " + w[i] + "\n got  " + g[i];
      }
    }
    return "lengths " + w.length + " vs " + g.length;
  }

  /** An effect the journal says may not have been executed; replies and events have no client. */
  private void executeAgain(Effect e) {
    switch (e) {
      case Effect.Reply r -> {}
      case Effect.NotifyProc n -> {}
      default -> execute(e);
    }
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
      if (failedVisibly.contains(id) && (n == null || n == 1)) {
        continue; // its client saw the connection break; the core answered it at most once
      }
      if (n == null || n != 1) {
        throw new AssertionError("request " + id + " answered " + (n == null ? 0 : n) + " times");
      }
    }
  }
}
