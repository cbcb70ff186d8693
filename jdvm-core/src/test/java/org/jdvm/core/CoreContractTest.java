package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jdvm.core.TestDvm.proc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.engine.Core;
import org.jdvm.core.job.RequesterRejection;
import org.jdvm.core.query.AllocationStatus;
import org.jdvm.core.query.JobView;
import org.jdvm.core.state.State;
import org.jdvm.core.state.StateDigest;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/** The contract of {@link Core} with its shell: time, identity, outcomes, queries, retention. */
class CoreContractTest {

  @Test
  void timeThatGoesBackwardsFailsTheCommandLoudlyAndChangesNothing() {
    Core core = new Core(CoreConfig.of("jdvm", TestDvm.specs("n", 1, 1)));
    core.handle(new Report.Tick(), 10);
    String before = core.digest();
    assertThatThrownBy(() -> core.handle(new Report.Tick(), 9))
        .isInstanceOf(CommandFailed.class)
        .cause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("time went backwards");
    assertThat(core.digest()).isEqualTo(before);
    assertThat(core.handle(new Report.Tick(), 10).rejected()).isFalse();
  }

  @Test
  void losingTheControllersOwnNodeIsMalformedInputThatFailsBeforeAnythingChanges() {
    TestDvm dvm = TestDvm.withNodes(2, 1);
    String before = dvm.digest();
    assertThatThrownBy(() -> dvm.handle(new Report.NodeLost("n0")))
        .isInstanceOf(CommandFailed.class)
        .cause()
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(dvm.digest()).isEqualTo(before);
  }

