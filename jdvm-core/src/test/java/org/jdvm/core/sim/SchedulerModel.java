package org.jdvm.core.sim;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.Command;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Report;
import org.jdvm.pmix.PmixStatus;

/**
 * The scheduler of the simulation: a spare pool of nodes. It grants what it has, refuses a required
 * request it cannot satisfy, queues a not-required one (and later grants or drops it), accepts or
 * refuses loans, and now and then grants a node that is not its to give.
 */
final class SchedulerModel {
  private SchedulerModel() {}

  static Command answer(Simulation sim, Effect.AskScheduler ask) {
    var rnd = sim.rnd;
    if (ask.kind() == AskKind.LEND) {
      return rnd.nextInt(4) == 0
          ? new Report.SchedulerRefused(ask.askId(), PmixStatus.ERR_NOT_SUPPORTED)
          : granted(ask, List.of());
    }
    List<NodeSpec> nodes = pickNodes(sim, ask);
    if (nodes == null) {
      if (ask.required()) {
        return new Report.SchedulerRefused(ask.askId(), PmixStatus.ERR_OUT_OF_RESOURCE);
      }
      return rnd.nextInt(3) == 0
          ? new Report.SchedulerCancelled(ask.askId())
          : new Report.SchedulerQueued(ask.askId());
    }
    if (rnd.nextInt(20) == 0) {
      String taken = sim.pick(sim.shell.liveNodes(true));
      nodes = new ArrayList<>(nodes);
      nodes.add(new NodeSpec(taken, 1));
    }
    return granted(ask, nodes);
  }

  private static Report.SchedulerGranted granted(Effect.AskScheduler ask, List<NodeSpec> nodes) {
    String schedId =
        ask.kind() == AskKind.NEW && ask.askId() % 3 == 0 ? "job-" + ask.askId() : null;
    Long time = ask.timeLimitSeconds();
    return new Report.SchedulerGranted(ask.askId(), nodes, schedId, time);
  }

  /** The nodes to grant, or {@code null} if the scheduler cannot satisfy the ask now. */
  private static List<NodeSpec> pickNodes(Simulation sim, Effect.AskScheduler ask) {
    List<NodeSpec> spare = sim.shell.spare();
    List<NodeSpec> out = new ArrayList<>();
    for (String name : ask.nodeNames()) {
      NodeSpec s = sim.shell.universe.get(name);
      boolean lentBack = ask.kind() == AskKind.REAQUIRE && sim.shell.lent.contains(name);
      if (s == null || !spare.contains(s) && !lentBack) {
        return null;
      }
      out.add(s);
    }
    for (int i = 0; i < ask.nodeCount(); i++) {
      spare.removeAll(out);
      if (spare.isEmpty()) {
        return null;
      }
      out.add(spare.get(sim.rnd.nextInt(spare.size())));
    }
    return out;
  }
}
