package org.jdvm.pmix.frame;

/**
 * Message tags (pmix-wire.md §9.2). Fixed tags name a channel; a request takes a fresh dynamic tag
 * from a {@link TagSequence} and its reply comes back on the same tag. Tags are unsigned 32-bit
 * values held in an {@code int}.
 */
public final class Tags {
  private Tags() {}

  /** Events the server pushes to a client; clients keep a receive posted on it. */
  public static final int NOTIFY = 0;

  public static final int HEARTBEAT = 1;

  /** Forwarded standard input and output. */
  public static final int IOF = 2;

  /** Master only. */
  public static final int IOF_CONTROL = 3;

  /** Master only. */
  public static final int DATA_DELETE = 4;

  /** {@code PMIX_PTL_TAG_DYNAMIC}: the counter's start; the first request uses 101. */
  public static final int DYNAMIC = 100;

  /** UINT32_MAX: the wildcard tag, and the tag of the connect message. */
  public static final int CONNECT = 0xFFFF_FFFF;

  /** Whether a tag is a dynamic request/reply tag rather than a fixed channel or the wildcard. */
  public static boolean isDynamic(int tag) {
    return Integer.compareUnsigned(tag, DYNAMIC) > 0 && tag != CONNECT;
  }
}
