package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm tree} (docs/cli.md): the job genealogy as a tree, like {@code flux pstree}: each job
 * with its state, the allocations it owns with their disposition and what becomes of them when it
 * ends (spec §8.2.1.9.2), the reservations it was spawned into, the allocations it owned that
 * ended, and what it used when the DVM has a record of it.
 */
@Command(
    description =
        "The job genealogy: each job with its state and the allocations it owns or was spawned"
            + " into, and what becomes of them when it ends.",
    mixinStandardHelpOptions = true)
final class TreeCommand extends DvmCommand implements Callable<Integer> {
  @Option(names = "--json", description = "Print the JSON array documented in docs/cli.md.")
  boolean json;

  @Override
  public Integer call() {
    return connected(OutputHandler.DISCARD, json, this::show);
  }

  private int show(JdvmClient client) throws PmixException {
    String text = client.treeJson();
    if (json) {
      out.println(text);
      return Main.EXIT_OK;
    }
    List<Map<String, Object>> jobs =
        shown(Explaining.maps(Json.parse(text)), client.self().nspace());
    for (String line : lines(jobs)) {
      out.println(line);
    }
    return Main.EXIT_OK;
  }

  /**
   * What the text shows: every job but this command's own namespace and the tools (or schedulers)
   * that have terminated with nothing under them and no allocation to tell of (the {@code jdvm}
   * commands that came and went); {@code --json} lists them all.
   */
  static List<Map<String, Object>> shown(List<Map<String, Object>> jobs, String self) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      Map<String, Object> j = jobs.get(i);
      int depth = ((Number) j.get("depth")).intValue();
      boolean leaf =
          i + 1 == jobs.size() || ((Number) jobs.get(i + 1).get("depth")).intValue() <= depth;
      boolean quiet =
          !"application".equals(j.get("kind"))
              && "terminated".equals(j.get("state"))
              && leaf
              && ((List<?>) j.get("owns")).isEmpty()
              && ((List<?>) j.get("endedAllocations")).isEmpty();
      if (!quiet && !self.equals(j.get("nspace"))) {
        out.add(j);
      }
    }
    return out;
  }

  /** The tree drawn from the depth-first list, each job's details indented under it. */
  static List<String> lines(List<Map<String, Object>> jobs) {
    List<String> out = new ArrayList<>();
    List<Boolean> open = new ArrayList<>(); // per depth: whether a later sibling follows
    for (int i = 0; i < jobs.size(); i++) {
      Map<String, Object> j = jobs.get(i);
      int depth = ((Number) j.get("depth")).intValue();
      boolean last = isLast(jobs, i, depth);
      while (open.size() > depth) {
        open.remove(open.size() - 1);
      }
      StringBuilder pad = new StringBuilder();
      for (int d = 1; d < depth; d++) {
        pad.append(open.get(d) ? "│  " : "   ");
      }
      String branch = depth == 0 ? "" : last ? "└─ " : "├─ ";
      out.add(pad + branch + head(j));
      open.add(!last);
      String under = pad + (depth == 0 ? "" : last ? "   " : "│  ") + "  ";
      for (String d : details(j)) {
        out.add(under + d);
      }
    }
    return out;
  }

  private static boolean isLast(List<Map<String, Object>> jobs, int i, int depth) {
    for (int k = i + 1; k < jobs.size(); k++) {
      int d = ((Number) jobs.get(k).get("depth")).intValue();
      if (d <= depth) {
        return d < depth;
      }
    }
    return true;
  }

  private static String head(Map<String, Object> j) {
    StringBuilder s = new StringBuilder();
    s.append(j.get("nspace")).append(' ').append(j.get("kind")).append(' ').append(j.get("state"));
    if (j.get("exitCode") != null) {
      s.append(" (exit ").append(j.get("exitCode")).append(')');
    }
    if ("application".equals(j.get("kind"))) {
      s.append(", ")
          .append(j.get("procs"))
          .append(" proc")
          .append(((Number) j.get("procs")).intValue() == 1 ? "" : "s")
          .append(" in ");
      List<String> in = new ArrayList<>();
      for (Object t : (List<?>) j.get("targets")) {
        in.add(String.valueOf(t).isEmpty() ? "default" : String.valueOf(t));
      }
      s.append(String.join(" + ", in));
    }
    return s.toString();
  }

  private static List<String> details(Map<String, Object> j) {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> a : Explaining.maps(j.get("owns"))) {
      out.add(
          "owns "
              + a.get("allocId")
              + " ("
              + (Boolean.TRUE.equals(a.get("reserved")) ? "reserved" : "shared")
              + ", "
              + String.join(",", ((List<?>) a.get("nodes")).stream().map(String::valueOf).toList())
              + ", "
              + a.get("inheritance")
              + "): "
              + whenOwnerEnds(j, a));
    }
    for (Object id : (List<?>) j.get("spawnedInto")) {
      out.add("spawned into " + id + " (an owner of it, spec §8.2.1.7)");
    }
    for (Map<String, Object> a : Explaining.maps(j.get("endedAllocations"))) {
      out.add("owned " + a.get("allocId") + ", ended: " + Explaining.ended(a));
    }
    if (j.get("usage") instanceof Map<?, ?> usage) {
      List<String> kv = new ArrayList<>();
      usage.forEach((k, v) -> kv.add(k + "=" + v));
      out.add("used " + String.join(" ", kv));
    }
    return out;
  }

  /** What the disposition does when the owner (or its last descendant) ends. */
  private static String whenOwnerEnds(Map<String, Object> job, Map<String, Object> a) {
    Map<String, Object> w = Explaining.cast((Map<?, ?>) a.get("whenOwnerEnds"));
    String what =
        "release".equals(w.get("then"))
            ? "its nodes go back to the scheduler"
            : "its nodes stay, unreserved, in the default session";
    String when =
        "atOwnerEnd".equals(w.get("when"))
            ? "when " + job.get("nspace") + " ends"
            : "when " + job.get("nspace") + " and its last descendant have ended";
    return what + " " + when + " (spec §8.2.1.9.2)";
  }
}
