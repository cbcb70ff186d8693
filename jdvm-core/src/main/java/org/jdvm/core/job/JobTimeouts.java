package org.jdvm.core.job;

import java.util.List;
import org.jdvm.core.Change.JobDeadlineSet;
import org.jdvm.core.Outcome;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;

/**
 * Jobs' time limits ({@code PMIX_JOB_TIMEOUT}, {@code mpirun --timeout}, docs/cli.md): armed when
 * the core accepts the spawn, kept in the state (so journaled, and a restarted controller keeps
 * them), and at a tick at or past one the job is ended as a terminate ends it, with {@code
 * PMIX_ERR_TIMEOUT} as its status. {@code PMIX_SPAWN_TIMEOUT} limits the launch the same way: a job
 * not launched in time is ended, its spawn answered {@code PMIX_ERR_TIMEOUT}. Time arrives with
 * each command, as for sessions' limits.
 */
public final class JobTimeouts {
  private JobTimeouts() {}

  /**
   * Arms the job's time limit from its apps' info (the endpoint puts the job-level attributes in
   * the first app's; the smallest of each wins): {@code PMIX_JOB_TIMEOUT} seconds from now, or
   * sooner {@code PMIX_SPAWN_TIMEOUT} seconds from now while the job is launching ({@link
   * #launched} moves it on).
   */
  public static void arm(String namespace, List<App> apps, Txn txn) {
    long limit =
        Math.min(seconds(apps, PmixKeys.JOB_TIMEOUT), seconds(apps, PmixKeys.SPAWN_TIMEOUT));
    if (limit != Long.MAX_VALUE) {
      txn.change(new JobDeadlineSet(namespace, after(txn.nowNs(), limit)));
    }
  }

  /**
   * Every process started: a launch time limit ({@code PMIX_SPAWN_TIMEOUT}) no longer applies, so
   * the job's deadline becomes its {@code PMIX_JOB_TIMEOUT} from the spawn, or none.
   */
  static void launched(Job job, Txn txn) {
    long spawn = seconds(job.apps(), PmixKeys.SPAWN_TIMEOUT);
    if (spawn == Long.MAX_VALUE || job.deadlineNs() == null) {
      return;
    }
    long run = seconds(job.apps(), PmixKeys.JOB_TIMEOUT);
    long armedAt = job.deadlineNs() - Math.min(spawn, run) * NS;
    Long next = run == Long.MAX_VALUE ? null : after(armedAt, run);
    if (!java.util.Objects.equals(next, job.deadlineNs())) {
      txn.change(new JobDeadlineSet(job.namespace(), next));
    }
  }

  private static final long NS = 1_000_000_000L;

  /** The smallest positive whole-seconds {@code key} in the apps' info, else MAX_VALUE. */
  private static long seconds(List<App> apps, String key) {
    long seconds = Long.MAX_VALUE;
    for (App a : apps == null ? List.<App>of() : apps) {
      for (Info i : a.info()) {
        Value v = i.value();
        if (i.key().equals(key)
            && Value.isIntegerType(v.type())
            && v.type() != DataType.BOOL
            && v.asLong() > 0
            && v.asLong() < Long.MAX_VALUE / NS) {
          seconds = Math.min(seconds, v.asLong());
        }
      }
    }
    return seconds;
  }

  private static long after(long nowNs, long seconds) {
    long at = nowNs + seconds * NS;
    return at < nowNs ? Long.MAX_VALUE - 1 : at;
  }

  /** Ends every live job whose time limit has passed, earliest first. */
  public static void tick(Txn txn) {
    State state = txn.state();
    for (Job j = state.jobs().earliestDeadline();
        j != null && j.deadlineNs() <= txn.nowNs();
        j = state.jobs().earliestDeadline()) {
      txn.change(new JobDeadlineSet(j.namespace(), null));
      Aborts.abort(j, PmixStatus.ERR_TIMEOUT, txn);
    }
  }

  /** The next job's time limit, or {@link Outcome#NO_DEADLINE}. */
  public static long next(State state) {
    Job j = state.jobs().earliestDeadline();
    return j == null ? Outcome.NO_DEADLINE : j.deadlineNs();
  }
}
