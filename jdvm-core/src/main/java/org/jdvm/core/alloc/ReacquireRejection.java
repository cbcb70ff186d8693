package org.jdvm.core.alloc;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/**
 * Why a PMIX_ALLOC_REAQUIRE was refused, in check order (decisions.md #8); then the limits ({@link
 * org.jdvm.core.OverLimit}): the lent nodes must fit in the DVM again, and the requester may have
 * one more ask waiting.
 */
public enum ReacquireRejection implements Rejection {
  /** Neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID names the allocation. */
  NOTHING_NAMED(PmixStatus.ERR_BAD_PARAM),
  /** The id names no allocation. */
  ALLOCATION_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /** The requester does not own the allocation. */
  NOT_OWNER(PmixStatus.ERR_NO_PERMISSIONS),
  /** The allocation has lent nothing. */
  NOTHING_LENT(PmixStatus.ERR_NOT_FOUND);

  private final int status;

  ReacquireRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
