package org.jdvm.core.job;

import org.jdvm.core.ProcEnd;
import org.jdvm.core.state.Job;
import org.jdvm.pmix.PmixStatus;

/**
 * A job's termination status and exit code, from how its processes ended: the first process that
 * did not exit cleanly decides (as in PRRTE), unless the job was aborted, whose reason wins; the
 * exit code of a job one of its processes aborted ({@code PMIx_Abort}) is the code it gave, as
 * {@code mpirun} exits with {@code MPI_Abort}'s code (docs/wireup.md §c.8).
 */
public final class JobStatuses {
  private JobStatuses() {}

  public static int status(Job job) {
    if (job.state() == Job.State.ABORTING) {
      return job.status();
    }
    ProcEnd first = job.firstAbnormal();
    return first == null ? PmixStatus.SUCCESS : status(first);
  }

  public static int exitCode(Job job) {
    if (job.abortExitCode() != null) {
      return job.abortExitCode();
    }
    ProcEnd first = job.firstAbnormal();
    return first == null ? 0 : first.shellExitCode();
  }

  public static int status(ProcEnd end) {
    return switch (end.cause()) {
      case FAILED_TO_START -> PmixStatus.ERR_JOB_FAILED_TO_LAUNCH;
      case NODE_DEPARTED -> PmixStatus.ERR_JOB_ABORTED_BY_SYS_EVENT;
      case EXITED ->
          end.signal() > 0 ? PmixStatus.ERR_JOB_ABORTED_BY_SIG : PmixStatus.ERR_EXIT_NONZERO_TERM;
    };
  }
}
