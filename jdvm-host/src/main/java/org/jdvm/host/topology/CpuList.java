package org.jdvm.host.topology;

import java.util.BitSet;

/**
 * The kernel's cpu list form ({@code 0-3,8,10-11}: {@code cpulist_parse} in Linux, the form of
 * {@code Cpus_allowed_list}, {@code cpulist} and {@code thread_siblings_list}), read and written.
 */
public final class CpuList {
  private CpuList() {}

  /**
   * The cpus of a list; an empty or blank text is the empty set.
   *
   * @throws IllegalArgumentException naming the text when it is not a cpu list
   */
  public static BitSet parse(String text) {
    BitSet set = new BitSet();
    String t = text.strip();
    if (t.isEmpty()) {
      return set;
    }
    try {
      for (String part : t.split(",")) {
        int dash = part.indexOf('-');
        if (dash < 0) {
          set.set(Integer.parseInt(part.strip()));
        } else {
          int from = Integer.parseInt(part.substring(0, dash).strip());
          int to = Integer.parseInt(part.substring(dash + 1).strip());
          if (from > to || from < 0) {
            throw new IllegalArgumentException("not a cpu list: " + text);
          }
          set.set(from, to + 1);
        }
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a cpu list: " + text, e);
    }
    return set;
  }

  /** The list form of a set: ascending ranges, {@code 0-3,8}; the empty set is "". */
  public static String format(BitSet set) {
    StringBuilder b = new StringBuilder();
    int i = set.nextSetBit(0);
    while (i >= 0) {
      int end = set.nextClearBit(i) - 1;
      if (!b.isEmpty()) {
        b.append(',');
      }
      b.append(i);
      if (end > i) {
        b.append('-').append(end);
      }
      i = set.nextSetBit(end + 1);
    }
    return b.toString();
  }
}
