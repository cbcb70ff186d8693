package org.jdvm.core.lifecycle;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change.NodesLeft;
import org.jdvm.core.Change.NodesRemoved;
import org.jdvm.core.Effect.NotifyProc;
import org.jdvm.core.JobKind;
import org.jdvm.core.Report.NodeLost;
import org.jdvm.core.Report.SchedulerReclaimed;
import org.jdvm.core.Report.ToolDeparted;
import org.jdvm.core.job.Aborts;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * Things that leave on their own: a tool (its departure is its namespace's termination,
 * decisions.md #11), a node (its processes are gone, and a job that lost one ends with {@code
 * PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT} unless it is recoverable; its allocation shrinks but does not
 * end, since only the triggers of spec §8.2.1.9.1 end a reservation, §8.2.1.11 #4, and the
 * allocation's requester hears {@code PMIX_EVENT_NODE_DOWN}), and an allocation the scheduler
 * reclaims (trigger 3; its child sessions go with it unless separated, decisions.md #14).
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
    List<Job> hit = new ArrayList<>();
    for (ProcRecord proc : node.residents()) {
      if (!hit.contains(proc.job())) {
        hit.add(proc.job());
      }
    }
    NodeDeparture.procsEnd(List.of(node), txn);
    for (Job job : hit) {
      // A lost process is a failed one: its job ends, as mpirun ends a job whose daemon is lost,
      // unless it asked to survive the loss of its processes (PMIX_JOB_RECOVERABLE).
      if (job.live() && !job.recoverable() && job.liveProcs() > 0) {
        Aborts.abortFromWithin(job, PmixStatus.ERR_JOB_ABORTED_BY_SYS_EVENT, null, txn);
      }
    }
    Allocation a = node.allocation();
    if (a != null) {
      txn.change(new NodesLeft(a.allocId(), List.of(node.name())));
      notifyRequester(a, node.name(), txn);
    }
    txn.change(new NodesRemoved(List.of(node.name())));
  }

  /** Tells a live requester that its allocation lost a node ({@code PMIX_EVENT_NODE_DOWN}). */
  private static void notifyRequester(Allocation a, String node, Txn txn) {
    Job requester = txn.state().jobs().get(a.requester().nspace());
    if (requester == null || !requester.live()) {
      return;
    }
    List<Info> infos = new ArrayList<>(3);
    infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(a.allocId())));
    if (a.allocReqId() != null) {
      infos.add(Info.of(PmixKeys.ALLOC_REQ_ID, Value.string(a.allocReqId())));
    }
    infos.add(Info.of(PmixKeys.HOSTNAME, Value.string(node)));
    Proc source = new Proc(txn.state().config().controllerNamespace(), 0);
    txn.effect(new NotifyProc(a.requester(), PmixStatus.EVENT_NODE_DOWN, source, infos));
  }

  public static void reclaimed(SchedulerReclaimed r, Txn txn) {
    Allocation a = txn.state().allocations().byAnyId(r.allocId());
    if (a != null) {
      AllocationEnding.reclaim(a, txn);
    }
  }
}
