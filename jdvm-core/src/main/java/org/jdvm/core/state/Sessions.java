package org.jdvm.core.state;

/** Session ids. */
public final class Sessions {
  private Sessions() {}

  /**
   * The default session's numeric id, {@code UINT32_MAX} as in PRRTE; also "every session" in a
   * session-control operation. It has no allocation id: a request names it by the invalid namespace
   * ({@code ""}).
   */
  public static final long DEFAULT_ID = 0xFFFF_FFFFL;

  /** The largest session id the core mints (ids are uint32 and {@link #DEFAULT_ID} is taken). */
  public static final long MAX_ID = DEFAULT_ID - 1;
}
