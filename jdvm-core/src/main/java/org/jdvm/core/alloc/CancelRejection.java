package org.jdvm.core.alloc;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/** Why a PMIX_ALLOC_REQ_CANCEL was refused, in check order (decisions.md #4, #7). */
public enum CancelRejection implements Rejection {
  /** No waiting request matches. */
  NOTHING_PENDING(PmixStatus.ERR_NOT_FOUND),
  /** A matching request is neither the requester's, nor for a namespace or allocation it owns. */
  NOT_OWNER(PmixStatus.ERR_NO_PERMISSIONS);

  private final int status;

  CancelRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
