package org.jdvm.pmix;

/**
 * {@code PMIX_ALLOC_TIME} (and {@code PMIX_ALLOC_LEND}) as a string: "M:D:H:M:S", fields counted
 * from the right (seconds, minutes, hours, days, months of 30 days), each a non-negative decimal. A
 * field may not be empty (":30", "1:" and "1::2" are refused: PRRTE once read them as other
 * durations).
 */
public final class TimeSpec {
  private TimeSpec() {}

  private static final long[] UNIT_SECONDS = {1, 60, 3600, 86_400, 30L * 86_400};

  /** The duration in seconds, or -1 if the text is not a time spec. */
  public static long parseSeconds(String text) {
    if (text == null || text.isEmpty()) {
      return -1;
    }
    String[] fields = text.split(":", -1);
    if (fields.length > UNIT_SECONDS.length) {
      return -1;
    }
    long total = 0;
    for (int i = 0; i < fields.length; i++) {
      long value = field(fields[fields.length - 1 - i]);
      if (value < 0) {
        return -1;
      }
      try {
        total = Math.addExact(total, Math.multiplyExact(value, UNIT_SECONDS[i]));
      } catch (ArithmeticException overflow) {
        return -1;
      }
    }
    return total;
  }

  private static long field(String f) {
    if (f.isEmpty() || f.length() > 12) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < f.length(); i++) {
      char c = f.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
