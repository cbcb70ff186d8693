package org.jdvm.core.lifecycle;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AllocationEnd;
import org.jdvm.core.Change.AllocationEnded;
import org.jdvm.core.Change.NodesLeft;
import org.jdvm.core.Change.NodesRemoved;
import org.jdvm.core.Effect.HandBackNodes;
import org.jdvm.core.Effect.JobStatus;
import org.jdvm.core.Effect.NotifyProc;
import org.jdvm.core.Effect.ReportSessionComplete;
import org.jdvm.core.Effect.ShrinkNodes;
import org.jdvm.core.job.JobStatuses;
import org.jdvm.core.query.NodeView.Origin;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * The end of an allocation (spec §8.2.1.9): release, unreserve, or reclaim.
 *
 * <p>Release and reclaim send the scheduler's nodes out of the DVM (their processes die with them:
 * the existing shrink behaviour, spec §8.2.1.9.4), while start-up nodes, the controller's among
 * them, revert to the default session (decisions.md #7); a release also hands the nodes back.
 * Unreserve keeps every node in the DVM and only clears the reservation: no process is killed.
 * Either way the allocation itself never kills a job; only departing nodes do.
 */
public final class AllocationEnding {
  private AllocationEnding() {}

  /** Ends the allocation, unless a cascade already ended it in this command. */
  public static void end(Allocation a, AllocationEnd how, Txn txn) {
    if (txn.state().allocations().byAllocId(a.allocId()) != a) {
      return;
    }
    Asks.cancelFor(a, txn);
    List<Node> leaving = new ArrayList<>();
    for (Node n : a.nodes()) {
      if (leavesDvm(how, n)) {
        leaving.add(n);
      }
    }
    List<String> members = NodeDeparture.names(new ArrayList<>(a.nodes()));
    NodeDeparture.procsEnd(leaving, txn);
    if (!members.isEmpty()) {
      txn.change(new NodesLeft(a.allocId(), members));
    }
    if (!leaving.isEmpty()) {
      List<String> names = NodeDeparture.names(leaving);
      txn.change(new NodesRemoved(names));
      txn.effect(new ShrinkNodes(names));
      if (how == AllocationEnd.RELEASED) {
        txn.effect(new HandBackNodes(a.allocId(), a.schedulerAllocId(), names, null));
      }
    }
    if (a.schedulerSession()) {
      txn.effect(completionReport(a));
    }
    txn.change(new AllocationEnded(a.allocId(), how));
    notifyRequester(a, how, txn);
  }

  /**
   * Tells the allocation's requester, and only it, that the allocation ended and how, with {@code
   * PMIX_EVENT_SESSION_END}: the event a tool holding an allocation (e.g. {@code jdvm alloc new --
   * CMD}) waits for. Directed like the timeout warning (spec §8.2.1.9.5); a teardown tells nobody,
   * since every connection closes with the DVM.
   */
  private static void notifyRequester(Allocation a, AllocationEnd how, Txn txn) {
    if (how == AllocationEnd.TORN_DOWN) {
      return;
    }
    Job requester = txn.state().jobs().get(a.requester().nspace());
    if (requester == null || !requester.live()) {
      return;
    }
    List<Info> infos = new ArrayList<>(4);
    infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(a.allocId())));
    if (a.allocReqId() != null) {
      infos.add(Info.of(PmixKeys.ALLOC_REQ_ID, Value.string(a.allocReqId())));
    }
    infos.add(Info.of(PmixKeys.SESSION_ID, Value.uint32(a.sessionId())));
    infos.add(Info.of(JdvmProtocol.ALLOCATION_END, Value.string(how.name())));
    Proc source = new Proc(txn.state().config().controllerNamespace(), 0);
    txn.effect(new NotifyProc(a.requester(), PmixStatus.EVENT_SESSION_END, source, infos));
  }

  /**
   * The scheduler terminates a session (trigger 3): its children end with it unless they were
   * separated (decisions.md #14), and its scheduler nodes leave the DVM.
   */
  public static void reclaim(Allocation a, Txn txn) {
    for (Allocation child : List.copyOf(a.children())) {
      if (!child.separated()) {
        reclaim(child, txn);
      }
    }
    end(a, AllocationEnd.RECLAIMED, txn);
  }

  /** What a disposition or a session's completion does: NONE/CHILD release, else unreserve. */
  public static AllocationEnd dispositionEnd(Allocation a) {
    return a.inheritance().returnsToScheduler() ? AllocationEnd.RELEASED : AllocationEnd.UNRESERVED;
  }

  static boolean leavesDvm(AllocationEnd how, Node n) {
    return how != AllocationEnd.UNRESERVED && n.origin() == Origin.SCHEDULER && !n.controller();
  }

  /**
   * {@code PMIX_SESSION_COMPLETE} for the scheduler: every job that ran in the session. A job whose
   * processes have all ended but whose termination is still queued in this command is reported with
   * the status it is about to get; one still running on nodes that stayed is in progress.
   */
  static ReportSessionComplete completionReport(Allocation a) {
    List<JobStatus> jobs = new ArrayList<>(a.history());
    for (Job j : a.liveJobs()) {
      int status = j.liveProcs() == 0 ? JobStatuses.status(j) : PmixStatus.OPERATION_IN_PROGRESS;
      jobs.add(new JobStatus(j.namespace(), status, JobStatuses.exitCode(j)));
    }
    return new ReportSessionComplete(a.sessionId(), a.allocId(), jobs);
  }
}
