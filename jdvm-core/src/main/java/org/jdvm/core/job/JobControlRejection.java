package org.jdvm.core.job;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/** Why a signal or terminate request was refused, in check order. */
public enum JobControlRejection implements Rejection {
  /** The signal number is not a signal. */
  BAD_SIGNAL(PmixStatus.ERR_BAD_PARAM),
  /** No live job has that namespace. */
  JOB_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /** The namespace is a tool or the scheduler, which have no processes the DVM runs. */
  NOT_AN_APPLICATION(PmixStatus.ERR_BAD_PARAM),
  /** Only the job itself, one of its ancestors, or the scheduler may do this. */
  NOT_AUTHORIZED(PmixStatus.ERR_NO_PERMISSIONS);

  private final int status;

  JobControlRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
