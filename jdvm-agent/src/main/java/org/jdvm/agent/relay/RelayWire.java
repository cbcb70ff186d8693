package org.jdvm.agent.relay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.host.LineReader;

/**
 * What the simple PMI relay ({@link PmiRelay}) reads of its peers' wire (docs/protocol.md "Simple
 * PMI"): a PMI-1 peer's {@code cmd=initack pmiid=N}, a PMI-2 peer's first line and its
 * length-prefixed commands with the {@code srcid} of its {@code fullinit}. The rest it carries
 * unread to the controller's engines.
 */
final class RelayWire {
  private RelayWire() {}

  /** The longest PMI-2 command a peer may send (as the controller's engine bounds it). */
  static final int MAX_COMMAND = 16 * 1024;

  /** A PMI-2 client's first line; it goes on in length-prefixed commands. */
  static final Pattern PMI2_INIT = Pattern.compile("cmd=init pmi_version=2 pmi_subversion=\\d+");

  private static final Pattern SRCID = Pattern.compile("(?:^|;)srcid=(\\d{1,9});");

  /** The next PMI-2 command's bytes (6-byte length, then the command); null at the end. */
  static String command(LineReader in) throws IOException {
    byte[] prefix = in.read(6);
    if (prefix == null) {
      return null;
    }
    String len = new String(prefix, StandardCharsets.US_ASCII).strip();
    if (len.isEmpty() || len.length() > 5 || !len.chars().allMatch(Character::isDigit)) {
      throw new IOException("a PMI-2 command without a sound length");
    }
    int n = Integer.parseInt(len);
    if (n == 0 || n > MAX_COMMAND) {
      throw new IOException("a PMI-2 command of " + n + " bytes");
    }
    byte[] body = in.read(n);
    return body == null ? null : new String(body, StandardCharsets.UTF_8);
  }

  /** {@code command} as a PMI-2 peer reads it: its 6-byte length first. */
  static String framed(String command) {
    return String.format("%-6d", command.getBytes(StandardCharsets.UTF_8).length) + command;
  }

  /** The {@code srcid} of a PMI-2 {@code fullinit}, or {@code null}. */
  static Integer srcid(String command) {
    if (!command.startsWith("cmd=fullinit;")) {
      return null;
    }
    Matcher m = SRCID.matcher(command);
    return m.find() ? Integer.valueOf(m.group(1)) : null;
  }

  /** The {@code pmiid} of a {@code cmd=initack pmiid=N} line, or {@code null}. */
  static Integer pmiid(String line) {
    String[] words = line.split(" ");
    if (words.length != 2 || !words[0].equals("cmd=initack") || !words[1].startsWith("pmiid=")) {
      return null;
    }
    String n = words[1].substring(6);
    if (n.isEmpty() || n.length() > 10 || !n.chars().allMatch(Character::isDigit)) {
      return null;
    }
    long v = Long.parseLong(n);
    return v > Integer.MAX_VALUE ? null : (int) v;
  }
}
