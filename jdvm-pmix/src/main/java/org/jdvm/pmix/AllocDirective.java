package org.jdvm.pmix;

/**
 * The directive of an allocation request ({@code pmix_alloc_directive_t}, one byte on the wire).
 *
 * <p>rfc0005-allocation-api.txt "Description" and pmix-wire.md §8.2. {@link #REQ_CANCEL} exists
 * only in master headers; a 4.2.2 peer never sends it. Values from 128 up are free for
 * implementers.
 */
public enum AllocDirective {
  NEW(1),
  EXTEND(2),
  RELEASE(3),
  /** "Reacquire" lent resources; the PMIx macro really is spelled REAQUIRE. */
  REAQUIRE(4),
  REQ_CANCEL(5);

  private final int code;

  AllocDirective(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The directive for a wire value, or {@code null} if PMIx defines none. */
  public static AllocDirective fromCode(int code) {
    for (AllocDirective d : values()) {
      if (d.code == code) {
        return d;
      }
    }
    return null;
  }

  /**
   * The contract of {@code PMIx_Alloc_directive_string}: "NEW", "EXTEND", "RELEASE", "REACQUIRE",
   * "CANCEL REQUEST", and "UNSPECIFIED" for any other value.
   */
  public static String toString(int code) {
    return switch (code) {
      case 1 -> "NEW";
      case 2 -> "EXTEND";
      case 3 -> "RELEASE";
      case 4 -> "REACQUIRE";
      case 5 -> "CANCEL REQUEST";
      default -> "UNSPECIFIED";
    };
  }
}
