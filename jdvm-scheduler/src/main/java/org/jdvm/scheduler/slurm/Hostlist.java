package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's compact lists, as its commands print them and its environment carries them: hostlists
 * ({@code node[1-3,5]}, {@code rack[1-2]-n[01-02]}, {@code a,b}) and repeat lists ({@code
 * SLURM_TASKS_PER_NODE=2(x3),1}). Both come from outside the DVM, so both are parsed strictly and
 * bounded: a list that would expand past {@link #MAX_NODES} entries is refused, not expanded.
 */
public final class Hostlist {
  /** The most nodes one list may name (Slurm's own largest systems stay well below). */
  public static final int MAX_NODES = 65_536;

  private Hostlist() {}

  /**
   * The node names of a hostlist expression, in Slurm's order, duplicates kept as written.
   *
   * @throws IllegalArgumentException on a malformed list, a name {@link SlurmNames} refuses, or
   *     more than {@link #MAX_NODES} names
   */
  public static List<String> expand(String expression) {
    if (expression == null || expression.isEmpty()) {
      throw new IllegalArgumentException("an empty Slurm hostlist");
    }
    List<String> out = new ArrayList<>();
    for (String entry : topLevelEntries(expression)) {
      expandEntry(entry, expression, out);
    }
    return List.copyOf(out);
  }

  /** Splits at commas outside brackets. */
  private static List<String> topLevelEntries(String expression) {
    List<String> entries = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (c == '[') {
        if (depth++ > 0) {
          throw malformed(expression, "nested brackets");
        }
      } else if (c == ']') {
        if (--depth < 0) {
          throw malformed(expression, "']' without '['");
        }
      } else if (c == ',' && depth == 0) {
        entries.add(expression.substring(start, i));
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw malformed(expression, "'[' without ']'");
    }
    entries.add(expression.substring(start));
    for (String e : entries) {
      if (e.isEmpty()) {
        throw malformed(expression, "an empty entry");
      }
    }
    return entries;
  }

  /** Appends the names of one entry: literal parts and bracket groups, as a cartesian product. */
  private static void expandEntry(String entry, String expression, List<String> out) {
    List<String> partial = List.of("");
    int i = 0;
    while (i < entry.length()) {
      int open = entry.indexOf('[', i);
      String literal = open < 0 ? entry.substring(i) : entry.substring(i, open);
      partial = append(partial, List.of(literal), expression);
      if (open < 0) {
        break;
      }
      int close = entry.indexOf(']', open);
      partial = append(partial, ranges(entry.substring(open + 1, close), expression), expression);
      i = close + 1;
    }
    for (String name : partial) {
      out.add(SlurmNames.node(name));
      if (out.size() > MAX_NODES) {
        throw malformed(expression, "more than " + MAX_NODES + " nodes");
      }
    }
  }

  private static List<String> append(List<String> prefixes, List<String> parts, String expr) {
    if ((long) prefixes.size() * parts.size() > MAX_NODES) {
      throw malformed(expr, "more than " + MAX_NODES + " nodes");
    }
    List<String> out = new ArrayList<>(prefixes.size() * parts.size());
    for (String p : prefixes) {
      for (String s : parts) {
        out.add(p + s);
      }
    }
    return out;
  }

  /** The numbers of {@code 1-3,05,7}, each as wide as its range's first bound was written. */
  private static List<String> ranges(String inside, String expression) {
    List<String> out = new ArrayList<>();
    for (String r : inside.split(",", -1)) {
      int dash = r.indexOf('-');
      String lo = dash < 0 ? r : r.substring(0, dash);
      String hi = dash < 0 ? r : r.substring(dash + 1);
      if (!isDigits(lo) || !isDigits(hi)) {
        throw malformed(expression, "'" + r + "' is not a number or a range");
      }
      long from = Long.parseLong(lo);
      long to = Long.parseLong(hi);
      if (to < from) {
        throw malformed(expression, "the range " + r + " runs backwards");
      }
      if (to - from + out.size() >= MAX_NODES) {
        throw malformed(expression, "more than " + MAX_NODES + " nodes");
      }
      for (long n = from; n <= to; n++) {
        String digits = Long.toString(n);
        out.add("0".repeat(Math.max(0, lo.length() - digits.length())) + digits);
      }
    }
    return out;
  }

  /**
   * Slurm's repeat list ({@code SLURM_TASKS_PER_NODE}, {@code SLURM_JOB_CPUS_PER_NODE}): {@code
   * 2(x3),1} is {@code [2, 2, 2, 1]}. Every count is at least 1.
   *
   * @throws IllegalArgumentException on a malformed list or more than {@link #MAX_NODES} entries
   */
  public static List<Integer> repeatList(String list) {
    if (list == null || list.isEmpty()) {
      throw new IllegalArgumentException("an empty Slurm count list");
    }
    List<Integer> out = new ArrayList<>();
    for (String item : list.split(",", -1)) {
      String count = item;
      long times = 1;
      int paren = item.indexOf('(');
      if (paren >= 0) {
        if (!item.endsWith(")") || !item.startsWith("(x", paren)) {
          throw new IllegalArgumentException(
              "malformed Slurm count list '" + list + "': '" + item + "' is not N or N(xM)");
        }
        count = item.substring(0, paren);
        String m = item.substring(paren + 2, item.length() - 1);
        if (!isDigits(m)) {
          throw new IllegalArgumentException(
              "malformed Slurm count list '" + list + "': '" + item + "' is not N or N(xM)");
        }
        times = Long.parseLong(m);
      }
      if (!isDigits(count) || Long.parseLong(count) < 1 || times < 1) {
        throw new IllegalArgumentException(
            "malformed Slurm count list '" + list + "': '" + item + "' is not N or N(xM), N ≥ 1");
      }
      if (times + out.size() > MAX_NODES || Long.parseLong(count) > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "Slurm count list '" + list + "' is too long or its counts too large");
      }
      for (long t = 0; t < times; t++) {
        out.add((int) Long.parseLong(count));
      }
    }
    return List.copyOf(out);
  }

  private static boolean isDigits(String s) {
    return !s.isEmpty() && s.length() <= 18 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static IllegalArgumentException malformed(String expression, String why) {
    String shown = expression.length() > 80 ? expression.substring(0, 80) + "…" : expression;
    return new IllegalArgumentException("malformed Slurm hostlist '" + shown + "': " + why);
  }
}
