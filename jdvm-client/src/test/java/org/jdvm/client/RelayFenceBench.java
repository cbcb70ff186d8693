package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost of a fence with data through node agents' relays (docs/protocol.md "Node agents"):
 * {@code pmix_fence_bench} (put, commit, fence with {@code pmix.collect}, timed by the libpmix
 * client itself) on N virtual nodes of 2 slots, with every process connected to the controller
 * (direct), behind its node's relay, and behind relays that answer locally (gather their node's
 * fence entries, answer same-node gets). Prints one {@code RELAY_BENCH} line per run; asserts only
 * that every rank succeeded. Not a test of the suite (its name does not end in Test); speed is
 * reported, never asserted. Run it with
 *
 * <pre>
 * mvn -B -q -o -pl jdvm-client -am verify -Dtest=RelayFenceBench -Djdvm.bench.relay=true \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
class RelayFenceBench {
  private static final Pattern LINE =
      Pattern.compile("FENCE_BENCH rank=(\\d+) size=(\\d+) .*median_us=([0-9.]+)");

  @TempDir Path dir;

  @Test
  void fenceCostDirectThroughRelaysAndGathered() throws Exception {
    assumeTrue(Boolean.getBoolean("jdvm.bench.relay"), "a benchmark: -Djdvm.bench.relay=true");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    String missing = WireupPrograms.build(bin, "pmix_fence_bench");
    assumeTrue(missing == null, missing);
    int iterations = Integer.getInteger("jdvm.bench.iterations", 200);
    for (int nodes : List.of(2, 4, 8)) {
      for (String mode : List.of("direct", "relay", "local")) {
        Path home = Files.createDirectories(dir.resolve(mode + nodes));
        try (TestDvm dvm = TestDvm.start(home, nodes, 2, 0)) {
          RelayedNodes relays =
              mode.equals("direct") ? null : RelayedNodes.attach(dvm, mode.equals("local"));
          try {
            TestDvm.Output out = new TestDvm.Output();
            Job job =
                dvm.tool(out)
                    .spawn(
                        SpawnRequest.of(
                                bin.resolve("pmix_fence_bench").toString(),
                                String.valueOf(iterations),
                                "100")
                            .procs(2 * nodes)
                            .notifyCompletion(true)
                            .build());
            JobEnd end = job.end().get(300, TimeUnit.SECONDS);
            List<Double> medians = new ArrayList<>();
            for (String l : WireupPrograms.lines(out)) {
              Matcher m = LINE.matcher(l);
              if (m.find()) {
                medians.add(Double.parseDouble(m.group(3)));
              }
            }
            assertThat(end.exitCode()).isZero();
            assertThat(medians).hasSize(2 * nodes);
            Collections.sort(medians);
            System.out.printf(
                "RELAY_BENCH nodes=%d procs=%d mode=%s median_us=%.1f max_median_us=%.1f"
                    + " frames_up=%d node_entries=%d%n",
                nodes,
                2 * nodes,
                mode,
                medians.get(medians.size() / 2),
                medians.getLast(),
                relays == null ? 0 : relays.framesUp(),
                relays == null ? 0 : relays.nodeEntries());
          } finally {
            if (relays != null) {
              relays.close();
            }
          }
        }
      }
    }
  }
}
