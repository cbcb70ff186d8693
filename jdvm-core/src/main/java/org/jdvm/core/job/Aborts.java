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
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;

/**
 * Ending a job before its processes end by themselves: a failed launch, a terminate request, a
 * session terminating, a {@code PMIx_Abort}, or one of its processes failing (as {@code mpirun}
 * does; docs/wireup.md §c.8). The job is marked aborting with its reason, and its running processes
 * are killed; processes that report launched later are killed too. The job terminates when its last
 * process is reported gone. A job already aborting keeps its first reason.
 *
 * <p>A spawn still waiting for its reply is answered with the reason when the job never ran (a
 * failed launch, a terminate), but with the job's namespace when one of its processes ran and ended
 * it: the job existed, and its spawner learns how it ended from its end.
 */
public final class Aborts {
  private Aborts() {}

  public static void abort(Job job, int status, Txn txn) {
    if (!abortable(job)) {
      return;
    }
    RequestId pending = job.replyTo();
    txn.change(new JobAborting(job.namespace(), status));
    if (pending != null) {
      txn.effect(new Reply(pending, status, List.of()));
    }
    killRunning(job, txn);
  }

  /**
   * One of the job's processes ended it: it failed ({@code status} says how), or it called {@code
   * PMIx_Abort} ({@code exitCode} is the code it gave, else {@code null}).
   */
  public static void abortFromWithin(Job job, int status, Integer exitCode, Txn txn) {
    if (!abortable(job)) {
      return;
    }
    RequestId pending = job.replyTo();
    txn.change(new JobAborting(job.namespace(), status, exitCode));
    if (pending != null) {
      List<Info> infos = new ArrayList<>(job.replyInfos());
      infos.add(Info.of(PmixKeys.NSPACE, Value.string(job.namespace())));
      txn.effect(new Reply(pending, PmixStatus.SUCCESS, infos));
    }
    killRunning(job, txn);
  }

  private static boolean abortable(Job job) {
    return job.live() && job.kind() == JobKind.APPLICATION && job.state() != Job.State.ABORTING;
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
