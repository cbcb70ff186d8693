package org.jdvm.pmix.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * A parsed JSON value with the path it was found at, so that a shape error names where it is
 * ({@code $.value.data.array[2]: expected a string}).
 */
record JsonNode(Object json, String path) {
  JsonException error(String expected) {
    return new JsonException(path + ": expected " + expected);
  }

  boolean isNull() {
    return json == null;
  }

  Map<?, ?> object() {
    if (json instanceof Map<?, ?> map) {
      return map;
    }
    throw error("an object");
  }

  List<?> array() {
    if (json instanceof List<?> list) {
      return list;
    }
    throw error("an array");
  }

  /** A required member of this object. */
  JsonNode get(String name) {
    Map<?, ?> map = object();
    if (!map.containsKey(name)) {
      throw new JsonException(path + ": missing \"" + name + "\"");
    }
    return new JsonNode(map.get(name), path + "." + name);
  }

  /** An optional member, or {@code null} when absent. */
  JsonNode opt(String name) {
    Map<?, ?> map = object();
    return map.containsKey(name) ? new JsonNode(map.get(name), path + "." + name) : null;
  }

  JsonNode element(int index) {
    return new JsonNode(array().get(index), path + "[" + index + "]");
  }

  String string() {
    if (json instanceof String s) {
      return s;
    }
    throw error("a string");
  }

  /** A string or JSON null. */
  String nullableString() {
    return json == null ? null : string();
  }

  boolean bool() {
    if (json instanceof Boolean b) {
      return b;
    }
    throw error("true or false");
  }

  /** An integer within [min, max], as exact as JSON gives it. */
  BigInteger integer(BigInteger min, BigInteger max) {
    BigInteger v;
    if (json instanceof Long l) {
      v = BigInteger.valueOf(l);
    } else if (json instanceof BigInteger b) {
      v = b;
    } else if (json instanceof BigDecimal d
        && d.precision() - d.scale() <= 40 // no 1e999999999 expanded into a huge integer
        && d.stripTrailingZeros().scale() <= 0) {
      v = d.toBigIntegerExact();
    } else {
      throw error("an integer");
    }
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      throw error("an integer in [" + min + ", " + max + "], not " + v);
    }
    return v;
  }

  /** An integer in [min, max] that fits a long. */
  long longValue(long min, long max) {
    return integer(BigInteger.valueOf(min), BigInteger.valueOf(max)).longValue();
  }

  /** The decimal text of a JSON number, for parsing as float or double. */
  String numberText() {
    if (json instanceof Number n) {
      return n.toString();
    }
    throw error("a number");
  }
}
