package org.jdvm.core.lifecycle;

import java.util.List;
import org.jdvm.core.Change.NodesLeft;
import org.jdvm.core.Change.NodesRemoved;
import org.jdvm.core.JobKind;
import org.jdvm.core.Report.NodeLost;
import org.jdvm.core.Report.SchedulerReclaimed;
import org.jdvm.core.Report.ToolDeparted;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * Things that leave on their own: a tool (its departure is its namespace's termination,
 * decisions.md #11), a node (its processes are gone; its allocation shrinks but does not end, since
 * only the triggers of spec §8.2.1.9.1 end a reservation, §8.2.1.11 #4), and an allocation the
 * scheduler reclaims (trigger 3; its child sessions go with it unless separated, decisions.md #14).
 */
public final class Departures {
  private Departures() {}

  public static void toolDeparted(ToolDeparted r, Txn txn) {
    Job job = txn.state().jobs().get(r.namespace());
    if (job == null || !job.live() || job.kind() == JobKind.APPLICATION) {
      return;
    }
    int status = r.connectionLost() ? PmixStatus.ERR_LOST_CONNECTION : PmixStatus.SUCCESS;
    Lifecycle.terminate(job, status, 0, txn);
  }

  public static void nodeLost(NodeLost r, Txn txn) {
    Node node = txn.state().nodes().get(r.node());
    if (node == null) {
      return;
    }
    if (node.controller()) {
      throw new IllegalArgumentException("the controller's own node cannot be lost: " + r.node());
    }
    NodeDeparture.procsEnd(List.of(node), txn);
    Allocation a = node.allocation();
    if (a != null) {
      txn.change(new NodesLeft(a.allocId(), List.of(node.name())));
    }
    txn.change(new NodesRemoved(List.of(node.name())));
  }

  public static void reclaimed(SchedulerReclaimed r, Txn txn) {
    Allocation a = txn.state().allocations().byAnyId(r.allocId());
    if (a != null) {
      AllocationEnding.reclaim(a, txn);
    }
  }
}
