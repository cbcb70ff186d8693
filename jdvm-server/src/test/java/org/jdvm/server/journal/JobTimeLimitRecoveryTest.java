package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.engine.Core;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job's time limit ({@code PMIX_JOB_TIMEOUT}, docs/cli.md "Environment, working directory, time
 * limit") is state the core keeps, so a controller that restarts from its journal — from the
 * records alone, or from a snapshot taken after the spawn — still ends the job at its time, with
 * {@code PMIX_ERR_TIMEOUT}.
 */
class JobTimeLimitRecoveryTest {
  private static final CoreConfig CONFIG = CoreConfig.of("tl", List.of(new NodeSpec("n0", 4)));
  private static final long SECOND = 1_000_000_000L;

  @TempDir Path dir;

  @ParameterizedTest(name = "snapshot threshold {0} bytes")
  @ValueSource(longs = {Long.MAX_VALUE, 1024})
  void aRecoveredControllerEndsTheJobAtItsTimeLimit(long snapshotBytes) throws IOException {
    Core core;
    String job;
    try (JournaledCore j = new JournaledCore(dir, CONFIG, snapshotBytes)) {
      core = j.core;
      String tool = j.registerTool(SECOND);
      App app =
          new App(
              "sleep",
              List.of("sleep", "60"),
              List.of(),
              null,
              2,
              List.of(Info.of(PmixKeys.JOB_TIMEOUT, Value.integer(5))));
      Outcome spawned = j.spawn(tool, app, 2 * SECOND);
      job = ((Change.JobSpawned) spawned.changes().get(0)).namespace();
      assertThat(spawned.nextDeadlineNs()).isEqualTo(7 * SECOND);
      j.padForASnapshot(3 * SECOND);
    }
    JournaledCore.assertSnapshotWhenSmall(dir, snapshotBytes);
    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    Core again = r.core();
    assertThat(again.digest()).isEqualTo(core.digest());
    assertThat(again.handle(new Report.Tick(), 6 * SECOND).changes()).isEmpty();
    Outcome due = again.handle(new Report.Tick(), 7 * SECOND);
    assertThat(due.changes())
        .contains(
            new Change.JobDeadlineSet(job, null),
            new Change.JobAborting(job, PmixStatus.ERR_TIMEOUT));
  }
}
