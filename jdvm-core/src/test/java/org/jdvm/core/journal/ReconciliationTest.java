package org.jdvm.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.Change;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.TestDvm;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/**
 * docs/journal.md "Reconciliation": after a restart, a process no agent runs any more ended killed,
 * one never started failed to launch, one an agent still runs goes on; applied through the core,
 * every job that lost its processes ends.
 */
class ReconciliationTest {
  @Test
  void runningProcessesNobodyRunsEndKilledAndUnstartedOnesFailToLaunch() {
    TestDvm dvm = TestDvm.withNodes(2, 4);
    String tool = dvm.tool();
    String running = dvm.spawnLaunched(tool, 2);
    Outcome spawn = dvm.handle(Request.Spawn.of(dvm.rid(), TestDvm.proc(tool), TestDvm.apps(1)));
    String placed = ((Change.JobSpawned) spawn.changes().get(0)).namespace();
    String kept = dvm.spawnLaunched(tool, 1);

    List<Report> reports =
        Reconciliation.afterRestart(
            dvm.core().view(), Set.of(new Reconciliation.Running(kept, 0)), Set.of());

    assertThat(reports)
        .containsExactlyInAnyOrder(
            new Report.ProcExited(running, 0, 0, 9),
            new Report.ProcExited(running, 1, 0, 9),
            new Report.LaunchFailed(
                dvm.core().view().job(placed).orElseThrow().procs().get(0).node(),
                placed,
                List.of(0),
                PmixStatus.ERR_JOB_FAILED_TO_LAUNCH));
    reports.forEach(dvm::handle);
    assertThat(dvm.core().view().job(running).orElseThrow().state())
        .isEqualTo(JobView.State.TERMINATED);
    assertThat(dvm.core().view().job(placed).orElseThrow().state())
        .isEqualTo(JobView.State.TERMINATED);
    assertThat(dvm.core().view().job(kept).orElseThrow().state()).isEqualTo(JobView.State.RUNNING);
    assertThat(Reconciliation.afterRestart(dvm.core().view(), Set.of(), Set.of()))
        .containsExactly(new Report.ProcExited(kept, 0, 0, 9));
  }

  @Test
  void aProcessThatEndedWhileTheControllerWasAwayEndsWithTheStatusItsAgentSawOnce() {
    TestDvm dvm = TestDvm.withNodes(2, 4);
    String tool = dvm.tool();
    String job = dvm.spawnLaunched(tool, 2);
    Reconciliation.Running rank0 = new Reconciliation.Running(job, 0);
    Reconciliation.Running rank1 = new Reconciliation.Running(job, 1);

    List<Report> reports =
        Reconciliation.afterRestart(
            dvm.core().view(), Set.of(rank1), Map.of(rank0, ProcEnd.exited(3, 0)), Set.of());

    assertThat(reports).containsExactly(new Report.ProcExited(job, 0, 3, 0));
    reports.forEach(dvm::handle);
    ProcView ended = dvm.core().view().job(job).orElseThrow().procs().get(0);
    assertThat(ended.state()).isEqualTo(ProcView.State.ENDED);
    assertThat(ended.exitCode()).isEqualTo(3);
    assertThat(
            Reconciliation.afterRestart(
                dvm.core().view(), Set.of(rank1), Map.of(rank0, ProcEnd.exited(3, 0)), Set.of()))
        .as("a process already ended is not reported again")
        .isEmpty();
  }

  @Test
  void aProcessASignalKilledWhileTheControllerWasAwayIsReportedKilledByThatSignal() {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String job = dvm.spawnLaunched(dvm.tool(), 1);
    Reconciliation.Running rank0 = new Reconciliation.Running(job, 0);

    List<Report> reports =
        Reconciliation.afterRestart(
            dvm.core().view(), Set.of(), Map.of(rank0, ProcEnd.exited(0, 11)), Set.of());

    assertThat(reports)
        .as("SIGSEGV, not the shell's 139")
        .containsExactly(new Report.ProcExited(job, 0, 0, 11));
  }

  @Test
  void theDispositionsOfAJobThatEndedWhileTheControllerWasAwayApplyOnceWhateverComesTwice() {
    for (AllocInheritance how : AllocInheritance.values()) {
      TestDvm dvm = TestDvm.withNodes(1, 4);
      String tool = dvm.tool();
      String owner = dvm.spawnLaunched(tool, 1);
      dvm.reserve(owner, how.code(), "s1");
      Map<Reconciliation.Running, ProcEnd> ended =
          Map.of(new Reconciliation.Running(owner, 0), ProcEnd.exited(0, 0));

      List<Report> reports =
          Reconciliation.afterRestart(dvm.core().view(), Set.of(), ended, Set.of());
      assertThat(reports).containsExactly(new Report.ProcExited(owner, 0, 0, 0));
      List<Effect> effects = new ArrayList<>();
      reports.forEach(r -> effects.addAll(dvm.handle(r).effects()));
      String once = dvm.digest();

      assertThat(dvm.core().view().job(owner).orElseThrow().state())
          .isEqualTo(JobView.State.TERMINATED);
      assertThat(effects.stream().anyMatch(e -> e instanceof Effect.HandBackNodes))
          .as("%s hands back", how)
          .isEqualTo(how.returnsToScheduler());
      assertThat(dvm.core().view().node("s1").isPresent())
          .as("%s keeps the node", how)
          .isEqualTo(!how.returnsToScheduler());
      // A second restart, or the exit arriving again, changes nothing.
      assertThat(Reconciliation.afterRestart(dvm.core().view(), Set.of(), ended, Set.of()))
          .isEmpty();
      Outcome again = dvm.handle(new Report.ProcExited(owner, 0, 0, 0));
      assertThat(again.effects()).noneMatch(e -> e instanceof Effect.HandBackNodes);
      assertThat(dvm.digest()).as("%s applied once", how).isEqualTo(once);
    }
  }
}
