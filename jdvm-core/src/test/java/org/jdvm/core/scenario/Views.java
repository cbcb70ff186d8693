package org.jdvm.core.scenario;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.PendingView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.PmixStatus;

/** Renders the query views, as {@code show ...} lines in a scenario. */
final class Views {
  private Views() {}

  static List<String> show(CoreView view, String what) {
    List<String> out = new ArrayList<>();
    switch (what) {
      case "nodes" -> view.nodes().forEach(n -> out.add(node(n)));
      case "allocs" -> view.allocations().forEach(a -> out.add(allocation(a)));
      case "jobs" -> view.jobs().forEach(j -> out.add(job(j)));
      case "pending" -> view.pending().forEach(p -> out.add(pending(p)));
      default -> throw new IllegalArgumentException("show what? " + what);
    }
    if (out.isEmpty()) {
      out.add("(none)");
    }
    return out;
  }

  static List<String> status(CoreView view, String id) {
    return view.allocationStatus(id)
        .map(
            s ->
                List.of(
                    "status "
                        + s.state()
                        + " "
                        + (s.allocation() != null
                            ? allocation(s.allocation())
                            : pending(s.pending()))))
        .orElse(List.of("status NOT_FOUND"));
  }

  static List<String> procInfo(CoreView view, String proc) {
    int dot = proc.lastIndexOf('.');
    org.jdvm.pmix.Proc p =
        new org.jdvm.pmix.Proc(proc.substring(0, dot), Integer.parseInt(proc.substring(dot + 1)));
    return view.procInfo(p).map(i -> List.of(Render.record(i))).orElse(List.of("procinfo none"));
  }

  private static String session(long id) {
    return id == 0xFFFF_FFFFL ? "default" : String.valueOf(id);
  }

  static String node(NodeView n) {
    return "node "
        + n.name()
        + " slots="
        + n.slotsInUse()
        + "/"
        + n.slots()
        + " "
        + n.origin()
        + " session="
        + session(n.sessionId())
        + (n.allocId() == null ? "" : " alloc=" + n.allocId())
        + (n.reserved() ? " reserved" : "")
        + (n.controller() ? " controller" : "");
  }

  static String allocation(AllocationView a) {
    List<String> nodes = new ArrayList<>();
    a.nodes().forEach(n -> nodes.add(n.name()));
    return "alloc "
        + a.allocId()
        + " session="
        + a.sessionId()
        + (a.allocReqId() == null ? "" : " req=" + a.allocReqId())
        + " owner="
        + a.owner()
        + " owners="
        + a.owners()
        + " requester="
        + a.requester()
        + " "
        + a.inheritance()
        + (a.reserved() ? " reserved" : " shared")
        + " nodes="
        + nodes
        + " "
        + a.state()
        + (a.lentNodes().isEmpty() ? "" : " lent=" + a.lentNodes())
        + (a.timeLimitSeconds() == null ? "" : " limit=" + a.timeLimitSeconds() + "s")
        + (a.parentSessionId() == null ? "" : " parent=" + a.parentSessionId())
        + (a.separated() ? " separated" : "")
        + (a.schedulerSession() ? " scheduler-session" : "")
        + (a.jobs().isEmpty() ? "" : " jobs=" + a.jobs());
  }

  static String job(JobView j) {
    List<String> procs = new ArrayList<>();
    for (ProcView p : j.procs()) {
      procs.add(
          p.rank()
              + "@"
              + p.node()
              + ":"
              + p.state()
              + (p.state() == ProcView.State.ENDED ? "(" + p.exitCode() + ")" : ""));
    }
    List<String> targets = new ArrayList<>();
    j.targetSessionIds().forEach(t -> targets.add(session(t)));
    return "job "
        + j.namespace()
        + " "
        + j.kind()
        + " "
        + j.state()
        + (j.parent() == null ? "" : " parent=" + j.parent())
        + (j.kind() == org.jdvm.core.JobKind.APPLICATION ? " targets=" + targets : "")
        + " descendants="
        + j.liveDescendants()
        + (j.stopped() ? " stopped" : "")
        + (j.state() == JobView.State.TERMINATED
            ? " status=" + PmixStatus.name(j.status()) + " exit=" + j.exitCode()
            : "")
        + (procs.isEmpty() ? "" : " procs=" + procs);
  }

  static String pending(PendingView p) {
    return "pending ask="
        + p.askId()
        + " "
        + p.kind()
        + " requester="
        + p.requester()
        + (p.allocId() == null ? "" : " alloc=" + p.allocId())
        + (p.allocReqId() == null ? "" : " req=" + p.allocReqId())
        + (p.queued() ? " queued" : "");
  }
}
