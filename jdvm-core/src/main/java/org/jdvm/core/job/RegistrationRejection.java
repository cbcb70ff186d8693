package org.jdvm.core.job;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/** Why a tool or the scheduler could not register, in check order. */
public enum RegistrationRejection implements Rejection {
  /** The DVM has torn down. */
  DVM_TORN_DOWN(PmixStatus.ERR_UNREACH),
  /**
   * The chosen namespace is longer than PMIX_MAX_NSLEN or has the minted {@code <dvm>@<n>} form.
   */
  NAMESPACE_NOT_ALLOWED(PmixStatus.ERR_BAD_PARAM),
  /** The chosen namespace was already used: a namespace names one job, ever. */
  NAMESPACE_IN_USE(PmixStatus.ERR_EXISTS),
  /** A scheduler is already connected. */
  SCHEDULER_PRESENT(PmixStatus.ERR_EXISTS);

  private final int status;

  RegistrationRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
