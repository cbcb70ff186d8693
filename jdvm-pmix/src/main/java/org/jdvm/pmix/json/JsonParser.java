package org.jdvm.pmix.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A recursive-descent parser of RFC 8259 JSON, bounded in length and depth (see {@link Json}). */
final class JsonParser {
  /** Longer number literals are refused: no PMIx number needs them, and big ones parse slowly. */
  private static final int MAX_NUMBER_CHARS = 800;

  private final String text;
  private int pos;
  private int depth;

  JsonParser(String text) {
    if (text.length() > Json.MAX_INPUT_CHARS) {
      throw new JsonException("JSON text of " + text.length() + " characters is too long");
    }
    this.text = text;
  }

  Object parseDocument() {
    skipBlanks();
    Object value = parseValue();
    skipBlanks();
    if (pos != text.length()) {
      throw error("unexpected text after the JSON value");
    }
    return value;
  }

  private JsonException error(String what) {
    return new JsonException(what + " at offset " + pos);
  }

  private void skipBlanks() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private Object parseValue() {
    if (pos >= text.length()) {
      throw error("a value is missing");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> parseObject();
      case '[' -> parseArray();
      case '"' -> parseString();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield parseNumber();
        }
        throw error("unexpected character '" + c + "'");
      }
    };
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private void enter() {
    if (++depth > Json.MAX_DEPTH) {
      throw error("JSON nested deeper than " + Json.MAX_DEPTH);
    }
  }

  private Map<String, Object> parseObject() {
    enter();
    pos++; // '{'
    Map<String, Object> map = new LinkedHashMap<>();
    skipBlanks();
    if (peek() == '}') {
      pos++;
      depth--;
      return map;
    }
    while (true) {
      skipBlanks();
      if (peek() != '"') {
        throw error("expected a string key");
      }
      int keyAt = pos;
      String key = parseString();
      skipBlanks();
      expect(':');
      skipBlanks();
      Object value = parseValue();
      if (map.containsKey(key)) {
        pos = keyAt;
        throw error("duplicate key \"" + key + "\"");
      }
      map.put(key, value);
      skipBlanks();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        depth--;
        return map;
      }
    }
  }

  private List<Object> parseArray() {
    enter();
    pos++; // '['
    List<Object> list = new ArrayList<>();
    skipBlanks();
    if (peek() == ']') {
      pos++;
      depth--;
      return list;
    }
    while (true) {
      skipBlanks();
      list.add(parseValue());
      skipBlanks();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        depth--;
        return list;
      }
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void expect(char c) {
    if (peek() != c || pos >= text.length()) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private String parseString() {
    pos++; // opening quote
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        pos--;
        throw error("control character in a string");
      }
      if (c == '\\') {
        sb.append(escape());
      } else {
        sb.append(c);
      }
    }
  }

  private char escape() {
    if (pos >= text.length()) {
      throw error("unterminated escape");
    }
    char c = text.charAt(pos++);
    return switch (c) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> unicodeEscape();
      default -> {
        pos--;
        throw error("bad escape '\\" + c + "'");
      }
    };
  }

  private char unicodeEscape() {
    if (pos + 4 > text.length()) {
      throw error("short \\u escape");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos + i), 16);
      if (digit < 0) {
        throw error("bad \\u escape");
      }
      value = value * 16 + digit;
    }
    pos += 4;
    return (char) value;
  }

  /** A number by the JSON grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  private Number parseNumber() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (!digits()) {
      throw error("bad number");
    }
    boolean integral = true;
    if (peek() == '.') {
      pos++;
      integral = false;
      if (!digits()) {
        throw error("bad fraction");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      integral = false;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!digits()) {
        throw error("bad exponent");
      }
    }
    return toNumber(start, integral);
  }

  /** The literal just scanned from {@code start}: a long or big integer, or a big decimal. */
  private Number toNumber(int start, boolean integral) {
    String literal = text.substring(start, pos);
    if (literal.length() > MAX_NUMBER_CHARS) {
      pos = start;
      throw error("number of " + literal.length() + " characters");
    }
    try {
      if (!integral) {
        return new BigDecimal(literal);
      }
      BigInteger big = new BigInteger(literal);
      return big.bitLength() < 64 ? (Number) big.longValue() : big;
    } catch (NumberFormatException | ArithmeticException e) {
      pos = start;
      throw error("number out of range");
    }
  }

  private boolean digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    return pos > start;
  }
}
