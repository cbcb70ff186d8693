package org.jdvm.core.spawn;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.NodeFill;
import org.jdvm.core.Rejection;
import org.jdvm.core.Request.Spawn;
import org.jdvm.core.alloc.Ownership;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.mapping.Mapper;
import org.jdvm.core.query.EndedAllocation;
import org.jdvm.core.query.Explainer;
import org.jdvm.core.query.Explanation;
import org.jdvm.core.query.Explanation.Holder;
import org.jdvm.core.query.Explanation.NodeVerdict;
import org.jdvm.core.query.Explanation.Target;
import org.jdvm.core.query.NodeFate;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.Sessions;
import org.jdvm.core.state.State;
import org.jdvm.pmix.PmixStatus;

/**
 * {@code jdvm explain} (spec §8.2.1.6–§8.2.1.8): the spawn's own decision ({@link SpawnRule#decide}
 * after the requester check, as {@code Core.handle} runs them), its targeting entries as {@link
 * Targeting#entries} looks them up, and per node the {@link NodeRule} reason with what the mapper
 * would place there. Reads the state, changes nothing; the cost is that of deciding the spawn plus
 * one pass over the nodes considered.
 */
public final class SpawnExplainer implements Explainer {
  private final State state;

  public SpawnExplainer(State state) {
    this.state = state;
  }

  @Override
  public Explanation explain(Spawn spawn, String node, String allocId) {
    Rejection refused = Requesters.check(state, spawn.requester());
    Job requester = refused == null ? Requesters.job(state, spawn.requester()) : null;
    Resolution r = refused == null ? SpawnRule.decide(spawn, requester, state) : null;
    if (r instanceof Resolution.Refused no) {
      refused = no.why();
    }
    List<Targeting.Entry> entries =
        requester == null ? List.of() : Targeting.entries(spawn, requester, state);
    Map<String, Integer> placed = new LinkedHashMap<>();
    if (r instanceof Resolution.Resolved ok) {
      for (var p : Mapper.place(spawn.apps(), ok.targets().pools(), spawn.mapBy(), spawn.fill())) {
        placed.merge(p.node(), 1, Integer::sum);
      }
    }
    List<Allocation> sessions = Targeting.sessions(entries);
    List<NodeVerdict> verdicts = new ArrayList<>();
    for (String name : scope(node, allocId)) {
      verdicts.add(verdict(name, sessions, requester, spawn.fill(), placed.getOrDefault(name, 0)));
    }
    return new Explanation(
        null,
        spawn.requester().nspace(),
        refused == null ? null : refused.name(),
        refused == null ? PmixStatus.SUCCESS : refused.status(),
        (int) Math.min(Integer.MAX_VALUE, org.jdvm.core.state.LimitChecks.processes(spawn.apps())),
        targets(entries, requester),
        asked(allocId, requester),
        verdicts);
  }

  @Override
  public Optional<Explanation> explainJob(String namespace, String node, String allocId) {
    Job job = state.jobs().get(namespace);
    if (job == null) {
      return Optional.empty();
    }
    List<Allocation> sessions = new ArrayList<>();
    List<Target> targets = new ArrayList<>();
    for (long id : job.targetSessionIds()) {
      Allocation a = id == Sessions.DEFAULT_ID ? null : state.allocations().bySession(id);
      boolean found = id == Sessions.DEFAULT_ID || a != null;
      if (found) {
        sessions.add(a);
      }
      String named = found ? (a == null ? "" : a.allocId()) : "session " + id;
      targets.add(target(new Targeting.Entry(named, a, found), job));
    }
    Map<String, Integer> placed = new LinkedHashMap<>();
    for (ProcRecord p : job.procs()) {
      if (p != null && p.live()) {
        placed.merge(p.node(), 1, Integer::sum);
      }
    }
    List<NodeVerdict> verdicts = new ArrayList<>();
    for (String name : scope(node, allocId)) {
      verdicts.add(verdict(name, sessions, job, job.fill(), placed.getOrDefault(name, 0)));
    }
    return Optional.of(
        new Explanation(
            namespace,
            job.parent() == null ? null : job.parent(),
            null,
            PmixStatus.SUCCESS,
            job.size(),
            targets,
            asked(allocId, job),
            verdicts));
  }

  /** The nodes asked about: one node, an allocation's (live or remembered), or every node. */
  private List<String> scope(String node, String allocId) {
    if (node != null) {
      return List.of(node);
    }
    Collection<Node> nodes;
    if (allocId == null) {
      nodes = state.nodes().all();
    } else {
      Allocation a = state.allocations().byAnyId(allocId);
      if (a == null) {
        a = state.allocations().byReqId(allocId);
      }
      if (a == null) {
        EndedAllocation e = state.history().ended(allocId);
        return e == null ? List.of() : e.nodes();
      }
      nodes = a.nodes();
    }
    List<String> names = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      names.add(n.name());
    }
    return names;
  }

  private NodeVerdict verdict(
      String name, List<Allocation> sessions, Job requester, NodeFill fill, int placed) {
    Node n = state.nodes().get(name);
    NodeFate fate = state.history().fate(name);
    EndedAllocation endedWith =
        fate == null || fate.allocId() == null ? null : state.history().ended(fate.allocId());
    if (n == null) {
      return new NodeVerdict(
          name,
          NodeRule.reason(null, sessions, requester, fill),
          null,
          List.of(),
          0,
          0,
          List.of(),
          0,
          fate,
          endedWith);
    }
    Allocation a = n.allocation();
    return new NodeVerdict(
        name,
        NodeRule.reason(n, sessions, requester, fill),
        a == null ? null : a.allocId(),
        a == null || !a.reserved() ? List.of() : new ArrayList<>(a.owners()),
        n.slots(),
        n.freeSlots(),
        holders(n),
        placed,
        n.allocation() == null ? fate : null,
        n.allocation() == null ? endedWith : null);
  }

  private static List<Holder> holders(Node n) {
    Map<String, Integer> by = new LinkedHashMap<>();
    for (ProcRecord p : n.residents()) {
      by.merge(p.job().namespace(), 1, Integer::sum);
    }
    List<Holder> out = new ArrayList<>(by.size());
    by.forEach((ns, count) -> out.add(new Holder(ns, count)));
    return out;
  }

  private List<Target> targets(List<Targeting.Entry> entries, Job requester) {
    List<Target> out = new ArrayList<>(entries.size());
    for (Targeting.Entry e : entries) {
      out.add(target(e, requester));
    }
    return out;
  }

  private Target target(Targeting.Entry e, Job requester) {
    Allocation a = e.session();
    EndedAllocation ended =
        e.found() || e.named() == null ? null : state.history().ended(e.named());
    return new Target(
        e.named(),
        a == null ? null : a.allocId(),
        e.found(),
        a != null && a.reserved(),
        a == null ? List.of() : new ArrayList<>(a.owners()),
        e.found() && requester != null && Ownership.mayTarget(a, requester),
        a != null && a.terminating(),
        ended);
  }

  /** The allocation asked about with {@code --alloc}, live or remembered. */
  private Target asked(String allocId, Job requester) {
    if (allocId == null) {
      return null;
    }
    Allocation a = state.allocations().byAnyId(allocId);
    if (a == null) {
      a = state.allocations().byReqId(allocId);
    }
    return target(new Targeting.Entry(allocId, a, a != null), requester);
  }
}
