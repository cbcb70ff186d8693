package org.jdvm.endpoint.pmi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of the simple PMI wire protocol (docs/protocol.md "Simple PMI"): {@code key=value} pairs
 * separated by single spaces, ended by a newline, as MPICH's simple PMI client writes and parses
 * them (a value runs to the next space; a key is letters, digits and {@code _}).
 *
 * <p>Bounds: a line holds at most {@link #MAX_LINE} bytes (the client's own buffer) and {@link
 * #MAX_PAIRS} pairs; a line past them, a pair without {@code =}, an empty or malformed key, a key
 * given twice or a line without {@code cmd} is {@link Malformed}.
 */
final class PmiLine {
  /** The longest line, newline included: MPICH's client buffer ({@code PMIU_MAXLINE}). */
  static final int MAX_LINE = 1024;

  /** The most pairs on one line (a PMI-1 command carries at most four). */
  static final int MAX_PAIRS = 16;

  /** A line the server does not take; the message says why, without spaces on the wire. */
  static final class Malformed extends Exception {
    Malformed(String why) {
      super(why, null, false, false);
    }
  }

  private PmiLine() {}

  /** The pairs of {@code line} (without its newline), in order. */
  static Map<String, String> parse(String line) throws Malformed {
    if (line.length() + 1 > MAX_LINE) {
      throw new Malformed("line longer than " + MAX_LINE + " bytes");
    }
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String token : line.split(" ", -1)) {
      if (token.isEmpty()) {
        continue;
      }
      int eq = token.indexOf('=');
      if (eq <= 0) {
        throw new Malformed("not key=value: " + clip(token));
      }
      String key = token.substring(0, eq);
      if (!isKey(key)) {
        throw new Malformed("bad key " + clip(key));
      }
      if (pairs.size() >= MAX_PAIRS) {
        throw new Malformed("more than " + MAX_PAIRS + " pairs");
      }
      if (pairs.put(key, token.substring(eq + 1)) != null) {
        throw new Malformed("key given twice: " + key);
      }
    }
    if (!pairs.containsKey("cmd")) {
      throw new Malformed("no cmd");
    }
    return pairs;
  }

  private static boolean isKey(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (!(c == '_'
          || (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9'))) {
        return false;
      }
    }
    return true;
  }

  /** A reply line {@code cmd=<cmd> rc=<rc> k=v...}, newline included. */
  static String reply(String cmd, int rc, String... pairs) {
    StringBuilder b = new StringBuilder("cmd=").append(cmd).append(" rc=").append(rc);
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      b.append(' ').append(pairs[i]).append('=').append(pairs[i + 1]);
    }
    return b.append('\n').toString();
  }

  /** A refusal: {@code cmd=<cmd> rc=-1 msg=<why>}, the message's spaces made {@code _}. */
  static String error(String cmd, String why) {
    return reply(cmd, -1, "msg", why.replace(' ', '_').replace('\n', '_'));
  }

  /** At most 40 characters of what the peer sent, for a message. */
  private static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
