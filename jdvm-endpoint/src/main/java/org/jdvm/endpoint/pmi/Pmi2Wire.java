package org.jdvm.endpoint.pmi;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PMI-2 wire form (docs/protocol.md "Simple PMI"), as Slurm's {@code libpmi2} and MPICH's PMI-2
 * client write it: each command is a 6-byte length (decimal digits, space-padded) and that many
 * bytes of {@code key=value;} pairs, the first {@code cmd=<name>}; a {@code ;} inside a value is
 * written {@code ;;}.
 *
 * <p>Bounds: a command of at most {@link #MAX_COMMAND} bytes and {@link #MAX_PAIRS} pairs; past
 * them, a pair without {@code =}, an empty key, a key given twice or no leading {@code cmd} is
 * {@link PmiLine.Malformed}.
 */
public final class Pmi2Wire {
  /** The bytes of a command's length. */
  public static final int LENGTH_BYTES = 6;

  /** The longest command jdvm reads: a value of 1,024 bytes and more than room for its key. */
  public static final int MAX_COMMAND = 16 * 1024;

  /** The most pairs in one command. */
  static final int MAX_PAIRS = 64;

  private Pmi2Wire() {}

  /** The length a 6-byte prefix gives, or -1 if it is not one within {@link #MAX_COMMAND}. */
  public static int length(byte[] prefix) {
    String s = new String(prefix, StandardCharsets.US_ASCII).strip();
    if (s.isEmpty() || s.length() > LENGTH_BYTES || !s.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    int n = Integer.parseInt(s);
    return n <= 0 || n > MAX_COMMAND ? -1 : n;
  }

  /** The pairs of one command's bytes, in order. */
  static Map<String, String> parse(String command) throws PmiLine.Malformed {
    Map<String, String> out = new LinkedHashMap<>();
    int i = 0;
    while (i < command.length()) {
      int eq = command.indexOf('=', i);
      if (eq <= i) {
        throw new PmiLine.Malformed("not key=value at byte " + i);
      }
      String key = command.substring(i, eq);
      StringBuilder value = new StringBuilder();
      int j = eq + 1;
      while (j < command.length()) {
        char c = command.charAt(j);
        if (c == ';' && j + 1 < command.length() && command.charAt(j + 1) == ';') {
          value.append(';');
          j += 2;
        } else if (c == ';') {
          break;
        } else {
          value.append(c);
          j++;
        }
      }
      if (out.size() >= MAX_PAIRS) {
        throw new PmiLine.Malformed("more than " + MAX_PAIRS + " pairs");
      }
      if (out.put(key, value.toString()) != null) {
        throw new PmiLine.Malformed("key given twice: " + key);
      }
      i = j + 1;
    }
    if (out.isEmpty() || !out.keySet().iterator().next().equals("cmd")) {
      throw new PmiLine.Malformed("no leading cmd");
    }
    return out;
  }

  /** A command's bytes: {@code cmd=<cmd>;} then each pair, {@code ;} in values doubled. */
  static String command(String cmd, String... pairs) {
    StringBuilder b = new StringBuilder("cmd=").append(cmd).append(';');
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      if (pairs[i + 1] != null) {
        b.append(pairs[i]).append('=').append(pairs[i + 1].replace(";", ";;")).append(';');
      }
    }
    return b.toString();
  }

  /** {@code command} with its 6-byte length before it, as it goes on the wire. */
  public static byte[] frame(String command) {
    byte[] body = command.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[LENGTH_BYTES + body.length];
    byte[] len = String.format("%-6d", body.length).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(len, 0, out, 0, LENGTH_BYTES);
    System.arraycopy(body, 0, out, LENGTH_BYTES, body.length);
    return out;
  }
}
