package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.Request;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.EndedAllocation;
import org.jdvm.core.query.Explanation;
import org.jdvm.core.query.NodeFate;
import org.jdvm.endpoint.serve.Upstream.Answer;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.Dvm;

/**
 * {@code jdvm.qry.explain} answered (docs/cli.md {@code jdvm explain}): the core's {@link
 * Explanation} as JSON, each node with its agent's state beside the core's reason (a node that went
 * down is no longer the core's: its agent says so). Keys keep the order written here; the words are
 * the command's to choose.
 */
final class Explanations {
  private Explanations() {}

  static Answer answer(
      CoreView v,
      Request.Spawn wouldBe,
      String job,
      String node,
      String alloc,
      Map<String, Dvm.AgentFacts> agents) {
    Optional<Explanation> e =
        wouldBe != null
            ? Optional.of(v.explain(wouldBe, node, alloc))
            : v.explainJob(job, node, alloc);
    if (e.isEmpty()) {
      return new Answer(PmixStatus.ERR_NOT_FOUND, List.of());
    }
    String json = Json.write(json(e.get(), agents));
    return new Answer(
        PmixStatus.SUCCESS, List.of(Info.of(JdvmProtocol.QUERY_EXPLAIN, Value.string(json))));
  }

  static Map<String, Object> json(Explanation e, Map<String, Dvm.AgentFacts> agents) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job", e.job());
    m.put("requester", e.requester());
    m.put("allowed", e.allowed());
    m.put("rejection", e.rejection());
    m.put("status", e.status());
    m.put("statusName", PmixStatus.name(e.status()));
    m.put("procs", e.procs());
    List<Object> targets = new ArrayList<>();
    e.targets().forEach(t -> targets.add(target(t)));
    m.put("targets", targets);
    m.put("asked", e.asked() == null ? null : target(e.asked()));
    List<Object> nodes = new ArrayList<>();
    for (Explanation.NodeVerdict n : e.nodes()) {
      nodes.add(node(n, agents.get(n.node())));
    }
    m.put("nodes", nodes);
    return m;
  }

  private static Map<String, Object> target(Explanation.Target t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("named", t.named());
    m.put("allocId", t.allocId());
    m.put("found", t.found());
    m.put("reserved", t.reserved());
    m.put("owners", t.owners());
    m.put("mayTarget", t.mayTarget());
    m.put("terminating", t.terminating());
    m.put("ended", ended(t.ended()));
    return m;
  }

  private static Map<String, Object> node(Explanation.NodeVerdict n, Dvm.AgentFacts agent) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("node", n.node());
    m.put("reason", n.reason().name());
    m.put("allowed", n.reason() == org.jdvm.core.query.NodeReason.USABLE);
    m.put("clause", n.reason().clause());
    m.put("allocId", n.allocId());
    m.put("owners", n.owners());
    m.put("slots", n.slots());
    m.put("freeSlots", n.freeSlots());
    List<Object> holders = new ArrayList<>();
    for (Explanation.Holder h : n.holders()) {
      Map<String, Object> hm = new LinkedHashMap<>();
      hm.put("nspace", h.namespace());
      hm.put("procs", h.procs());
      holders.add(hm);
    }
    m.put("holders", holders);
    m.put("placed", n.placed());
    m.put("fate", fate(n.fate()));
    m.put("endedWith", ended(n.endedWith()));
    m.put("agent", agent == null ? null : agent.state());
    return m;
  }

  private static Map<String, Object> fate(NodeFate f) {
    if (f == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("allocId", f.allocId());
    m.put("leftDvm", f.leftDvm());
    return m;
  }

  /** An ended allocation as {@code jdvm explain --json} and {@code jdvm tree --json} show it. */
  static Map<String, Object> ended(EndedAllocation a) {
    if (a == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("allocId", a.allocId());
    m.put("reqId", a.allocReqId());
    m.put("owner", a.owner());
    m.put("ownerEnded", a.ownerEnded());
    m.put("owners", a.owners());
    m.put("inheritance", inheritance(a.inheritance()));
    m.put("reserved", a.reserved());
    m.put("how", a.how().name());
    m.put("nodes", a.nodes());
    m.put("nodesGone", a.nodesGone());
    return m;
  }

  static String inheritance(AllocInheritance i) {
    return AllocInheritance.toString(i == null ? 0 : i.code());
  }
}
