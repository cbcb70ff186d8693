package org.jdvm.pmix;

/**
 * The range of processes an event, or published data, is meant for ({@code pmix_data_range_t}, one
 * byte on the wire as DATA_RANGE): the one table of range codes (pmix-wire.md §8.2).
 *
 * <p>Codes from pmix-wire.md §8.2 and {@code pmix_common.h} (4.2.2 and master agree). An event
 * travels as {@code COMMAND 12 | STATUS | PROC | SIZE n | INFO… | DATA_RANGE}.
 */
public enum DataRange {
  /** No range given. */
  UNDEF(0),
  /** Meant for the host resource manager. */
  RM(1),
  /** The processes on the sender's node. */
  LOCAL(2),
  /** Every process of the sender's job. */
  NAMESPACE(3),
  /** Every process of the sender's session. */
  SESSION(4),
  /** Everyone. */
  GLOBAL(5),
  /** The processes named by {@code PMIX_EVENT_CUSTOM_RANGE}. */
  CUSTOM(6),
  /** The sending process alone. */
  PROC_LOCAL(7),
  /** {@code UINT8_MAX}: not a range. */
  INVALID(255);

  private static final String PREFIX = "PMIX_RANGE_";

  private final int code;

  DataRange(int code) {
    this.code = code;
  }

  /** The wire value. */
  public int code() {
    return code;
  }

  /** The C name, e.g. {@code PMIX_RANGE_NAMESPACE}. */
  public String pmixName() {
    return PREFIX + name();
  }

  /** The range for a wire value, or {@code null} if PMIx defines none. */
  public static DataRange fromCode(int code) {
    for (DataRange r : values()) {
      if (r.code == code) {
        return r;
      }
    }
    return null;
  }

  /** The range with this C name ({@code PMIX_RANGE_CUSTOM}) or bare name ({@code CUSTOM}). */
  public static DataRange fromName(String name) {
    String bare = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name;
    for (DataRange r : values()) {
      if (r.name().equals(bare)) {
        return r;
      }
    }
    return null;
  }
}
