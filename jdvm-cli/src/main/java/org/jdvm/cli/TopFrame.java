package org.jdvm.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One frame of {@code jdvm top} (docs/cli.md), made from data alone: the nodes grouped by
 * allocation with their slots in use, the jobs that have not ended, and the latest changes, fitted
 * to a screen of {@code width} × {@code height}: every line cut to the width, each section given a
 * share of the height, and a section that does not fit says how much it leaves out.
 *
 * @param nodes the {@code jdvm nodes --json} objects
 * @param jobs the {@code jdvm.qry.jobsum} objects (as {@code jdvm jobs} reads them)
 * @param events the latest change lines, oldest first
 */
record TopFrame(
    List<Map<String, Object>> nodes, List<Map<String, Object>> jobs, List<String> events) {
  /** The lines the sections' titles and the blank lines between them take. */
  private static final int FIXED = 8;

  /** The frame as at most {@code height} lines of at most {@code width} characters. */
  List<String> lines(int width, int height) {
    List<String> nodeLines = nodeLines(width);
    List<String> jobLines = jobLines();
    int[] share = share(height - FIXED, nodeLines.size(), jobLines.size() - 1, events.size());
    List<String> out = new ArrayList<>();
    out.add(title());
    out.add("");
    out.add("NODES");
    out.addAll(head(nodeLines, share[0], "node groups"));
    out.add("");
    out.add("JOBS (" + (jobLines.size() - 1) + " not ended)");
    out.add(jobLines.get(0));
    out.addAll(head(jobLines.subList(1, jobLines.size()), share[1], "jobs"));
    out.add("");
    out.add("EVENTS");
    out.addAll(events.subList(events.size() - share[2], events.size()));
    List<String> fitted = new ArrayList<>();
    for (String line : out.subList(0, Math.min(out.size(), Math.max(0, height)))) {
      fitted.add(cut(line, width));
    }
    return fitted;
  }

  /** The first line: the totals, and how to quit. */
  private String title() {
    long slots = 0;
    long used = 0;
    for (Map<String, Object> n : nodes) {
      slots += number(n.get("slots"));
      used += number(n.get("slotsInUse"));
    }
    return "jdvm top: "
        + nodes.size()
        + " node"
        + (nodes.size() == 1 ? "" : "s")
        + ", "
        + used
        + "/"
        + slots
        + " slots in use, "
        + running().size()
        + " job"
        + (running().size() == 1 ? "" : "s")
        + " not ended (q quits)";
  }

  /**
   * The lines that share the rest of the height: each section gets up to a third, and what one does
   * not need goes to the others, nodes first, then jobs, then events.
   */
  static int[] share(int avail, int... need) {
    int[] got = new int[need.length];
    int left = Math.max(0, avail);
    for (int i = 0; i < need.length; i++) {
      got[i] = Math.min(need[i], Math.max(0, avail) / need.length);
      left -= got[i];
    }
    for (int i = 0; i < need.length; i++) {
      int more = Math.min(need[i] - got[i], left);
      got[i] += more;
      left -= more;
    }
    return got;
  }

  /**
   * One line per allocation ({@code default} for the default session) listing its nodes as {@code
   * NAME USED/SLOTS} ({@code NAME down} for a lost node), wrapped to the width under the label.
   */
  List<String> nodeLines(int width) {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    groups.put("default", new ArrayList<>());
    for (Map<String, Object> n : nodes) {
      String alloc = n.get("allocId") == null ? "default" : String.valueOf(n.get("allocId"));
      if (Boolean.TRUE.equals(n.get("reserved"))) {
        alloc += " (reserved)";
      }
      String cell =
          "down".equals(n.get("agent"))
              ? n.get("name") + " down"
              : n.get("name") + " " + n.get("slotsInUse") + "/" + n.get("slots");
      groups.computeIfAbsent(alloc, k -> new ArrayList<>()).add(cell);
    }
    List<String> out = new ArrayList<>();
    groups.forEach(
        (alloc, cells) -> {
          if (cells.isEmpty()) {
            return;
          }
          String label = alloc + ":";
          StringBuilder line = new StringBuilder(label);
          for (String cell : cells) {
            if (line.length() > label.length() && line.length() + 1 + cell.length() > width) {
              out.add(line.toString());
              line = new StringBuilder(" ".repeat(label.length()));
            }
            line.append(' ').append(cell);
          }
          out.add(line.toString());
        });
    return out;
  }

  /** The jobs table: its header, then a row per application job that has not ended. */
  private List<String> jobLines() {
    Table t = new Table("NAMESPACE", "STATE", "PROCS", "USAGE");
    for (Map<String, Object> j : running()) {
      t.row(
          j.get("nspace"),
          j.get("state"),
          JobsOptions.procsCell(j),
          ListCommands.Jobs.usage(j.get("usage")));
    }
    return t.lines();
  }

  private List<Map<String, Object>> running() {
    return jobs.stream()
        .filter(j -> "application".equals(j.get("kind")) && !"terminated".equals(j.get("state")))
        .toList();
  }

  /** The first {@code n} lines, the last of them saying how many more there are if some are cut. */
  private static List<String> head(List<String> lines, int n, String what) {
    if (lines.size() <= n) {
      return lines;
    }
    if (n <= 0) {
      return List.of();
    }
    List<String> out = new ArrayList<>(lines.subList(0, n - 1));
    out.add("... " + (lines.size() - n + 1) + " more " + what);
    return out;
  }

  /** The line cut to {@code width} characters, its last character a {@code >} when it is cut. */
  static String cut(String line, int width) {
    if (line.length() <= width) {
      return line;
    }
    return width <= 1 ? line.substring(0, Math.max(0, width)) : line.substring(0, width - 1) + ">";
  }

  private static long number(Object o) {
    return o instanceof Number n ? n.longValue() : 0;
  }
}
