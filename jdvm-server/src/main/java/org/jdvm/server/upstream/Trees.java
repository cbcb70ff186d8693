package org.jdvm.server.upstream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.EndedAllocation;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.json.Json;

/**
 * {@code jdvm.qry.tree} (docs/cli.md {@code jdvm tree}): the job genealogy, depth first from each
 * tool and the scheduler, as a flat JSON array (each job with its {@code depth}, so no genealogy is
 * too deep to send): per job its state, the allocations it owns with their disposition and what it
 * will do when the job ends (spec §8.2.1.9.2), the allocations it ended owning as the core
 * remembers them, the reservations it was spawned into, and {@code usage} when the DVM has a record
 * of what the job used ({@code null} until then).
 */
final class Trees {
  private Trees() {}

  static String json(CoreView v) {
    return json(v, ns -> null);
  }

  /** The tree, with {@code usage} of each job from {@code usage} ({@code null}: none recorded). */
  static String json(CoreView v, Function<String, Object> usage) {
    Map<String, AllocationView> allocs = new HashMap<>();
    Map<Long, String> bySession = new HashMap<>();
    for (AllocationView a : v.allocations()) {
      allocs.put(a.allocId(), a);
      bySession.put(a.sessionId(), a.allocId());
    }
    Map<String, List<EndedAllocation>> endedByOwner = new HashMap<>();
    for (EndedAllocation e : v.endedAllocations()) {
      endedByOwner.computeIfAbsent(e.owner(), o -> new ArrayList<>()).add(e);
    }
    List<Object> out = new ArrayList<>();
    Deque<Object[]> stack = new ArrayDeque<>();
    List<JobView> roots = new ArrayList<>();
    for (JobView j : v.jobs()) {
      if (j.parent() == null || v.job(j.parent()).isEmpty()) {
        roots.add(j);
      }
    }
    for (int i = roots.size() - 1; i >= 0; i--) {
      stack.push(new Object[] {roots.get(i), 0});
    }
    while (!stack.isEmpty()) {
      Object[] top = stack.pop();
      JobView j = (JobView) top[0];
      int depth = (Integer) top[1];
      out.add(job(j, depth, allocs, bySession, endedByOwner, usage.apply(j.namespace())));
      List<String> children = j.children();
      for (int i = children.size() - 1; i >= 0; i--) {
        JobView c = v.job(children.get(i)).orElse(null);
        if (c != null) {
          stack.push(new Object[] {c, depth + 1});
        }
      }
    }
    return Json.write(out);
  }

  private static Map<String, Object> job(
      JobView j,
      int depth,
      Map<String, AllocationView> allocs,
      Map<Long, String> bySession,
      Map<String, List<EndedAllocation>> endedByOwner,
      Object usage) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("nspace", j.namespace());
    m.put("depth", depth);
    m.put("parent", j.parent());
    m.put("kind", lower(j.kind()));
    m.put("state", lower(j.state()));
    boolean ended = j.state() == JobView.State.TERMINATED;
    m.put("status", ended ? j.status() : null);
    m.put("exitCode", ended ? j.exitCode() : null);
    m.put("procs", j.procs().size());
    m.put("liveDescendants", j.liveDescendants());
    List<String> targets = new ArrayList<>();
    for (long s : j.targetSessionIds()) {
      targets.add(bySession.getOrDefault(s, s == 0xFFFF_FFFFL ? "" : "session " + s));
    }
    m.put("targets", j.kind() == org.jdvm.core.JobKind.APPLICATION ? targets : List.of());
    List<Object> owns = new ArrayList<>();
    for (String id : j.owningAllocIds()) {
      owns.add(owned(allocs.get(id)));
    }
    m.put("owns", owns);
    List<String> spawnedInto = new ArrayList<>(j.ownerSetAllocIds());
    spawnedInto.removeAll(j.owningAllocIds());
    m.put("spawnedInto", spawnedInto);
    List<Object> endedOwned = new ArrayList<>();
    for (EndedAllocation e : endedByOwner.getOrDefault(j.namespace(), List.of())) {
      endedOwned.add(Explanations.ended(e));
    }
    m.put("endedAllocations", endedOwned);
    m.put("usage", usage);
    return m;
  }

  private static Map<String, Object> owned(AllocationView a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("allocId", a.allocId());
    m.put("reqId", a.allocReqId());
    m.put("reserved", a.reserved());
    List<String> nodes = new ArrayList<>();
    a.nodes().forEach(n -> nodes.add(n.name()));
    m.put("nodes", nodes);
    m.put("owners", new ArrayList<>(a.owners()));
    m.put("inheritance", Explanations.inheritance(a.inheritance()));
    m.put("state", lower(a.state()));
    m.put("whenOwnerEnds", whenOwnerEnds(a.inheritance()));
    return m;
  }

  /**
   * What the disposition does (spec §8.2.1.9.2): {@code release} returns the nodes to the scheduler
   * (start-up nodes revert to the default session), {@code unreserve} leaves them in the default
   * session; {@code atOwnerEnd} or {@code atLastDescendantEnd} says when.
   */
  static Map<String, Object> whenOwnerEnds(AllocInheritance i) {
    AllocInheritance d = i == null ? AllocInheritance.DEFAULT : i;
    boolean waits = d == AllocInheritance.CHILD || d == AllocInheritance.CHILD_DEFAULT;
    boolean release = d == AllocInheritance.NONE || d == AllocInheritance.CHILD;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("when", waits ? "atLastDescendantEnd" : "atOwnerEnd");
    m.put("then", release ? "release" : "unreserve");
    return m;
  }

  private static String lower(Object e) {
    return e == null ? null : e.toString().toLowerCase(Locale.ROOT);
  }
}
