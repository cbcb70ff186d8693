package org.jdvm.core.job;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/** Refusals that come before any operation's own checks, in check order. */
public enum RequesterRejection implements Rejection {
  /** The DVM has torn down; nothing is served any more. */
  DVM_TORN_DOWN(PmixStatus.ERR_UNREACH),
  /** The requester's namespace is not one the core knows: a tool must register first. */
  UNKNOWN_NAMESPACE(PmixStatus.ERR_NO_PERMISSIONS),
  /** The requester's namespace has terminated: a namespace names one job, and it is over. */
  TERMINATED_NAMESPACE(PmixStatus.ERR_NO_PERMISSIONS);

  private final int status;

  RequesterRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
