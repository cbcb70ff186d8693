package org.jdvm.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code jdvm jobs}' table (docs/cli.md "jdvm nodes | allocs | jobs"): one line per job, whose
 * PROCS column lists a small job's processes and counts a large one's by state; {@code --procs}
 * lists one line per process, the first {@code --limit} ({@link #PROCS_SHOWN}) unless {@code
 * --all}. {@code --json} stays the complete listing.
 */
final class JobsOptions {
  /** The most processes {@code --procs} prints without {@code --all}. */
  static final int PROCS_SHOWN = 1000;

  /** A job with at most this many processes shows each in its PROCS column. */
  static final int PROCS_IN_CELL = 8;

  @Option(
      names = "--procs",
      description =
          "One line per process (namespace, rank, node, pid, state, exit), the first "
              + PROCS_SHOWN
              + " unless --all.")
  boolean procs;

  @Option(names = "--all", description = "With --procs: every process.")
  boolean all;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "With --procs: the most processes printed (default " + PROCS_SHOWN + ").")
  int limit = PROCS_SHOWN;

  /**
   * A job's PROCS cell: {@code 0@node4,1@node5 exit 0} for up to {@link #PROCS_IN_CELL} processes,
   * else their count by state, {@code 20000: 19998 running, 2 ended}.
   */
  @SuppressWarnings("unchecked")
  static String procsCell(Map<String, Object> job) {
    List<Object> list = job.get("procs") instanceof List<?> l ? (List<Object>) l : List.of();
    long count = job.get("procCount") instanceof Number n ? n.longValue() : list.size();
    if (count == 0) {
      return "-";
    }
    if (count <= PROCS_IN_CELL && list.size() == count) {
      StringBuilder sb = new StringBuilder();
      for (Object o : list) {
        Map<String, Object> p = (Map<String, Object>) o;
        sb.append(sb.isEmpty() ? "" : ",").append(p.get("rank")).append('@').append(p.get("node"));
        if (p.get("exitStatus") != null) {
          sb.append(" exit ").append(p.get("exitStatus"));
        }
      }
      return sb.toString();
    }
    StringBuilder sb = new StringBuilder().append(count).append(':');
    if (job.get("procStates") instanceof Map<?, ?> states) {
      String sep = " ";
      for (Map.Entry<?, ?> e : states.entrySet()) {
        sb.append(sep).append(e.getValue()).append(' ').append(e.getKey());
        sep = ", ";
      }
    }
    return sb.toString();
  }

  /** One line per process of {@code jobs} (the complete listing), bounded unless {@code --all}. */
  @SuppressWarnings("unchecked")
  void printProcs(List<Map<String, Object>> jobs, PrintStream out) {
    Table t = new Table("NAMESPACE", "RANK", "NODE", "PID", "STATE", "EXIT");
    long total = 0;
    for (Map<String, Object> job : jobs) {
      if (!(job.get("procs") instanceof List<?> list)) {
        continue;
      }
      for (Object o : list) {
        if (all || total < limit) {
          Map<String, Object> p = (Map<String, Object>) o;
          t.row(
              job.get("nspace"),
              p.get("rank"),
              p.get("node"),
              p.get("pid"),
              p.get("state"),
              p.get("exitStatus"));
        }
        total++;
      }
    }
    t.print(out);
    if (!all && total > limit) {
      out.println(
          (total - limit)
              + " more processes (of "
              + total
              + "); jdvm jobs --procs --all shows every one");
    }
  }
}
