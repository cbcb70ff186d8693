package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code jdvm bench --procs N} refuses sizes it cannot run with one line and exit status 2, before
 * any DVM starts (docs/cli.md "jdvm bench").
 */
class ProcsBenchOptionsTest {
  @Test
  void aSizeBelowOneIsAUsageErrorAndNothingStarts() {
    for (String[] args :
        new String[][] {
          {"bench", "--procs", "0"},
          {"bench", "--procs", "10", "--procs-nodes", "0"},
          {"bench", "--procs", "10", "--list-runs", "0"},
          {"bench", "--procs", "10", "--list-nodes", "-1"}
        }) {
      CliRun r = CliRun.of(args);
      assertThat(r.status()).as(String.join(" ", args)).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.err())
          .contains(
              "jdvm bench: --procs and --procs-nodes take at least 1, --list-nodes at least 0,"
                  + " --list-runs at least 1");
      assertThat(r.out()).isEmpty();
    }
  }
}
