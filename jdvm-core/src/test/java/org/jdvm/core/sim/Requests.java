package org.jdvm.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Request;
import org.jdvm.core.SessionOp;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.Proc;

/** Random requests for the simulation: mostly plausible, sometimes wrong on purpose. */
final class Requests {
  private Requests() {}

  private static final String[] REQ_IDS = {"r1", "r2", "r3", "r4", "r5"};

  static void allocate(Simulation sim) {
    Random rnd = sim.rnd;
    AllocDirective d = Simulation.directive(rnd);
    Request.Allocate.Builder b = Request.Allocate.builder(sim.rid(), sim.requester(), d);
    if (rnd.nextInt(5) == 0) {
      b.target(rnd.nextInt(4) == 0 ? "ghost" : sim.requester().nspace());
    }
    if (rnd.nextInt(4) == 0) {
      b.share(rnd.nextBoolean());
    }
    if (rnd.nextInt(3) == 0) {
      b.inheritance(rnd.nextInt(12) == 0 ? rnd.nextInt(9) : 1 + rnd.nextInt(4));
    }
    if (rnd.nextInt(3) == 0) {
      b.allocReqId(REQ_IDS[rnd.nextInt(REQ_IDS.length)]);
    }
    if (d != AllocDirective.NEW ? rnd.nextInt(4) != 0 : rnd.nextInt(8) == 0) {
      b.allocId(sim.pick(sim.allocationIds()));
    }
    nodes(sim, b, d);
    if (rnd.nextInt(5) == 0) {
      b.timeLimitSeconds((long) rnd.nextInt(3600));
    }
    if (rnd.nextInt(5) == 0) {
      b.warnTimeoutSeconds((long) rnd.nextInt(60));
    }
    b.required(rnd.nextInt(3) != 0).childSeparated(rnd.nextInt(4) == 0);
    if (d == AllocDirective.RELEASE && rnd.nextInt(4) == 0) {
      b.lendSeconds((long) rnd.nextInt(600));
    }
    sim.send(b.build());
  }

