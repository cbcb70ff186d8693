package org.jdvm.core.scenario;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Request;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.EndedAllocation;
import org.jdvm.core.query.Explanation;
import org.jdvm.pmix.PmixStatus;

/**
 * Renders {@code jdvm explain}'s answer as scenario lines: {@code explain SPAWN-ARGS [node=N]
 * [alloc=A]} explains a would-be spawn (the arguments of {@code spawn}; nothing is sent), {@code
 * explain-job job=NS [node=N] [alloc=A]} a job.
 */
final class Explains {
  private Explains() {}

  static List<String> spawn(CoreView view, String line) {
    Commands.Args a = new Commands.Args(line);
    Request.Spawn s = (Request.Spawn) Commands.parse("spawn" + line.substring("explain".length()));
    return render(view.explain(s, a.get("node"), a.get("alloc")));
  }

  static List<String> job(CoreView view, String line) {
    Commands.Args a = new Commands.Args(line);
    return view.explainJob(a.need("job"), a.get("node"), a.get("alloc"))
        .map(Explains::render)
        .orElse(List.of("explain: no job " + a.need("job")));
  }

  static List<String> render(Explanation e) {
    List<String> out = new ArrayList<>();
    out.add(
        "verdict "
            + (e.job() != null ? "job " + e.job() : e.allowed() ? "ALLOWED" : e.rejection())
            + " "
            + PmixStatus.name(e.status())
            + " procs="
            + e.procs()
            + " requester="
            + e.requester());
    for (Explanation.Target t : e.targets()) {
      out.add("target " + target(t));
    }
    if (e.asked() != null) {
      out.add("asked " + target(e.asked()));
    }
    for (Explanation.NodeVerdict n : e.nodes()) {
      out.add(node(n));
    }
    return out;
  }

  private static String target(Explanation.Target t) {
    return (t.named() == null ? "(inherited)" : "\"" + t.named() + "\"")
        + (t.found() ? " session=" + (t.allocId() == null ? "default" : t.allocId()) : " not-found")
        + (t.reserved() ? " reserved owners=" + t.owners() : "")
        + (t.found() ? " mayTarget=" + t.mayTarget() : "")
        + (t.terminating() ? " terminating" : "")
        + (t.ended() == null ? "" : " ended=" + ended(t.ended()));
  }

  private static String node(Explanation.NodeVerdict n) {
    List<String> holders = new ArrayList<>();
    n.holders().forEach(h -> holders.add(h.namespace() + "x" + h.procs()));
    return "node "
        + n.node()
        + " "
        + n.reason()
        + " ("
        + n.reason().clause()
        + ")"
        + (n.reason() == org.jdvm.core.query.NodeReason.NOT_IN_DVM
            ? ""
            : " free=" + n.freeSlots() + "/" + n.slots())
        + (n.allocId() == null ? "" : " alloc=" + n.allocId())
        + (n.owners().isEmpty() ? "" : " owners=" + n.owners())
        + (holders.isEmpty() ? "" : " holders=" + holders)
        + (n.placed() == 0 ? "" : " placed=" + n.placed())
        + (n.fate() == null
            ? ""
            : " left=" + n.fate().allocId() + (n.fate().leftDvm() ? " (left the DVM)" : ""))
        + (n.endedWith() == null ? "" : " ended=" + ended(n.endedWith()));
  }

  private static String ended(EndedAllocation e) {
    return "("
        + e.allocId()
        + " "
        + e.how()
        + " "
        + e.inheritance()
        + " owner="
        + e.owner()
        + (e.ownerEnded() ? " ended" : " live")
        + " nodes="
        + e.nodes()
        + (e.nodesGone().isEmpty() ? "" : " gone=" + e.nodesGone())
        + ")";
  }
}
