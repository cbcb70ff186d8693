package org.jdvm.pmix.codec;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * FLOAT and DOUBLE travel as the text C's {@code printf("%f")} produces (pmix-wire.md §3, §6 #3):
 * this class writes that text exactly as glibc does and reads it back as {@code strtof}/{@code
 * strtod} would.
 *
 * <p>glibc prints the exact binary value rounded to six decimals in the current rounding mode
 * (round half to even); {@link BigDecimal#BigDecimal(double)} is that exact value, so rounding it
 * with {@link RoundingMode#HALF_EVEN} gives the same digits. The sign of a negative number that
 * rounds to zero, and of -0.0, is kept ("-0.000000"), and the specials are "nan", "-nan", "inf" and
 * "-inf". The decimal point is always '.', whatever the locale.
 */
public final class FloatText {
  private FloatText() {}

  /** The {@code %f} text of a double. */
  public static String format(double value) {
    boolean negative = Double.doubleToRawLongBits(value) < 0;
    if (Double.isNaN(value)) {
      return negative ? "-nan" : "nan";
    }
    if (Double.isInfinite(value)) {
      return negative ? "-inf" : "inf";
    }
    String digits = new BigDecimal(value).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
    return negative && digits.charAt(0) != '-' ? "-" + digits : digits;
  }

  /** The {@code %f} text of a float, which C promotes to double before printing. */
  public static String format(float value) {
    return format((double) value);
  }

  /**
   * The double a {@code %f}-style text denotes, or {@code null} if the text is not a decimal
   * number, "nan" or "inf"/"infinity" (case-insensitive, optionally signed). The sign of a NaN is
   * kept, so "-nan" formats back as "-nan".
   */
  public static Double parseDouble(String text) {
    int special = special(text);
    if (special != NOT_SPECIAL) {
      boolean negative = text.charAt(0) == '-';
      if (special == NAN) {
        return Double.longBitsToDouble(negative ? 0xFFF8000000000000L : 0x7FF8000000000000L);
      }
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (!isDecimal(text)) {
      return null;
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The float a text denotes, rounded once from the decimal as {@code strtof} does. */
  public static Float parseFloat(String text) {
    int special = special(text);
    if (special != NOT_SPECIAL) {
      boolean negative = text.charAt(0) == '-';
      if (special == NAN) {
        return Float.intBitsToFloat(negative ? 0xFFC00000 : 0x7FC00000);
      }
      return negative ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
    }
    if (!isDecimal(text)) {
      return null;
    }
    try {
      return Float.parseFloat(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static final int NOT_SPECIAL = 0;
  private static final int NAN = 1;
  private static final int INFINITY = 2;

  private static int special(String text) {
    if (text == null || text.isEmpty()) {
      return NOT_SPECIAL;
    }
    int from = text.charAt(0) == '-' || text.charAt(0) == '+' ? 1 : 0;
    String body = text.substring(from);
    if (body.equalsIgnoreCase("nan")) {
      return NAN;
    }
    if (body.equalsIgnoreCase("inf") || body.equalsIgnoreCase("infinity")) {
      return INFINITY;
    }
    return NOT_SPECIAL;
  }

  /**
   * Whether the text is made only of what a decimal number uses. Java's own parsers also accept
   * type suffixes, hexadecimal and surrounding blanks; this keeps them to what {@code %f} writes
   * plus exponents.
   */
  private static boolean isDecimal(String text) {
    if (text == null || text.isEmpty() || text.length() > 400) {
      return false;
    }
    boolean digit = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digit = true;
      } else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') {
        return false;
      }
    }
    return digit;
  }
}
