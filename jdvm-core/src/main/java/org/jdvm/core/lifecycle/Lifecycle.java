package org.jdvm.core.lifecycle;

import java.util.List;
import org.jdvm.core.Change.JobRetired;
import org.jdvm.core.Change.JobTerminated;
import org.jdvm.core.Effect.NotifyProc;
import org.jdvm.core.job.JobStatuses;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.JobTable;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * Namespace termination and what it sets off (spec §8.2.1.9.2–§8.2.1.9.3; decisions.md #11, #12).
 *
 * <p>When a namespace terminates: requests still waiting to create an allocation for it are
 * cancelled; its spawner hears {@code PMIX_EVENT_JOB_END}; each allocation it owns meets its
 * disposition (NONE and DEFAULT at once; CHILD and CHILD_DEFAULT once it has no live descendant);
 * and every ancestor whose live-descendant count has just reached zero, being itself terminated,
 * lets its CHILD-flavoured allocations go. The ancestor walk is the only loop over the genealogy: a
 * termination costs O(depth), never a walk of a subtree. A session whose last job ended completes
 * if it was auto-completing or terminating.
 *
 * <p>The job's end is marked {@code PMIX_EVENT_NON_DEFAULT}, as PRRTE marks it: only a handler
 * registered for that code, or a spawn with {@code PMIX_NOTIFY_COMPLETION}, takes it, never a
 * default handler, and Open MPI's aborts on any event it is given.
 *
 * <p>docs/wireup.md "Dynamic processes" tells of the -62 this ended.
 */
public final class Lifecycle {
  private Lifecycle() {}

  /** Runs the termination worklist until the cascade settles, then applies the retention bound. */
  public static void settle(Txn txn) {
    for (Job job = txn.nextToTerminate(); job != null; job = txn.nextToTerminate()) {
      if (job.live()) {
        terminate(job, JobStatuses.status(job), JobStatuses.exitCode(job), txn);
      }
    }
    retire(txn);
  }

  /** The namespace terminates now with this status (a departing tool, or a job's last process). */
  public static void terminate(Job job, int status, int exitCode, Txn txn) {
    Asks.cancelFor(job, txn);
    Allocation primary = txn.state().allocations().bySession(job.primarySessionId());
    txn.change(new JobTerminated(job.namespace(), status, exitCode));
    notifySpawner(job, status, exitCode, txn);
    for (Allocation a : List.copyOf(job.owning())) {
      fireIfDue(a, txn);
    }
    for (Job ancestor = job.parentJob(); ancestor != null; ancestor = ancestor.parentJob()) {
      if (!ancestor.live() && ancestor.liveDescendants() == 0) {
        for (Allocation a : List.copyOf(ancestor.owning())) {
          fireIfDue(a, txn);
        }
      }
    }
    if (primary != null) {
      completeIfDone(primary, txn);
    }
  }

  /**
   * Fires the allocation's disposition if it is due: its owner has terminated, it is not detached,
   * and (for CHILD and CHILD_DEFAULT) the owner has no live descendant left. Also called when an
   * EXTEND changes the disposition or a session is re-attached after its owner ended.
   */
  public static void fireIfDue(Allocation a, Txn txn) {
    Job owner = a.ownerJob();
    if (a.detached() || owner.live()) {
      return;
    }
    if (a.inheritance().waitsForDescendants() && owner.liveDescendants() > 0) {
      return;
    }
    AllocationEnding.end(a, AllocationEnding.dispositionEnd(a), txn);
  }

  /** Ends a terminating or auto-completing session once its last job has ended. */
  public static void completeIfDone(Allocation session, Txn txn) {
    if (session.liveJobs().isEmpty() && (session.terminating() || session.autoComplete())) {
      AllocationEnding.end(session, AllocationEnding.dispositionEnd(session), txn);
    }
  }

  private static void notifySpawner(Job job, int status, int exitCode, Txn txn) {
    Proc spawner = job.spawner();
    if (spawner == null) {
      return;
    }
    Job spawnerJob = txn.state().jobs().get(spawner.nspace());
    if (spawnerJob == null || !spawnerJob.live()) {
      return;
    }
    List<Info> infos =
        List.of(
            Info.of(PmixKeys.EVENT_NON_DEFAULT, Value.bool(true)),
            Info.of(PmixKeys.EVENT_AFFECTED_PROC, Value.proc(Proc.wildcard(job.namespace()))),
            Info.of(PmixKeys.JOB_TERM_STATUS, Value.status(status)),
            Info.of(PmixKeys.EXIT_CODE, Value.integer(exitCode)));
    Proc source = new Proc(txn.state().config().controllerNamespace(), 0);
    txn.effect(new NotifyProc(spawner, PmixStatus.EVENT_JOB_END, source, infos));
  }

  private static void retire(Txn txn) {
    if (txn.state().tornDown()) {
      return;
    }
    JobTable jobs = txn.state().jobs();
    int keep = txn.state().config().retainedTerminatedJobs();
    while (jobs.retirableCount() > keep) {
      txn.change(new JobRetired(jobs.oldestRetirable().namespace()));
    }
  }
}
