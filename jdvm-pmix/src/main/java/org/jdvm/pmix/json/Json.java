package org.jdvm.pmix.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/**
 * A small JSON reader and writer on plain Java values, with bounds, for the codec's JSON forms, the
 * CLI's {@code --json} output and the server's.
 *
 * <p>The tree is made of {@link Map} (insertion-ordered, {@code String} keys), {@link
 * java.util.List}, {@link String}, {@link Boolean}, {@code null} and numbers. Parsing yields {@link
 * Long} for an integer that fits, {@link BigInteger} for a larger one (so a 64-bit unsigned value
 * stays exact) and {@link BigDecimal} for anything with a fraction or exponent (so a float's digits
 * are never rounded twice). Writing accepts those and also {@link Integer}, {@link Short}, {@link
 * Byte}, finite {@link Float} and {@link Double}, and any {@link Collection}.
 *
 * <p>Bounds: at most {@link #MAX_INPUT_CHARS} characters and {@link #MAX_DEPTH} levels of nesting;
 * anything else is a {@link JsonException} naming the offset.
 */
public final class Json {
  /** The longest text {@link #parse} accepts. */
  public static final int MAX_INPUT_CHARS = 16 << 20;

  /** The deepest nesting of arrays and objects {@link #parse} accepts. */
  public static final int MAX_DEPTH = 256;

  private Json() {}

  /** Parses one JSON document (surrounding whitespace allowed). */
  public static Object parse(String text) {
    return new JsonParser(text).parseDocument();
  }

  /** The compact one-line JSON text of a tree. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object value, int depth) {
    if (depth > MAX_DEPTH) {
      throw new JsonException("tree nested deeper than " + MAX_DEPTH);
    }
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      writeString(sb, s);
    } else if (value instanceof Boolean b) {
      sb.append(b.booleanValue());
    } else if (value instanceof Map<?, ?> map) {
      writeObject(sb, map, depth);
    } else if (value instanceof Collection<?> list) {
      writeArray(sb, list, depth);
    } else if (value instanceof Number n) {
      writeNumber(sb, n);
    } else {
      throw new JsonException("not a JSON value: " + value.getClass().getName());
    }
  }

  private static void writeObject(StringBuilder sb, Map<?, ?> map, int depth) {
    sb.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String key)) {
        throw new JsonException("object key is not a string: " + e.getKey());
      }
      if (!first) {
        sb.append(',');
      }
      first = false;
      writeString(sb, key);
      sb.append(':');
      write(sb, e.getValue(), depth + 1);
    }
    sb.append('}');
  }

  private static void writeArray(StringBuilder sb, Collection<?> list, int depth) {
    sb.append('[');
    boolean first = true;
    for (Object element : list) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      write(sb, element, depth + 1);
    }
    sb.append(']');
  }

  private static void writeNumber(StringBuilder sb, Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new JsonException("JSON has no " + d);
      }
      sb.append(n instanceof Float f ? Float.toString(f) : Double.toString(d));
    } else if (n instanceof BigDecimal bd) {
      sb.append(bd.toString());
    } else if (n instanceof Long
        || n instanceof Integer
        || n instanceof Short
        || n instanceof Byte
        || n instanceof BigInteger) {
      sb.append(n.toString());
    } else {
      throw new JsonException("unsupported number type " + n.getClass().getName());
    }
  }

  /**
   * {@code s} as a JSON string literal on one line: what a peer said, safe to put in a log line (no
   * line break, carriage return, terminal escape or other control character gets through).
   */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2);
    writeString(sb, s);
    return sb.toString();
  }

  /**
   * Appends a JSON string literal: quotes, backslashes and control characters escaped (C0, DEL, C1,
   * and the line and paragraph separators U+2028 and U+2029, which some readers take as line
   * breaks).
   */
  public static void writeString(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
