package org.jdvm.client;

import org.jdvm.pmix.PmixStatus;

/**
 * A PMIx operation failed: the DVM refused it, or it could not be carried out. {@link #status()} is
 * the PMIx status (e.g. {@link PmixStatus#ERR_NO_PERMISSIONS}) and {@link #statusName()} its macro
 * name, as {@code PMIx_Error_string} prints it.
 *
 * <pre>{@code
 * try {
 *   client.allocate(AllocationRequest.extend().allocId("jdvm@1.1").nodes(1).build());
 * } catch (PmixException e) {
 *   System.err.println("refused: " + e.statusName());   // e.g. PMIX_ERR_NO_PERMISSIONS
 * }
 * }</pre>
 */
public final class PmixException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String detail;

  public PmixException(int status, String detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }

  /** The status name and the detail; named lazily, so a failure costs no table lookup. */
  @Override
  public String getMessage() {
    return detail == null ? statusName() : statusName() + ": " + detail;
  }

  public PmixException(int status, String detail, Throwable cause) {
    this(status, detail);
    initCause(cause);
  }

  /** The PMIx status, a negative number. */
  public int status() {
    return status;
  }

  /** The status's macro name, e.g. {@code PMIX_ERR_NOT_FOUND}. */
  public String statusName() {
    return PmixStatus.name(status);
  }
}
