package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.PendingView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.Dvm;

/**
 * jdvm's listings (docs/protocol.md "Listings"): {@code jdvm.qry.nodes}, {@code jdvm.qry.allocs}
 * and {@code jdvm.qry.jobs} answered with a JSON array, exactly what {@code jdvm nodes|allocs|jobs
 * --json} prints. Keys keep the order written here; states are lower case. {@code jdvm.qry.jobs}
 * with a {@code PMIX_NSPACE} qualifier lists that one job.
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
 *       exitStatus, usage}), {@code status, exitCode, usage} (what the ended processes used: {@code
 *       userCpuMicros, systemCpuMicros, maxRssKiB, wallMicros}, the job's the sum of its processes'
 *       but for the peak, the largest; null when not known).
 * </ul>
 */
final class Listings {
  private Listings() {}

  static String nodes(CoreView v) {
    return nodes(v, Map.of());
  }

  /**
   * The nodes with their agents' facts: {@code host, agent} ({@code local}, {@code joining}, {@code
   * up}, {@code suspect}, {@code down}) {@code , lastHeartbeat} (ISO-8601 UTC, null for a local
   * node). A node that went down is no longer the core's and is listed after the others with no
   * slots.
   */
  static String nodes(CoreView v, Map<String, Dvm.AgentFacts> agents) {
    List<Object> out = new ArrayList<>();
    java.util.Set<String> listed = new java.util.HashSet<>();
    for (NodeView n : v.nodes()) {
      listed.add(n.name());
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", n.name());
      m.put("slots", n.slots());
      m.put("slotsInUse", n.slotsInUse());
      m.put("allocId", n.allocId());
      m.put("reserved", n.reserved());
      m.put("origin", lower(n.origin()));
      m.put("sessionId", n.sessionId());
      m.put("controller", n.controller());
      agent(m, agents.get(n.name()));
      out.add(m);
    }
    agents.forEach(
        (name, facts) -> {
          if (!listed.contains(name) && "down".equals(facts.state())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("slots", 0);
            m.put("slotsInUse", 0);
            m.put("allocId", null);
            m.put("reserved", false);
            m.put("origin", "startup");
            m.put("sessionId", null);
            m.put("controller", false);
            agent(m, facts);
            out.add(m);
          }
        });
    return Json.write(out);
  }

  private static void agent(Map<String, Object> m, Dvm.AgentFacts facts) {
    if (facts == null) {
      return;
    }
    m.put("host", facts.host());
    m.put("agent", facts.state());
    m.put(
        "lastHeartbeat",
        facts.lastHeartbeatMillis() == null
            ? null
            : java.time.Instant.ofEpochMilli(facts.lastHeartbeatMillis()).toString());
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

  /** How many processes of a job the summary lists ({@link #jobsSummary}). */
  static final int SUMMARY_PROCS = 8;

  static String jobs(CoreView v) {
    return jobs(v, v.jobs(), false);
  }

  /**
   * The jobs as {@link #jobs(CoreView)} lists them, but each with {@code procCount}, {@code
   * procStates} (the count of its processes in each state) and the first {@link #SUMMARY_PROCS} of
   * its processes in {@code procs}: an answer whose size does not grow with the processes.
   */
  static String jobsSummary(CoreView v) {
    return jobs(v, v.jobs(), true);
  }

  /**
   * The listing of the jobs given (the whole table, or one job for a qualified query), each job's
   * processes all listed or ({@code summary}) summarised.
   */
  static String jobs(CoreView v, Iterable<? extends JobView> jobs, boolean summary) {
    Map<Long, String> allocBySession = new HashMap<>();
    for (AllocationView a : v.allocations()) {
      allocBySession.put(a.sessionId(), a.allocId());
    }
    List<Object> out = new ArrayList<>();
    for (JobView j : jobs) {
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
      procs(m, j, summary);
      boolean ended = j.state() == JobView.State.TERMINATED;
      m.put("status", ended ? j.status() : null);
      m.put("exitCode", ended ? j.exitCode() : null);
      m.put("usage", usage(j.usage()));
      // A live job whose parent ended, e.g. that of a SIGKILLed jdvm run (decisions.md #11).
      m.put("parentGone", !ended && parentTerminated(v, j));
      out.add(m);
    }
    return Json.write(out);
  }

  /** A job's {@code procs}: all of them, or the summary's count, states and first few. */
  private static void procs(Map<String, Object> m, JobView j, boolean summary) {
    List<Object> procs = new ArrayList<>();
    Map<String, Object> states = new java.util.TreeMap<>();
    int count = 0;
    for (ProcView p : j.procs()) {
      count++;
      if (summary) {
        states.merge(lower(p.state()), 1L, (a, b) -> (Long) a + (Long) b);
        if (procs.size() >= SUMMARY_PROCS) {
          continue;
        }
      }
      Map<String, Object> pm = new LinkedHashMap<>();
      pm.put("rank", p.rank());
      pm.put("node", p.node());
      pm.put("pid", p.pid());
      pm.put("state", lower(p.state()));
      pm.put("exitStatus", p.state() == ProcView.State.ENDED ? p.exitCode() : null);
      pm.put("usage", usage(p.usage()));
      procs.add(pm);
    }
    if (summary) {
      m.put("procCount", count);
      m.put("procStates", states);
    }
    m.put("procs", procs);
  }

  /**
   * What a process or a job used ({@link ProcUsage}): {@code userCpuMicros, systemCpuMicros,
   * maxRssKiB} (null when not known), {@code wallMicros}; or null when not known.
   */
  /** Whether the job's parent is a terminated job the DVM still holds (one look-up, not a scan). */
  private static boolean parentTerminated(CoreView v, JobView j) {
    return j.parent() != null
        && v.job(j.parent()).map(p -> p.state() == JobView.State.TERMINATED).orElse(false);
  }

  static Map<String, Object> usage(ProcUsage u) {
    if (u == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("userCpuMicros", u.userCpuMicros());
    m.put("systemCpuMicros", u.systemCpuMicros());
    m.put("maxRssKiB", u.maxRssKiB() < 0 ? null : u.maxRssKiB());
    m.put("wallMicros", u.wallMicros());
    return m;
  }

  private static String inheritance(AllocInheritance i) {
    return AllocInheritance.toString(i == null ? 0 : i.code());
  }

  private static String lower(Enum<?> e) {
    return e == null ? null : e.name().toLowerCase(Locale.ROOT);
  }
}
