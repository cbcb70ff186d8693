package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.endpoint.deliver.OutputStore;
import picocli.CommandLine.Option;

/**
 * {@code jdvm start}'s bounds on the output the controller keeps for {@code jdvm output}
 * (docs/cli.md "jdvm output"): per job and in total, as a byte count with an optional {@code KiB},
 * {@code MiB} or {@code GiB}.
 */
final class OutputKeepOptions {
  @Option(
      names = "--output-keep-per-job",
      paramLabel = "SIZE",
      description =
          "Output kept of each job for jdvm output, its newest (default 1MiB; 64KiB to 32MiB).")
  String perJob;

  @Option(
      names = "--output-keep-total",
      paramLabel = "SIZE",
      description =
          "Output kept of all jobs together; past it the oldest job's goes first (default 64MiB).")
  String total;

  /** The bounds asked for; an {@link IllegalArgumentException} naming the option if bad. */
  OutputStore.Bounds bounds() {
    OutputStore.Bounds d = OutputStore.Bounds.DEFAULT;
    long job = perJob == null ? d.perJobBytes() : size("--output-keep-per-job", perJob);
    long all = total == null ? Math.max(d.totalBytes(), job) : size("--output-keep-total", total);
    try {
      return new OutputStore.Bounds(job, all);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--output-keep-per-job/--output-keep-total: " + e.getMessage());
    }
  }

  /** The options again, for the DVM a {@code --detach} starts. */
  List<String> args() {
    List<String> out = new ArrayList<>();
    if (perJob != null) {
      out.addAll(List.of("--output-keep-per-job", perJob));
    }
    if (total != null) {
      out.addAll(List.of("--output-keep-total", total));
    }
    return out;
  }

  /** {@code 65536}, {@code 512KiB}, {@code 1MiB}, {@code 2GiB}. */
  static long size(String option, String text) {
    String t = text.strip();
    long unit = 1;
    for (String[] u : new String[][] {{"KiB", "10"}, {"MiB", "20"}, {"GiB", "30"}}) {
      if (t.endsWith(u[0])) {
        unit = 1L << Integer.parseInt(u[1]);
        t = t.substring(0, t.length() - 3);
        break;
      }
    }
    try {
      long n = Long.parseLong(t);
      if (n < 0 || n > Long.MAX_VALUE / unit) {
        throw new NumberFormatException();
      }
      return n * unit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " takes a size such as 65536, 512KiB or 1MiB, not '" + text + "'");
    }
  }
}
