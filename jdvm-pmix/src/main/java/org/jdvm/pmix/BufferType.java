package org.jdvm.pmix;

/**
 * Whether each pack unit carries type tags ({@code pmix_bfrop_buffer_type_t}, pmix-wire.md §2.4).
 *
 * <p>A fully-described unit starts with the INT32 tag before its count and the declared type's tag
 * after it; nested fields never carry these tags in either mode. One connection uses one mode,
 * chosen by the connecting peer in its handshake.
 */
public enum BufferType {
  NON_DESCRIBED(1),
  FULLY_DESCRIBED(2);

  private final int code;

  BufferType(int code) {
    this.code = code;
  }

  /** The byte sent in the connect handshake. */
  public int code() {
    return code;
  }

  /** The buffer type for a handshake byte, or {@code null} for any other value. */
  public static BufferType fromCode(int code) {
    return switch (code) {
      case 1 -> NON_DESCRIBED;
      case 2 -> FULLY_DESCRIBED;
      default -> null;
    };
  }
}