  /** A count or a node list (of nodes in the DVM, spare ones, or unknown ones), or neither. */
  private static void nodes(Simulation sim, Request.Allocate.Builder b, AllocDirective d) {
    Random rnd = sim.rnd;
    int r = rnd.nextInt(10);
    if (d == AllocDirective.RELEASE && r < 4) {
      AllocationView a = sim.pick(new ArrayList<>(sim.shell.core.view().allocations()));
      if (a != null && !a.nodes().isEmpty()) {
        List<String> names = new ArrayList<>();
        a.nodes().forEach(n -> names.add(n.name()));
        b.allocId(rnd.nextBoolean() ? a.allocId() : null);
        b.nodeList(names.subList(0, 1 + rnd.nextInt(names.size())));
        return;
      }
    }
    if (r < 5) {
      b.nodeCount(rnd.nextInt(30) == 0 ? -1 : rnd.nextInt(4));
    } else if (r < 8) {
      List<String> names = new ArrayList<>();
      for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
        int k = rnd.nextInt(3);
        String name =
            k == 0
                ? sim.pick(sim.shell.liveNodes(true))
                : k == 1 && !sim.shell.spare().isEmpty()
                    ? sim.pick(sim.shell.spare()).name()
                    : "x" + rnd.nextInt(400);
        if (name != null) {
          names.add(name);
        }
      }
      b.nodeList(names);
    }
  }

  static void spawn(Simulation sim) {
    sim.send(randomSpawn(sim));
  }

  /** A random spawn: targets owned, not owned, unknown or none; sometimes an unknown requester. */
  static Request.Spawn randomSpawn(Simulation sim) {
    Random rnd = sim.rnd;
    Request.Spawn s =
        Request.Spawn.of(sim.rid(), sim.requester(), sim.apps())
            .withMapBy(sim.mapBy())
            .withFill(
                rnd.nextInt(4) == 0
                    ? org.jdvm.core.NodeFill.of(rnd.nextInt(3), rnd.nextBoolean())
                    : null);
    int r = rnd.nextInt(10);
    if (r < 5) {
      List<String> owned = new ArrayList<>();
      for (AllocationView a : sim.shell.core.view().allocations()) {
        if (a.owners().contains(s.requester().nspace())) {
          owned.add(a.allocId());
        }
      }
      List<String> target = new ArrayList<>();
      for (int i = 0, n = 1 + rnd.nextInt(2); i < n; i++) {
        int k = rnd.nextInt(6);
        target.add(
            k == 0
                ? ""
                : k < 4 && !owned.isEmpty() ? sim.pick(owned) : sim.pick(sim.allocationIds()));
      }
      s = s.withTarget(target);
    } else if (r < 7) {
      List<AllocationView> allocs = new ArrayList<>(sim.shell.core.view().allocations());
      AllocationView a = sim.pick(allocs);
      s =
          a == null || rnd.nextInt(3) == 0
              ? s.withLegacy(null, "nope", null)
              : s.withLegacy(rnd.nextBoolean() ? a.sessionId() : null, a.allocId(), a.allocReqId());
    }
    return rnd.nextInt(4) == 0 ? s.withRecoverable(true) : s;
  }

  static void jobControl(Simulation sim) {
    List<String> jobs = new ArrayList<>();
    for (JobView j : sim.shell.core.view().jobs()) {
      if (j.state() != JobView.State.TERMINATED) {
        jobs.add(j.namespace());
      }
    }
    String job = sim.pick(jobs);
    if (job == null) {
      return;
    }
    Proc from = sim.rnd.nextBoolean() ? new Proc(job, 0) : sim.requester();
    switch (sim.rnd.nextInt(3)) {
      case 0 -> sim.send(new Request.TerminateJob(sim.rid(), from, job));
      case 1 -> sim.send(new Request.AbortJob(sim.rid(), from, job, sim.rnd.nextInt(256)));
      default -> sim.send(new Request.SignalJob(sim.rid(), from, job, sim.rnd.nextInt(20)));
    }
  }

  static void session(Simulation sim) {
    Random rnd = sim.rnd;
    Proc from = rnd.nextInt(6) == 0 ? sim.requester() : sim.scheduler();
    if (rnd.nextInt(3) == 0) {
      instantiate(sim, from);
      return;
    }
    List<Long> ids = new ArrayList<>();
    for (AllocationView a : sim.shell.core.view().allocations()) {
      ids.add(a.sessionId());
    }
    ids.add(0xFFFF_FFFFL);
    ids.add(424_242L);
    Request.SessionControl.Builder b =
        Request.SessionControl.builder(sim.rid(), from, sim.pick(ids));
    SessionOp[] ops = Simulation.randomOps(rnd);
    b.operations(rnd.nextInt(8) == 0 ? new SessionOp[0] : ops);
    if (rnd.nextInt(3) == 0) {
      b.separate(rnd.nextBoolean());
    }
    if (ops[0] == SessionOp.SIGNAL) {
      b.signal(rnd.nextInt(12));
    }
    if (ops[0] == SessionOp.EXTEND) {
      b.nodes(spareNodes(sim, rnd.nextInt(2)));
      if (rnd.nextBoolean()) {
        b.timeoutSeconds(rnd.nextInt(300));
      }
    }
    sim.send(b.build());
  }

  private static void instantiate(Simulation sim, Proc from) {
    Random rnd = sim.rnd;
    List<NodeSpec> nodes = spareNodes(sim, rnd.nextInt(3));
    Request.SessionControl.Builder b =
        Request.SessionControl.builder(sim.rid(), from, sim.nextSessionId())
            .operations(SessionOp.INSTANTIATE)
            .nodes(nodes);
    if (rnd.nextInt(3) == 0) {
      b.separate(false);
    }
    if (rnd.nextBoolean() && !nodes.isEmpty()) {
      b.apps(sim.apps());
    }
    if (rnd.nextInt(3) == 0) {
      b.timeoutSeconds((long) rnd.nextInt(600));
    }
    sim.send(b.build());
  }

  private static List<NodeSpec> spareNodes(Simulation sim, int n) {
    List<NodeSpec> spare = new ArrayList<>(sim.shell.spare());
    List<NodeSpec> out = new ArrayList<>();
    for (int i = 0; i < n && !spare.isEmpty(); i++) {
      out.add(spare.remove(sim.rnd.nextInt(spare.size())));
    }
    return out;
  }
}
