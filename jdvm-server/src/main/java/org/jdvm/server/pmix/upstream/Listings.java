package org.jdvm.server.pmix.upstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.PendingView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.json.Json;

/**
 * jdvm's listings (docs/protocol.md "Listings"): {@code jdvm.qry.nodes}, {@code jdvm.qry.allocs}
 * and {@code jdvm.qry.jobs} answered with a JSON array, exactly what {@code jdvm nodes|allocs|jobs
 * --json} prints. Keys keep the order written here; states are lower case.
 *
 * <ul>
 *   <li>nodes: {@code name, slots, slotsInUse, allocId} (null in the default session), {@code
 *       reserved, origin} ({@code startup}|{@code scheduler}), {@code sessionId, controller}.
 *   <li>allocs: {@code allocId, reqId, sessionId, owner, owners, requester, inheritance} (the
 *       {@code PMIx_Alloc_inheritance_string} form), {@code reserved, nodes, state} ({@code
 *       active}|{@code terminating}, or {@code pending}|{@code queued} for a request still waiting
 *       for the scheduler), {@code timeLimitSeconds, schedulerSession, jobs}.
 *   <li>jobs: {@code nspace, kind} ({@code tool}|{@code application}|{@code scheduler}), {@code
 *       state, parent, allocId} (primary session; null for the default session), {@code targets}
 *       (allocation ids, "" for the default session), {@code procs} ({@code rank, node, pid, state,
 *       exitStatus}), {@code status, exitCode}.
 * </ul>
 */
final class Listings {
  private Listings() {}

  static String nodes(CoreView v) {
    List<Object> out = new ArrayList<>();
    for (NodeView n : v.nodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", n.name());
      m.put("slots", n.slots());
      m.put("slotsInUse", n.slotsInUse());
      m.put("allocId", n.allocId());
      m.put("reserved", n.reserved());
      m.put("origin", lower(n.origin()));
      m.put("sessionId", n.sessionId());
      m.put("controller", n.controller());
      out.add(m);
    }
    return Json.write(out);
  }

  static String allocs(CoreView v) {
    List<Object> out = new ArrayList<>();
    for (AllocationView a : v.allocations()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("allocId", a.allocId());
      m.put("reqId", a.allocReqId());
      m.put("sessionId", a.sessionId());
      m.put("owner", a.owner());
      m.put("owners", new ArrayList<>(a.owners()));
      m.put("requester", a.requester() == null ? null : a.requester().toString());
      m.put("inheritance", inheritance(a.inheritance()));
      m.put("reserved", a.reserved());
      List<String> nodes = new ArrayList<>();
      a.nodes().forEach(n -> nodes.add(n.name()));
      m.put("nodes", nodes);
      m.put("state", a.state() == null ? null : a.state().toLowerCase(Locale.ROOT));
      m.put("timeLimitSeconds", a.timeLimitSeconds());
      m.put("schedulerSession", a.schedulerSession());
      m.put("jobs", new ArrayList<>(a.jobs()));
      out.add(m);
    }
    for (PendingView p : v.pending()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("allocId", p.allocId());
      m.put("reqId", p.allocReqId());
      m.put("sessionId", null);
      m.put("owner", null);
      m.put("owners", List.of());
      m.put("requester", p.requester() == null ? null : p.requester().toString());
      m.put("inheritance", null);
      m.put("reserved", false);
      m.put("nodes", List.of());
      m.put("state", p.queued() ? "queued" : "pending");
      m.put("timeLimitSeconds", null);
      m.put("schedulerSession", false);
      m.put("jobs", List.of());
      m.put("kind", lower(p.kind()));
      out.add(m);
    }
    return Json.write(out);
  }

  static String jobs(CoreView v) {
    Map<Long, String> allocBySession = new HashMap<>();
    for (AllocationView a : v.allocations()) {
      allocBySession.put(a.sessionId(), a.allocId());
    }
    List<Object> out = new ArrayList<>();
    for (JobView j : v.jobs()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("nspace", j.namespace());
      m.put("kind", lower(j.kind()));
      m.put("state", lower(j.state()));
      m.put("parent", j.parent());
      m.put("allocId", allocBySession.get(j.primarySessionId()));
      List<String> targets = new ArrayList<>();
      for (long s : j.targetSessionIds()) {
        targets.add(allocBySession.getOrDefault(s, ""));
      }
      m.put("targets", targets);
      List<Object> procs = new ArrayList<>();
      for (ProcView p : j.procs()) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("rank", p.rank());
        pm.put("node", p.node());
        pm.put("pid", p.pid());
        pm.put("state", lower(p.state()));
        pm.put("exitStatus", p.state() == ProcView.State.ENDED ? p.exitCode() : null);
        procs.add(pm);
      }
      m.put("procs", procs);
      boolean ended = j.state() == JobView.State.TERMINATED;
      m.put("status", ended ? j.status() : null);
      m.put("exitCode", ended ? j.exitCode() : null);
      out.add(m);
    }
    return Json.write(out);
  }

  private static String inheritance(AllocInheritance i) {
    return AllocInheritance.toString(i == null ? 0 : i.code());
  }

  private static String lower(Enum<?> e) {
    return e == null ? null : e.name().toLowerCase(Locale.ROOT);
  }
}
