package org.jdvm.bench.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.bench.dvm.MpiRows.Stats;
import org.junit.jupiter.api.Test;

/**
 * How the MPI launch measures judge a run and turn runs into rows: a run counts only when it exited
 * 0 and every rank said hello with the right size; a way with a failed run has no time; the
 * overheads are medians less the floor's (no time of a real run is asserted).
 */
class MpiRowsTest {
  private static final MpiFamily MPICH = MpiFamily.both(false).getFirst();

  @Test
  void aRunCountsOnlyWhenEveryRankSaidHelloAndItExitedZero() {
    String both = "OK mpi_hello rank=1 size=2\nOK mpi_hello rank=0 size=2\n";

    assertThat(MpiLaunchBench.check(0, both, 2)).isNull();
    assertThat(MpiLaunchBench.check(0, "OK mpi_hello rank=0 size=1\n".repeat(2), 2))
        .startsWith("0 of 2 ranks");
    assertThat(MpiLaunchBench.check(0, "OK mpi_hello rank=0 size=2\n", 2)).startsWith("1 of 2");
    assertThat(MpiLaunchBench.check(7, both, 2)).startsWith("exit status 7");
  }

  @Test
  void theOverheadsAreMediansLessTheFloorsAndTheirRatioIsJdvmsOverTheLaunchers() {
    Map<String, Stats> stats = new LinkedHashMap<>();
    stats.put("floor", stats(100, 110, 120));
    stats.put(MPICH.launcherName(), stats(150, 160, 170));
    stats.put(MpiRows.CLI, stats(300, 310, 320));
    stats.put(MpiRows.CLIENT, stats(120, 125, 130));

    List<Row> rows = MpiRows.forRanks(MPICH, 2, "./jdvm", stats, null);

    assertThat(rows).hasSize(5);
    assertThat(rows.get(1).data())
        .containsEntry("launcher", "mpiexec.mpich")
        .containsEntry("medianMs", 160.0)
        .containsEntry("minMs", 150.0)
        .containsEntry("floorMs", 110.0)
        .containsEntry("overheadMs", 50.0);
    assertThat(rows.get(4).data())
        .containsEntry("launcherOverheadMs", 50.0)
        .containsEntry("jdvmOverheadMs", 200.0)
        .containsEntry("ratio", 4.0)
        .containsEntry("clientRatio", 0.3);
    assertThat(rows.get(4).target()).isEqualTo("<= 0.5");
  }

  @Test
  void aWayWithAFailedRunHasNoTimeAndNoRatio() {
    Map<String, Stats> stats = new LinkedHashMap<>();
    stats.put("floor", stats(100));
    stats.put(MPICH.launcherName(), stats(150));
    stats.put(
        MpiRows.CLI,
        Stats.of(
            List.of(
                new MpiLaunchBench.Sample(300_000_000L, null),
                MpiLaunchBench.Sample.failed("1 of 2 ranks said hello"))));
    stats.put(MpiRows.CLIENT, stats(120));

    List<Row> rows = MpiRows.forRanks(MPICH, 2, "./jdvm", stats, null);

    assertThat(rows.get(2).data()).doesNotContainKey("medianMs").containsEntry("failedRuns", 1);
    assertThat(rows.get(2).figure()).startsWith("failed (1 of 2 runs): 1 of 2 ranks");
    assertThat(rows.get(4).figure()).isEqualTo("n/a: jdvm run failed");
  }

  private static Stats stats(long... ms) {
    return Stats.of(
        java.util.Arrays.stream(ms)
            .mapToObj(m -> new MpiLaunchBench.Sample(m * 1_000_000, null))
            .toList());
  }
}
