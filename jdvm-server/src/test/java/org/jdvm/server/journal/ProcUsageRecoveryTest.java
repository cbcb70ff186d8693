package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.Report;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.App;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an ended process used ({@link Change.ProcUsed}, docs/cli.md "jdvm nodes | allocs | jobs") is
 * state the core keeps, so a controller that restarts from its journal — from the records alone, or
 * from a snapshot taken after the process ended — still has it.
 */
class ProcUsageRecoveryTest {
  private static final CoreConfig CONFIG = CoreConfig.of("use", List.of(new NodeSpec("n0", 4)));
  private static final long SECOND = 1_000_000_000L;

  @TempDir Path dir;

  @ParameterizedTest(name = "snapshot threshold {0} bytes")
  @ValueSource(longs = {Long.MAX_VALUE, 1024})
  void aRecoveredControllerStillKnowsWhatEachEndedProcessUsed(long snapshotBytes)
      throws IOException {
    Core core;
    String job;
    ProcUsage used = new ProcUsage(310_000, 20_000, 3_200, 350_000);
    try (JournaledCore j = new JournaledCore(dir, CONFIG, snapshotBytes)) {
      core = j.core;
      String tool = j.registerTool(SECOND);
      App app = new App("sh", List.of("sh"), List.of(), null, 2, List.of());
      Outcome spawned = j.spawn(tool, app, 2 * SECOND);
      job = ((Change.JobSpawned) spawned.changes().get(0)).namespace();
      j.run(
          new Report.ProcsLaunched(
              "n0", job, List.of(new Report.LaunchedProc(0, 100), new Report.LaunchedProc(1, 101))),
          2 * SECOND);
      Outcome ended = j.run(new Report.ProcExited(job, 0, 0, 0, used), 3 * SECOND);
      assertThat(ended.changes()).contains(new Change.ProcUsed(job, 0, used));
      // Rank 1 ended without a usage (its node could not tell): none is recorded for it.
      Outcome other = j.run(new Report.ProcExited(job, 1, 0, 0), 3 * SECOND);
      assertThat(other.changes()).noneMatch(c -> c instanceof Change.ProcUsed);
      j.padForASnapshot(4 * SECOND);
    }
    JournaledCore.assertSnapshotWhenSmall(dir, snapshotBytes);
    Core again = RecoveredJournal.read(dir, CONFIG).core();
    assertThat(again.digest()).isEqualTo(core.digest());
    String ns = job;
    JobView recovered =
        again.view().job(ns).orElseThrow(() -> new AssertionError("job " + ns + " not recovered"));
    assertThat(recovered.procs().get(0).usage()).isEqualTo(used);
    assertThat(recovered.procs().get(1).usage()).isNull();
    assertThat(recovered.usage()).isEqualTo(used);
  }
}
