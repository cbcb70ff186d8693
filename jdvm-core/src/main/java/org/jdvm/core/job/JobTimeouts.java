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
 * PMIX_ERR_TIMEOUT} as its status. Time arrives with each command, as for sessions' limits.
 */
public final class JobTimeouts {
  private JobTimeouts() {}

  /**
   * Arms the job's time limit if one of its apps' info carries {@code PMIX_JOB_TIMEOUT} (the
   * endpoint puts the job-level attribute there; the smallest wins), in seconds from now.
   */
  public static void arm(String namespace, List<App> apps, Txn txn) {
    long seconds = Long.MAX_VALUE;
    for (App a : apps) {
      for (Info i : a.info()) {
        Value v = i.value();
        if (i.key().equals(PmixKeys.JOB_TIMEOUT)
            && Value.isIntegerType(v.type())
            && v.type() != DataType.BOOL
            && v.asLong() > 0) {
          seconds = Math.min(seconds, v.asLong());
        }
      }
    }
    if (seconds == Long.MAX_VALUE) {
      return;
    }
    long ns = seconds > Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : seconds * 1_000_000_000L;
    long at = txn.nowNs() + ns;
    txn.change(new JobDeadlineSet(namespace, at < txn.nowNs() ? Long.MAX_VALUE - 1 : at));
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
