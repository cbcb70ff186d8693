package org.jdvm.core.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Change.JobAborting;
import org.jdvm.core.Effect.KillProcs;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.Effect.SignalProcs;
import org.jdvm.core.JobKind;
import org.jdvm.core.RequestId;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.Txn;

/**
 * Ending a job from outside: a failed launch, a terminate request, a session terminating. The job
 * is marked aborting with its reason, a spawn still waiting for its reply is answered with that
 * reason, and its running processes are killed; processes that report launched later are killed
 * too. The job terminates when its last process is reported gone.
 */
public final class Aborts {
  private Aborts() {}

  public static void abort(Job job, int status, Txn txn) {
    if (!job.live() || job.kind() != JobKind.APPLICATION || job.state() == Job.State.ABORTING) {
      return;
    }
    RequestId pending = job.replyTo();
    txn.change(new JobAborting(job.namespace(), status));
    if (pending != null) {
      txn.effect(new Reply(pending, status, List.of()));
    }
    killRunning(job, txn);
  }

  /** Kills every running process of the job, one effect per node. */
  public static void killRunning(Job job, Txn txn) {
    for (Map.Entry<String, List<Integer>> e : runningByNode(job).entrySet()) {
      txn.effect(new KillProcs(e.getKey(), job.namespace(), e.getValue()));
    }
  }

  /** Signals every running process of the job, one effect per node. */
  public static void signalRunning(Job job, int signal, Txn txn) {
    for (Map.Entry<String, List<Integer>> e : runningByNode(job).entrySet()) {
      txn.effect(new SignalProcs(e.getKey(), job.namespace(), e.getValue(), signal));
    }
  }

  private static Map<String, List<Integer>> runningByNode(Job job) {
    Map<String, List<Integer>> byNode = new LinkedHashMap<>();
    for (ProcRecord p : job.procs()) {
      if (p.state() == ProcRecord.State.RUNNING) {
        byNode.computeIfAbsent(p.node(), n -> new ArrayList<>()).add(p.rank());
      }
    }
    return byNode;
  }
}
