package org.jdvm.bench.dvm;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One measured figure of {@code jdvm bench}: what was measured, the figure as the table shows it,
 * the target it is read against (empty when none) and the figures behind it, as {@code --json}
 * prints them.
 */
public record Row(String what, String figure, String target, Map<String, Object> data) {
  /** The median and p99 of {@code ns}, in milliseconds. */
  static Row latency(String what, long[] ns, String target) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2] / 1e6;
    double p99 =
        sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1e6;
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("samples", ns.length);
    data.put("medianMs", round(median));
    data.put("p99Ms", round(p99));
    return new Row(
        what, String.format(Locale.ROOT, "median %.2f ms, p99 %.2f ms", median, p99), target, data);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
