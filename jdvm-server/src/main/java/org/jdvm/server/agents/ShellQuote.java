package org.jdvm.server.agents;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Quoting for the POSIX shell that ssh runs a remote command with: ssh joins its command words with
 * spaces and hands the string to the remote user's shell, so every word must reach it quoted or a
 * node name, a path or an argument could run commands there. A word of only safe characters is left
 * as it is; every other word is put in single quotes, each {@code '} in it written as {@code '\''}.
 * Newlines and every other byte are safe inside single quotes.
 */
public final class ShellQuote {
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=,+@%-]+");

  private ShellQuote() {}

  /** One word, quoted if it needs it ({@code ''} for the empty word). */
  public static String word(String w) {
    if (w.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a shell word cannot hold a NUL byte");
    }
    if (!w.isEmpty() && SAFE.matcher(w).matches()) {
      return w;
    }
    return "'" + w.replace("'", "'\\''") + "'";
  }

  /** The words, each quoted, joined with spaces: one command line for a remote shell. */
  public static String join(List<String> words) {
    StringBuilder b = new StringBuilder();
    for (String w : words) {
      if (!b.isEmpty()) {
        b.append(' ');
      }
      b.append(word(w));
    }
    return b.toString();
  }
}
