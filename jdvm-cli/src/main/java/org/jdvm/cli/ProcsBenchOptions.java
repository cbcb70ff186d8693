package org.jdvm.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.bench.dvm.ProcsBench;
import picocli.CommandLine.Option;

/**
 * {@code jdvm bench --procs N} and its options (docs/cli.md "jdvm bench"): many live processes on
 * this machine, the listings while they run, and a DVM of many nodes ({@link ProcsBench}).
 */
final class ProcsBenchOptions {
  @Option(
      names = "--procs",
      paramLabel = "N",
      description =
          "Instead: N live processes (sleep 600) on this machine: time to start them, the"
              + " listings' latency while they run, the controller's and local agents' RSS and"
              + " threads, time to stop.")
  Integer procs;

  @Option(
      names = "--procs-nodes",
      paramLabel = "K",
      description = "The virtual nodes the --procs processes spread over (default 8).")
  int nodes = 8;

  @Option(
      names = "--list-nodes",
      paramLabel = "M",
      description =
          "With --procs, also time 'jdvm nodes' and 'jdvm events' on a DVM of M virtual nodes"
              + " (default 10000; 0 skips).")
  int listNodes = 10_000;

  @Option(
      names = "--list-runs",
      paramLabel = "R",
      description = "With --procs, how many times each listing is timed (default 5).")
  int listRuns = 5;

  /** The settings, or a usage error's line. */
  ProcsBench.Settings settings() {
    if (procs < 1 || nodes < 1 || listNodes < 0 || listRuns < 1) {
      throw new IllegalArgumentException(
          "--procs and --procs-nodes take at least 1, --list-nodes at least 0, --list-runs at"
              + " least 1");
    }
    return new ProcsBench.Settings(
        procs, nodes, listNodes, listRuns, BenchCommand.jdvmInChildJvm(), cli());
  }

  /** The {@code ./jdvm} launcher users run (with its start-up cache) when known, else this JVM. */
  private static List<String> cli() {
    String home = System.getenv("JDVM_HOME");
    if (home != null && Files.isExecutable(Path.of(home, "jdvm"))) {
      return List.of(Path.of(home, "jdvm").toString());
    }
    return BenchCommand.jdvmInChildJvm();
  }
}
