package org.jdvm.core.alloc;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/**
 * Why a PMIX_ALLOC_RELEASE was refused, in check order (decisions.md #7, #8). A loan is a request
 * to the scheduler, so it meets the pending-asks limit ({@link
 * org.jdvm.core.OverLimit#PENDING_ASKS}) after every check here.
 */
public enum ReleaseRejection implements Rejection {
  /**
   * A negative count, a lend time not in 1..{@link org.jdvm.core.Limits#MAX_SECONDS}, a repeated
   * node, both a count and a list, or a bare count from the scheduler (which owns every allocation,
   * so "my newest nodes" names nothing).
   */
  BAD_NODE_REQUEST(PmixStatus.ERR_BAD_PARAM),
  /** Neither an allocation, nor nodes, nor a count. */
  NOTHING_NAMED(PmixStatus.ERR_BAD_PARAM),
  /** The PMIX_ALLOC_ID or PMIX_ALLOC_REQ_ID names no allocation. */
  ALLOCATION_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /** A named node is not in the DVM. */
  NODE_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /** A named node is in no allocation, or not in the one the request named. */
  NODE_NOT_ALLOCATED(PmixStatus.ERR_NOT_FOUND),
  /** The requester does not own an allocation the nodes belong to. */
  NOT_OWNER(PmixStatus.ERR_NO_PERMISSIONS),
  /** The count is larger than the nodes that may be released. */
  COUNT_TOO_LARGE(PmixStatus.ERR_BAD_PARAM),
  /** A selected node is claimed by a pending loan. */
  NODE_BUSY(PmixStatus.ERR_RESOURCE_BUSY),
  /** A loan spans more than one allocation; each allocation lends and reacquires its own. */
  LEND_SPANS_ALLOCATIONS(PmixStatus.ERR_BAD_PARAM),
  /** A start-up node cannot be lent: the scheduler does not own it. */
  NOT_LENDABLE(PmixStatus.ERR_BAD_PARAM);

  private final int status;

  ReleaseRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
