package org.jdvm.core.lifecycle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Change.TornDown;
import org.jdvm.core.Effect.CancelAsk;
import org.jdvm.core.Effect.HandBackNodes;
import org.jdvm.core.Effect.JobStatus;
import org.jdvm.core.Effect.KillProcs;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.Effect.ReportSessionComplete;
import org.jdvm.core.Effect.ShrinkNodes;
import org.jdvm.core.job.JobStatuses;
import org.jdvm.core.query.NodeView.Origin;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Ask;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * The DVM tears down (spec §8.2.1.9.1 trigger 2): every session ends, the scheduler's nodes go back
 * to it, every process is killed, and every request still waiting is answered {@code
 * PMIX_ERR_UNREACH}. Afterwards every request is refused with that status.
 */
public final class DvmTeardown {
  private DvmTeardown() {}

  /** The status of the requests a teardown leaves unanswered. */
  public static final int STATUS = PmixStatus.ERR_UNREACH;

  public static void teardown(Txn txn) {
    State state = txn.state();
    if (state.tornDown()) {
      return;
    }
    for (Ask ask : state.asks().all()) {
      txn.effect(new CancelAsk(ask.askId()));
      txn.effect(new Reply(ask.replyTo(), STATUS, List.of()));
    }
    for (Job job : state.jobs().all()) {
      if (job.live() && job.replyTo() != null) {
        txn.effect(new Reply(job.replyTo(), STATUS, List.of()));
      }
    }
    killOnController(state, txn);
    txn.effect(new ShrinkNodes(nonControllerNodes(state)));
    for (Allocation a : state.allocations().all()) {
      handBack(a, txn);
    }
    txn.change(new TornDown());
  }

  /** The controller's node stays up, so its processes are killed one by one. */
  private static void killOnController(State state, Txn txn) {
    Node controller = state.nodes().get(state.config().controllerNode());
    Map<String, List<Integer>> byJob = new LinkedHashMap<>();
    for (ProcRecord proc : controller.residents()) {
      byJob.computeIfAbsent(proc.job().namespace(), j -> new ArrayList<>()).add(proc.rank());
    }
    for (Map.Entry<String, List<Integer>> e : byJob.entrySet()) {
      txn.effect(new KillProcs(controller.name(), e.getKey(), e.getValue()));
    }
  }

  private static List<String> nonControllerNodes(State state) {
    List<String> names = new ArrayList<>();
    for (Node n : state.nodes().all()) {
      if (!n.controller()) {
        names.add(n.name());
      }
    }
    return names;
  }

  private static void handBack(Allocation a, Txn txn) {
    List<String> scheduler = new ArrayList<>();
    for (Node n : a.nodes()) {
      if (n.origin() == Origin.SCHEDULER) {
        scheduler.add(n.name());
      }
    }
    if (!scheduler.isEmpty()) {
      txn.effect(new HandBackNodes(a.allocId(), a.schedulerAllocId(), scheduler, null));
    }
    if (a.schedulerSession()) {
      List<JobStatus> jobs = new ArrayList<>(a.history());
      for (Job j : a.liveJobs()) {
        jobs.add(new JobStatus(j.namespace(), Job.TORN_DOWN_STATUS, JobStatuses.exitCode(j)));
      }
      txn.effect(new ReportSessionComplete(a.sessionId(), a.allocId(), jobs));
    }
  }
}
