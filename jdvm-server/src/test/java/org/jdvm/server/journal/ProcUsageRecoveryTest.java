package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;
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
  private long request;

  private Outcome run(Core core, Journal journal, Command c, long nowNs) {
    Outcome o = core.handle(c, nowNs);
    journal.record(c, o, nowNs);
    journal.commit();
    journal.dispatched();
    return o;
  }

  @ParameterizedTest(name = "snapshot threshold {0} bytes")
  @ValueSource(longs = {Long.MAX_VALUE, 1024})
  void aRecoveredControllerStillKnowsWhatEachEndedProcessUsed(long snapshotBytes)
      throws IOException {
    Core core = new Core(CONFIG);
    String job;
    ProcUsage used = new ProcUsage(310_000, 20_000, 3_200, 350_000);
    try (Journal j =
        new Journal(
            dir,
            FsyncPolicy.NEVER,
            Long.MAX_VALUE,
            snapshotBytes,
            core,
            CONFIG,
            RecoveredJournal.fresh(CONFIG))) {
      Outcome reg = run(core, j, new Request.RegisterTool(new RequestId(++request), null), SECOND);
      String tool = ((Change.NamespaceRegistered) reg.changes().get(0)).namespace();
      App app = new App("sh", List.of("sh"), List.of(), null, 2, List.of());
      Outcome spawned =
          run(
              core,
              j,
              new Request.Spawn(
                  new RequestId(++request),
                  new Proc(tool, 0),
                  List.of(app),
                  null,
                  null,
                  null,
                  null,
                  MapBy.SLOT),
              2 * SECOND);
      job = ((Change.JobSpawned) spawned.changes().get(0)).namespace();
      run(
          core,
          j,
          new Report.ProcsLaunched(
              "n0", job, List.of(new Report.LaunchedProc(0, 100), new Report.LaunchedProc(1, 101))),
          2 * SECOND);
      Outcome ended = run(core, j, new Report.ProcExited(job, 0, 0, 0, used), 3 * SECOND);
      assertThat(ended.changes()).contains(new Change.ProcUsed(job, 0, used));
      // Rank 1 ended without a usage (its node could not tell): none is recorded for it.
      Outcome other = run(core, j, new Report.ProcExited(job, 1, 0, 0), 3 * SECOND);
      assertThat(other.changes()).noneMatch(c -> c instanceof Change.ProcUsed);
      for (int i = 0; i < 40; i++) { // enough bytes for a snapshot when the threshold is 1 KiB
        run(core, j, new Request.RegisterTool(new RequestId(++request), null), 4 * SECOND);
      }
    }
    if (snapshotBytes == 1024) {
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
        assertThat(files.map(f -> f.getFileName().toString()))
            .anyMatch(n -> n.startsWith("snapshot-"));
      }
    }
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
