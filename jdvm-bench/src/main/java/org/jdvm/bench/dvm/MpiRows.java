package org.jdvm.bench.dvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of {@link MpiLaunchBench}: for one family and N, the floor (N singletons, no launcher),
 * each launcher's median and min with its overhead above the floor's median, and jdvm's overhead
 * over the family launcher's. A way with a failed run gets a failed row and no time.
 */
final class MpiRows {
  static final String CLI = "jdvm run (CLI process)";
  static final String CLIENT = "jdvm client library, spawn to exit";
  private static final String GOAL = "<= 0.5";

  private MpiRows() {}

  /** The runs of one way: how many, how many failed and the first reason, median and min. */
  record Stats(int runs, int failed, String failure, double medianMs, double minMs) {
    static Stats of(List<MpiLaunchBench.Sample> samples) {
      String failure = null;
      int failed = 0;
      List<Long> ok = new ArrayList<>();
      for (MpiLaunchBench.Sample s : samples) {
        if (s.failure() != null) {
          failed++;
          failure = failure == null ? s.failure() : failure;
        } else {
          ok.add(s.ns());
        }
      }
      long[] sorted = ok.stream().mapToLong(Long::longValue).sorted().toArray();
      if (sorted.length == 0) {
        return new Stats(samples.size(), failed, failure, Double.NaN, Double.NaN);
      }
      double median =
          sorted.length % 2 == 1
              ? sorted[sorted.length / 2]
              : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
      return new Stats(samples.size(), failed, failure, ms(median), ms(sorted[0]));
    }

    boolean ok() {
      return failed == 0 && runs > 0;
    }
  }

  /** The rows for {@code n} ranks of family {@code f}; {@code launcherMissing} says why not. */
  static List<Row> forRanks(
      MpiFamily f, int n, String cli, Map<String, Stats> stats, String launcherMissing) {
    String at = f.name() + " -n " + n + ": ";
    Stats floor = stats.get("floor");
    Stats floorOk = floor.ok() ? floor : null;
    List<Row> rows = new ArrayList<>();
    rows.add(
        timeRow(
            at + "floor, " + n + " singletons at once, no launcher", f, "none", n, floor, null));
    if (launcherMissing != null) {
      rows.add(MpiLaunchBench.skipped(at + f.launcherName(), f, n, launcherMissing));
    } else {
      rows.add(
          timeRow(at + f.launcherName(), f, f.launcher(), n, stats.get(f.launcherName()), floorOk));
    }
    rows.add(timeRow(at + CLI, f, "jdvm run, " + cli, n, stats.get(CLI), floorOk));
    rows.add(timeRow(at + CLIENT, f, "jdvm client library", n, stats.get(CLIENT), floorOk));
    rows.add(ratioRow(at, f, n, stats, floorOk, launcherMissing));
    return rows;
  }

  /**
   * A way's median and min; with a floor, its overhead: the median less the floor's median (and,
   * less swayed by a loaded machine, the min less the floor's min). A way with a failed run has no
   * time.
   */
  static Row timeRow(String what, MpiFamily f, String launcher, int n, Stats s, Stats floor) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("family", f.name());
    data.put("launcher", launcher);
    data.put("ranks", n);
    data.put("runs", s.runs());
    if (!s.ok()) {
      data.put("failedRuns", s.failed());
      data.put("failed", s.failure());
      return new Row(
          what, "failed (" + s.failed() + " of " + s.runs() + " runs): " + s.failure(), "", data);
    }
    data.put("medianMs", s.medianMs());
    data.put("minMs", s.minMs());
    String figure =
        String.format(Locale.ROOT, "median %.0f ms, min %.0f ms", s.medianMs(), s.minMs());
    if (floor != null) {
      double overhead = round(s.medianMs() - floor.medianMs());
      data.put("floorMs", floor.medianMs());
      data.put("overheadMs", overhead);
      data.put("floorMinMs", floor.minMs());
      data.put("minOverheadMs", round(s.minMs() - floor.minMs()));
      figure += String.format(Locale.ROOT, ", overhead %.0f ms", overhead);
    }
    return new Row(what, figure, "", data);
  }

  /**
   * jdvm's overheads (the CLI's and the client library's) over the family launcher's: the goal is
   * at most half ({@value #GOAL}). Unknown when a way failed or the launcher is missing.
   */
  private static Row ratioRow(
      String at, MpiFamily f, int n, Map<String, Stats> stats, Stats floor, String missing) {
    String what = at + "jdvm overhead / " + f.launcherName() + " overhead";
    Stats theirs = missing == null ? stats.get(f.launcherName()) : null;
    Stats cli = stats.get(CLI);
    Stats client = stats.get(CLIENT);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("family", f.name());
    data.put("launcher", f.launcher());
    data.put("ranks", n);
    String whyNot =
        missing != null
            ? missing
            : floor == null ? "the floor failed" : !theirs.ok() ? f.launcher() + " failed" : null;
    if (whyNot == null && !cli.ok()) {
      whyNot = "jdvm run failed";
    }
    if (whyNot == null && theirs.medianMs() - floor.medianMs() <= 0) {
      whyNot = f.launcher() + " has no overhead above the floor";
    }
    if (whyNot != null) {
      data.put("skipped", whyNot);
      return new Row(what, "n/a: " + whyNot, GOAL, data);
    }
    double floorMs = floor.medianMs();
    double their = theirs.medianMs() - floorMs;
    double ratio = (cli.medianMs() - floorMs) / their;
    data.put("floorMs", floorMs);
    data.put("launcherOverheadMs", round(their));
    data.put("jdvmOverheadMs", round(cli.medianMs() - floorMs));
    data.put("ratio", twoDecimals(ratio));
    String figure = String.format(Locale.ROOT, "%.2f (jdvm run)", ratio);
    if (client.ok()) {
      double clientRatio = (client.medianMs() - floorMs) / their;
      data.put("clientOverheadMs", round(client.medianMs() - floorMs));
      data.put("clientRatio", twoDecimals(clientRatio));
      figure += String.format(Locale.ROOT, ", %.2f (client library)", clientRatio);
    }
    double theirMin = theirs.minMs() - floor.minMs();
    if (theirMin > 0) {
      double ofMins = (cli.minMs() - floor.minMs()) / theirMin;
      data.put("ratioOfMins", twoDecimals(ofMins));
      figure += String.format(Locale.ROOT, "; of the mins %.2f", ofMins);
      if (client.ok()) {
        double clientOfMins = (client.minMs() - floor.minMs()) / theirMin;
        data.put("clientRatioOfMins", twoDecimals(clientOfMins));
        figure += String.format(Locale.ROOT, ", %.2f", clientOfMins);
      }
    }
    return new Row(what, figure, GOAL, data);
  }

  private static double ms(double ns) {
    return round(ns / 1e6);
  }

  private static double twoDecimals(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