  @Test
  void aRequestFromANamespaceTheCoreDoesNotKnowIsRefusedAndChangesNothing() {
    TestDvm dvm = TestDvm.withNodes(1, 1);
    String before = dvm.digest();
    Outcome o = dvm.handle(Request.Spawn.of(dvm.rid(), proc("stranger"), TestDvm.apps(1)));
    assertThat(o.rejection()).isEqualTo(RequesterRejection.UNKNOWN_NAMESPACE);
    assertThat(TestDvm.reply(o).status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(dvm.digest()).isEqualTo(before);
  }

  @Test
  void replayingEveryOutcomesChangesThroughApplyRebuildsTheSameState() {
    TestDvm dvm = TestDvm.withNodes(2, 2);
    List<Change> journal = new ArrayList<>();
    String tool = dvm.tool();
    journal.addAll(dvm.last.changes());
    String r = dvm.reserve(tool, 2, "s1", "s2");
    String job = dvm.spawnLaunched(tool, 3, r, "");
    dvm.exitAll(job);
    dvm.handle(new Report.ToolDeparted(tool, false));
    // the harness keeps only the last outcome, so replay the whole run from a recording core
    Core recording = new Core(dvm.core.config());
    State replica = new State(dvm.core.config());
    for (Command c : script(tool, r, job)) {
      Outcome o = recording.handle(c, 0);
      o.changes().forEach(replica::apply);
    }
    assertThat(StateDigest.of(replica)).isEqualTo(recording.digest());
    assertThat(recording.digest()).isEqualTo(dvm.digest());
  }

  /** The same run as above, as commands. */
  private static List<Command> script(String tool, String r, String job) {
    List<Command> s = new ArrayList<>();
    s.add(new Request.RegisterTool(new RequestId(1), null));
    s.add(
        Request.Allocate.builder(new RequestId(2), proc(tool), AllocDirective.NEW)
            .nodeCount(2)
            .inheritance(2)
            .build());
    s.add(
        new Report.SchedulerGranted(
            1, List.of(new NodeSpec("s1", 4), new NodeSpec("s2", 4)), null, null));
    s.add(
        Request.Spawn.of(new RequestId(3), proc(tool), TestDvm.apps(3)).withTarget(List.of(r, "")));
    s.add(
        new Report.ProcsLaunched(
            "s1",
            job,
            List.of(
                new Report.LaunchedProc(0, 100),
                new Report.LaunchedProc(1, 101),
                new Report.LaunchedProc(2, 102))));
    for (int rank = 0; rank < 3; rank++) {
      s.add(new Report.ProcExited(job, rank, 0, 0));
    }
    s.add(new Report.ToolDeparted(tool, false));
    return s;
  }

  @Test
  void theJobTableKeepsOnlyTheConfiguredNumberOfTerminatedJobsNothingStillNeeds() {
    TestDvm dvm = new TestDvm(CoreConfig.of("jdvm", TestDvm.specs("n", 1, 8)).retaining(2));
    String tool = dvm.tool();
    String parent = dvm.spawnLaunched(tool, 1);
    String child = dvm.spawnLaunched(parent, 1);
    dvm.exitAll(parent);
    for (int i = 0; i < 5; i++) {
      dvm.exitAll(dvm.spawnLaunched(tool, 1));
    }
    // the parent has a live descendant, so it stays; of the others only the newest two remain
    assertThat(dvm.core.view().job(parent)).isPresent();
    long terminated =
        dvm.core.view().jobs().stream().filter(j -> j.state() == JobView.State.TERMINATED).count();
    assertThat(terminated).isEqualTo(3);
    // once the child ends, both are retirable; the older retirable jobs go first
    dvm.exitAll(child);
    List<String> kept =
        dvm.core.view().jobs().stream()
            .filter(j -> j.state() == JobView.State.TERMINATED)
            .map(JobView::namespace)
            .toList();
    assertThat(kept).containsExactlyInAnyOrder(parent, child);
  }

  @Test
  void aNamespaceNamesOneJobEverEvenAfterItIsRetired() {
    TestDvm dvm = new TestDvm(CoreConfig.of("jdvm", TestDvm.specs("n", 1, 8)).retaining(0));
    dvm.handle(new Request.RegisterTool(dvm.rid(), "mine"));
    dvm.handle(new Report.ToolDeparted("mine", false));
    assertThat(dvm.core.view().job("mine")).isEmpty();
    Outcome again = dvm.handle(new Request.RegisterTool(dvm.rid(), "mine"));
    assertThat(TestDvm.reply(again).status()).isEqualTo(PmixStatus.ERR_EXISTS);
  }

  @Test
  void eachOutcomeReportsTheEarliestSessionDeadline() {
    TestDvm dvm = TestDvm.withNodes(1, 1);
    String sched = dvm.scheduler();
    assertThat(dvm.last.nextDeadlineNs()).isEqualTo(Outcome.NO_DEADLINE);
    dvm.nowNs = 5_000_000_000L;
    dvm.handle(
        Request.SessionControl.builder(dvm.rid(), proc(sched), 1)
            .operations(SessionOp.INSTANTIATE)
            .timeoutSeconds(60L)
            .build());
    dvm.handle(
        Request.SessionControl.builder(dvm.rid(), proc(sched), 2)
            .operations(SessionOp.INSTANTIATE)
            .allocTimeSeconds(30)
            .build());
    assertThat(dvm.last.nextDeadlineNs()).isEqualTo(35_000_000_000L);
    dvm.nowNs = 35_000_000_000L;
    Outcome tick = dvm.handle(new Report.Tick());
    assertThat(tick.nextDeadlineNs()).isEqualTo(65_000_000_000L);
    assertThat(dvm.core.view().allocationIds()).containsExactly(sched + ".1");
  }

  @Test
  void allocationStatusIsAnsweredByEitherIdForPendingAndLiveAllocations() {
    TestDvm dvm = TestDvm.withNodes(1, 1);
    String tool = dvm.tool();
    Outcome asked =
        dvm.handle(
            dvm.allocate(tool, AllocDirective.NEW)
                .nodeCount(1)
                .allocReqId("q")
                .allocId("A")
                .build());
    assertThat(dvm.core.view().allocationStatus("q").orElseThrow().state())
        .isEqualTo(AllocationStatus.State.PENDING);
    assertThat(dvm.core.view().allocationStatus("A").orElseThrow().pending().askId())
        .isEqualTo(TestDvm.only(asked, Effect.AskScheduler.class).askId());
    dvm.handle(new Report.SchedulerGranted(1, List.of(new NodeSpec("s1", 2)), "slurm-1", 60L));
    AllocationStatus byReq = dvm.core.view().allocationStatus("q").orElseThrow();
    assertThat(byReq.state()).isEqualTo(AllocationStatus.State.ACTIVE);
    assertThat(byReq.allocation().allocId()).isEqualTo("A");
    assertThat(dvm.core.view().allocation("slurm-1").orElseThrow().allocId()).isEqualTo("A");
    assertThat(dvm.core.view().allocationStatus("nothing")).isEmpty();
  }

  @Test
  void theViewsAreLiveNotCopies() {
    TestDvm dvm = TestDvm.withNodes(1, 1);
    var jobs = dvm.core.view().jobs();
    dvm.tool();
    assertThat(jobs).hasSize(1);
  }

  @Test
  void aSecondTeardownAndEveryReportAfterItChangeNothing() {
    TestDvm dvm = TestDvm.withNodes(1, 1);
    dvm.tool();
    dvm.handle(new Report.Teardown());
    String after = dvm.digest();
    assertThat(dvm.handle(new Report.Teardown()).effects()).isEmpty();
    assertThat(dvm.handle(new Report.NodeLost("n0")).effects()).isEmpty();
    assertThat(dvm.digest()).isEqualTo(after);
  }
}
