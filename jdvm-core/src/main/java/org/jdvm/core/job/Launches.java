package org.jdvm.core.job;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.Change.JobLaunched;
import org.jdvm.core.Change.ProcsEnded;
import org.jdvm.core.Change.ProcsStarted;
import org.jdvm.core.Effect.KillProcs;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.Report.LaunchFailed;
import org.jdvm.core.Report.LaunchedProc;
import org.jdvm.core.Report.ProcExited;
import org.jdvm.core.Report.ProcsLaunched;
import org.jdvm.core.RequestId;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;

/**
 * What agents report about processes: launched, failed to launch, exited. A spawn is answered with
 * its namespace once every process has been launched; a failed launch answers it with {@code
 * PMIX_ERR_JOB_FAILED_TO_LAUNCH} and kills what started. A process that exits with a non-zero code
 * or is killed by a signal ends the others, as {@code mpirun} does, unless the job is recoverable
 * ({@code PMIX_JOB_RECOVERABLE}). A job whose last process ends is queued for termination. Reports
 * about processes the core no longer counts as live are stale and ignored.
 */
public final class Launches {
  private Launches() {}

  public static void launched(ProcsLaunched report, Txn txn) {
    Job job = liveJob(report.namespace(), txn);
    if (job == null) {
      return;
    }
    List<LaunchedProc> started = new ArrayList<>();
    for (LaunchedProc p : report.procs()) {
      ProcRecord proc = job.proc(p.rank());
      if (proc != null
          && proc.state() == ProcRecord.State.PLACED
          && proc.node().equals(report.node())) {
        started.add(p);
      }
    }
    if (started.isEmpty()) {
      return;
    }
    txn.change(new ProcsStarted(job.namespace(), started));
    if (job.state() == Job.State.ABORTING) {
      txn.effect(new KillProcs(report.node(), job.namespace(), ranks(started)));
    }
    completeLaunch(job, txn);
  }

  public static void failed(LaunchFailed report, Txn txn) {
    Job job = liveJob(report.namespace(), txn);
    if (job == null) {
      return;
    }
    List<Integer> failed = new ArrayList<>();
    for (int rank : report.ranks()) {
      ProcRecord proc = job.proc(rank);
      if (proc != null
          && proc.state() == ProcRecord.State.PLACED
          && proc.node().equals(report.node())) {
        failed.add(rank);
      }
    }
    if (failed.isEmpty()) {
      return;
    }
    txn.change(new ProcsEnded(job.namespace(), failed, ProcEnd.FAILED));
    // The agent's own status is more precise (e.g. PMIX_ERR_JOB_EXE_NOT_FOUND) when it is an error.
    int status = report.status() < 0 ? report.status() : PmixStatus.ERR_JOB_FAILED_TO_LAUNCH;
    Aborts.abort(job, status, txn);
    if (job.liveProcs() == 0) {
      txn.terminateLater(job);
    }
  }

  public static void exited(ProcExited report, Txn txn) {
    Job job = liveJob(report.namespace(), txn);
    ProcRecord proc = job == null ? null : job.proc(report.rank());
    if (proc == null || !proc.live()) {
      return;
    }
    if (proc.state() == ProcRecord.State.PLACED) {
      txn.change(new ProcsStarted(job.namespace(), List.of(new LaunchedProc(proc.rank(), 0))));
    }
    ProcEnd end = ProcEnd.exited(report.exitCode(), report.signal());
    txn.change(new ProcsEnded(job.namespace(), List.of(proc.rank()), end));
    if (report.usage() != null) {
      txn.change(new Change.ProcUsed(job.namespace(), proc.rank(), report.usage()));
    }
    if (end.abnormal() && !job.recoverable() && job.liveProcs() > 0) {
      Aborts.abortFromWithin(job, JobStatuses.status(end), null, txn);
    } else {
      completeLaunch(job, txn);
    }
    if (job.liveProcs() == 0) {
      txn.terminateLater(job);
    }
  }

  /** Answers the spawn once every process of a launching job has started. */
  private static void completeLaunch(Job job, Txn txn) {
    if (job.state() != Job.State.LAUNCHING || job.startedProcs() < job.size()) {
      return;
    }
    RequestId replyTo = job.replyTo();
    txn.change(new JobLaunched(job.namespace()));
    JobTimeouts.launched(job, txn);
    List<Info> infos = new ArrayList<>(job.replyInfos());
    infos.add(Info.of(PmixKeys.NSPACE, Value.string(job.namespace())));
    txn.effect(new Reply(replyTo, PmixStatus.SUCCESS, infos));
  }

  private static Job liveJob(String namespace, Txn txn) {
    Job job = txn.state().jobs().get(namespace);
    return job == null || !job.live() || job.size() == 0 ? null : job;
  }

  private static List<Integer> ranks(List<LaunchedProc> procs) {
    List<Integer> ranks = new ArrayList<>(procs.size());
    for (LaunchedProc p : procs) {
      ranks.add(p.rank());
    }
    return ranks;
  }
}
