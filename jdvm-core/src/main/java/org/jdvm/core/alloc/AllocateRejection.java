package org.jdvm.core.alloc;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/**
 * Why a NEW or EXTEND allocation request was refused, in check order (spec §8.2.1.8; decisions.md
 * #1–#6); then the limits ({@link org.jdvm.core.OverLimit}): nodes per request and in the DVM, one
 * more allocation for a NEW, one more ask if the request goes to the scheduler. A refused request
 * reserves nothing and asks the scheduler nothing.
 */
public enum AllocateRejection implements Rejection {
  /** PMIX_ALLOC_INHERITANCE is not 1–4, or not DEFAULT when the DVM runs without it. */
  INHERITANCE_NOT_SUPPORTED(PmixStatus.ERR_NOT_SUPPORTED),
  /** An application named PMIX_ALLOC_TARGET (spec table, last row; decisions.md #1). */
  TARGET_FROM_APPLICATION(PmixStatus.ERR_NO_PERMISSIONS),
  /** PMIX_ALLOC_TARGET names no live namespace: an allocation nobody could own or end. */
  TARGET_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /**
   * A negative count, a time or warning not in 0..{@link org.jdvm.core.Limits#MAX_SECONDS}, a
   * repeated or empty node name, or both a count and a node list.
   */
  BAD_NODE_REQUEST(PmixStatus.ERR_BAD_PARAM),
  /** NEW without nodes, or EXTEND without nodes, time, warning or inheritance (decisions.md #4). */
  NOTHING_REQUESTED(PmixStatus.ERR_BAD_PARAM),
  /** EXTEND carries neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID. */
  EXTEND_WITHOUT_ID(PmixStatus.ERR_BAD_PARAM),
  /** EXTEND names an allocation that does not exist. */
  EXTEND_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /** EXTEND names an allocation the requester does not own. */
  EXTEND_NOT_OWNER(PmixStatus.ERR_NO_PERMISSIONS),
  /** NEW asks for a PMIX_ALLOC_ID that a live or pending allocation already has. */
  ALLOC_ID_IN_USE(PmixStatus.ERR_EXISTS),
  /** NEW carries a PMIX_ALLOC_REQ_ID that a live or pending allocation already has. */
  REQ_ID_IN_USE(PmixStatus.ERR_EXISTS),
  /** A named node is already in an allocation or claimed by a pending request (decisions.md #5). */
  NODE_UNAVAILABLE(PmixStatus.ERR_RESOURCE_BUSY);

  private final int status;

  AllocateRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
