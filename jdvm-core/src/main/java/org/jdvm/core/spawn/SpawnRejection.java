package org.jdvm.core.spawn;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/**
 * Why a spawn was refused, in check order (spec §8.2.1.8; decisions.md #15). The limits ({@link
 * org.jdvm.core.OverLimit}: apps and processes per spawn, live processes) are checked right after
 * {@link #NO_PROCESSES}.
 */
public enum SpawnRejection implements Rejection {
  /** No app, or an app without processes. */
  NO_PROCESSES(PmixStatus.ERR_BAD_PARAM),
  /** A PMIX_SPAWN_TARGET entry (or the single-session attribute) resolves to no session. */
  TARGET_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /**
   * A targeted reservation is not owned by the requester (and the requester is not the scheduler).
   */
  TARGET_NOT_OWNED(PmixStatus.ERR_NO_PERMISSIONS),
  /** A targeted session is terminating and takes no new job. */
  TARGET_TERMINATING(PmixStatus.ERR_NOT_AVAILABLE),
  /** The candidate nodes have fewer free slots than the job has processes; nothing is placed. */
  DOES_NOT_FIT(PmixStatus.ERR_OUT_OF_RESOURCE);

  private final int status;

  SpawnRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
