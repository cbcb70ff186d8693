package org.jdvm.endpoint.serve;

import org.jdvm.pmix.PmixStatus;

/**
 * A request the endpoint refuses before the core sees it: a value of the wrong PMIx type, or one it
 * cannot honour. The message is answered on its tag with {@link #status}; the connection goes on.
 */
public final class BadRequest extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;

  public BadRequest(int status, String detail) {
    super(PmixStatus.name(status) + ": " + detail, null, false, false);
    this.status = status;
  }

  public static BadRequest param(String detail) {
    return new BadRequest(PmixStatus.ERR_BAD_PARAM, detail);
  }

  public static BadRequest outOfResource(String detail) {
    return new BadRequest(PmixStatus.ERR_OUT_OF_RESOURCE, detail);
  }

  public static BadRequest notSupported(String detail) {
    return new BadRequest(PmixStatus.ERR_NOT_SUPPORTED, detail);
  }

  public int status() {
    return status;
  }
}
