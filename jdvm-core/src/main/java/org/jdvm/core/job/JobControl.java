package org.jdvm.core.job;

import java.util.List;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.JobKind;
import org.jdvm.core.Request.AbortJob;
import org.jdvm.core.Request.SignalJob;
import org.jdvm.core.Request.TerminateJob;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Signal;

/**
 * Signal, terminate or abort a job. Authorised for the job itself, any of its ancestors (a job is
 * responsible for what it spawned, transitively), and the scheduler; checking the ancestry costs
 * O(depth). Terminating kills the job's processes; the job terminates when they are reported gone.
 */
public final class JobControl {
  private JobControl() {}

  public static void signal(SignalJob request, Txn txn) {
    Job requester = Requesters.job(txn.state(), request.requester());
    JobControlRejection why =
        !Signal.isSignalNumber(request.signal())
            ? JobControlRejection.BAD_SIGNAL
            : check(requester, request.namespace(), txn);
    if (why != null) {
      txn.reject(request.requestId(), why);
      return;
    }
    Aborts.signalRunning(txn.state().jobs().get(request.namespace()), request.signal(), txn);
    txn.effect(new Reply(request.requestId(), PmixStatus.SUCCESS, List.of()));
  }

  public static void terminate(TerminateJob request, Txn txn) {
    Job requester = Requesters.job(txn.state(), request.requester());
    JobControlRejection why = check(requester, request.namespace(), txn);
    if (why != null) {
      txn.reject(request.requestId(), why);
      return;
    }
    Job job = txn.state().jobs().get(request.namespace());
    Aborts.abort(job, PmixStatus.ERR_JOB_CANCELED, txn);
    txn.effect(new Reply(request.requestId(), PmixStatus.SUCCESS, List.of()));
  }

  /**
   * {@code PMIx_Abort}: the job is ended with {@code PMIX_ERR_JOB_ABORTED} (PRRTE's status for a
   * process that called abort) and the caller's code as its exit code.
   */
  public static void abort(AbortJob request, Txn txn) {
    Job requester = Requesters.job(txn.state(), request.requester());
    JobControlRejection why = check(requester, request.namespace(), txn);
    if (why != null) {
      txn.reject(request.requestId(), why);
      return;
    }
    Job job = txn.state().jobs().get(request.namespace());
    Aborts.abortFromWithin(job, PmixStatus.ERR_JOB_ABORTED, request.exitCode(), txn);
    txn.effect(new Reply(request.requestId(), PmixStatus.SUCCESS, List.of()));
  }

  private static JobControlRejection check(Job requester, String namespace, Txn txn) {
    Job job = txn.state().jobs().get(namespace);
    if (job == null || !job.live()) {
      return JobControlRejection.JOB_NOT_FOUND;
    }
    if (job.kind() != JobKind.APPLICATION) {
      return JobControlRejection.NOT_AN_APPLICATION;
    }
    if (requester.kind() != JobKind.SCHEDULER && !job.hasAncestorOrSelf(requester.namespace())) {
      return JobControlRejection.NOT_AUTHORIZED;
    }
    return null;
  }
}
