package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jdvm.core.TestDvm.proc;

import java.util.List;
import org.jdvm.core.alloc.AllocateRejection;
import org.jdvm.core.alloc.ReleaseRejection;
import org.jdvm.core.session.SessionRejection;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/**
 * One test per {@link Limits} bound (house-style.md "TigerBeetle"): a request past it is refused
 * with its status, the reply is the only effect, and the state digest is what it was before.
 */
class LimitsTest {

  private static TestDvm dvm(int nodes, int slots, Limits limits) {
    return new TestDvm(CoreConfig.of("jdvm", TestDvm.specs("n", nodes, slots)).limitedBy(limits));
  }

  /** Handles {@code command} and checks it was refused for {@code why}, changing nothing. */
  private static void assertRefused(TestDvm dvm, Request command, Rejection why, int status) {
    String before = dvm.digest();
    Outcome o = dvm.handle(command);
    assertThat(o.rejection()).isEqualTo(why);
    assertThat(o.changes()).isEmpty();
    assertThat(o.effects()).hasSize(1);
    Effect.Reply reply = TestDvm.reply(o);
    assertThat(reply.requestId()).isEqualTo(command.requestId());
    assertThat(reply.status()).isEqualTo(status);
    assertThat(dvm.digest()).isEqualTo(before);
  }

  private static App app(int procs) {
    return new App("app", List.of("app"), List.of(), null, procs, List.of());
  }

  @Test
  void aSpawnOfTwoAppsOfIntegerMaxValueProcessesIsRefusedOutOfResourceNotAnOverflow() {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String tool = dvm.tool();
    assertRefused(
        dvm,
        Request.Spawn.of(
            dvm.rid(), proc(tool), List.of(app(Integer.MAX_VALUE), app(Integer.MAX_VALUE))),
        OverLimit.PROCS_PER_SPAWN,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aSpawnOfMoreProcessesThanOneSpawnMayStartIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(1, 16, Limits.DEFAULT.withProcsPerSpawn(4));
    String tool = dvm.tool();
    assertRefused(
        dvm,
        Request.Spawn.of(dvm.rid(), proc(tool), List.of(app(3), app(2))),
        OverLimit.PROCS_PER_SPAWN,
        PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(dvm.handle(Request.Spawn.of(dvm.rid(), proc(tool), List.of(app(4)))).rejected())
        .isFalse();
  }

  @Test
  void aSpawnThatWouldTakeTheDvmPastItsLiveProcessesIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(1, 16, Limits.DEFAULT.withLiveProcs(5));
    String tool = dvm.tool();
    String job = dvm.spawnLaunched(tool, 3);
    assertRefused(
        dvm,
        Request.Spawn.of(dvm.rid(), proc(tool), List.of(app(3))),
        OverLimit.LIVE_PROCS,
        PmixStatus.ERR_OUT_OF_RESOURCE);
    dvm.exitAll(job);
    assertThat(dvm.handle(Request.Spawn.of(dvm.rid(), proc(tool), List.of(app(3)))).rejected())
        .as("the slots of ended processes count no more")
        .isFalse();
  }

  @Test
  void aSpawnOfMoreAppsThanOneSpawnMayHaveIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(1, 16, Limits.DEFAULT.withAppsPerSpawn(2));
    String tool = dvm.tool();
    assertRefused(
        dvm,
        Request.Spawn.of(dvm.rid(), proc(tool), List.of(app(1), app(1), app(1))),
        OverLimit.APPS_PER_SPAWN,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void anAllocationAskingForMoreNodesThanOneRequestMayBringIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(4, 1, Limits.DEFAULT.withNodesPerRequest(2));
    String tool = dvm.tool();
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW).nodeCount(3).build(),
        OverLimit.NODES_PER_REQUEST,
        PmixStatus.ERR_OUT_OF_RESOURCE);
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW).nodeList(List.of("n1", "n2", "n3")).build(),
        OverLimit.NODES_PER_REQUEST,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void anAllocationThatWouldTakeTheDvmPastItsNodesIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(2, 1, Limits.DEFAULT.withNodesInDvm(3));
    String tool = dvm.tool();
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW).nodeCount(2).build(),
        OverLimit.NODES_IN_DVM,
        PmixStatus.ERR_OUT_OF_RESOURCE);
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW).nodeList(List.of("s1", "s2")).build(),
        OverLimit.NODES_IN_DVM,
        PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build()).rejected())
        .isFalse();
  }

  @Test
  void aGrantThatWouldTakeTheDvmPastItsNodesIsHandedBackAndTheRequesterToldOutOfResource() {
    TestDvm dvm = dvm(2, 1, Limits.DEFAULT.withNodesInDvm(3));
    String tool = dvm.tool();
    long first =
        TestDvm.only(
                dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build()),
                Effect.AskScheduler.class)
            .askId();
    Effect.AskScheduler second =
        TestDvm.only(
            dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build()),
            Effect.AskScheduler.class);
    dvm.handle(new Report.SchedulerGranted(first, List.of(new NodeSpec("s1", 1)), "j1", null));
    Outcome o =
        dvm.handle(
            new Report.SchedulerGranted(
                second.askId(), List.of(new NodeSpec("s2", 1)), "j2", null));
    assertThat(o.changes()).containsExactly(new Change.AskClosed(second.askId()));
    assertThat(TestDvm.only(o, Effect.HandBackNodes.class).nodeNames()).containsExactly("s2");
    assertThat(TestDvm.reply(o).status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(dvm.core.view().nodes()).hasSize(3);
  }

  @Test
  void aStartUpPoolLargerThanTheNodeLimitIsAConfigurationError() {
    assertThatThrownBy(
            () ->
                CoreConfig.of("jdvm", TestDvm.specs("n", 3, 1))
                    .limitedBy(Limits.DEFAULT.withNodesInDvm(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("above the limit");
  }

  @Test
  void aNewAllocationPastTheLiveAllocationsIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(3, 1, Limits.DEFAULT.withLiveAllocations(1));
    String tool = dvm.tool();
    assertThat(
            dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeList(List.of("n1")).build())
                .rejected())
        .isFalse();
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW).nodeList(List.of("n2")).build(),
        OverLimit.LIVE_ALLOCATIONS,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aSessionInstantiatedPastTheLiveAllocationsIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(3, 1, Limits.DEFAULT.withLiveAllocations(1));
    String scheduler = dvm.scheduler();
    String tool = dvm.tool();
    dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeList(List.of("n1")).build());
    assertRefused(
        dvm,
        Request.SessionControl.builder(dvm.rid(), proc(scheduler), 7)
            .operations(SessionOp.INSTANTIATE)
            .nodes(List.of(new NodeSpec("n2", 1)))
            .build(),
        OverLimit.LIVE_ALLOCATIONS,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aSessionBringingMoreNodesThanARequestMayIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(1, 1, Limits.DEFAULT.withNodesPerRequest(1));
    String scheduler = dvm.scheduler();
    assertRefused(
        dvm,
        Request.SessionControl.builder(dvm.rid(), proc(scheduler), 7)
            .operations(SessionOp.INSTANTIATE)
            .nodes(List.of(new NodeSpec("s1", 1), new NodeSpec("s2", 1)))
            .build(),
        OverLimit.NODES_PER_REQUEST,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aSessionWithAppsPastTheSpawnLimitsIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(1, 1, Limits.DEFAULT.withProcsPerSpawn(2));
    String scheduler = dvm.scheduler();
    assertRefused(
        dvm,
        Request.SessionControl.builder(dvm.rid(), proc(scheduler), 7)
            .operations(SessionOp.INSTANTIATE)
            .nodes(List.of(new NodeSpec("s1", 8)))
            .apps(List.of(app(Integer.MAX_VALUE), app(Integer.MAX_VALUE)))
            .build(),
        OverLimit.PROCS_PER_SPAWN,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void anAskPastTheRequestersPendingAsksIsRefusedAndChangesNothingWhileOthersMayStillAsk() {
    TestDvm dvm = dvm(1, 1, Limits.DEFAULT.withPendingAsksPerRequester(1));
    String tool = dvm.tool();
    String other = dvm.tool();
    dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build());
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build(),
        OverLimit.PENDING_ASKS,
        PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(dvm.handle(dvm.allocate(other, AllocDirective.NEW).nodeCount(1).build()).rejected())
        .isFalse();
  }

  @Test
  void aLoanPastTheRequestersPendingAsksIsRefusedAndChangesNothing() {
    TestDvm dvm = dvm(1, 1, Limits.DEFAULT.withPendingAsksPerRequester(1));
    String tool = dvm.tool();
    String a = dvm.reserve(tool, null, "s1", "s2");
    dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build());
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.RELEASE)
            .allocId(a)
            .nodeList(List.of("s1"))
            .lendSeconds(60L)
            .build(),
        OverLimit.PENDING_ASKS,
        PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aTimeLimitLongerThanAUint32OfSecondsIsNonsenseAndRefusedBadParam() {
    TestDvm dvm = TestDvm.withNodes(1, 1);
    String tool = dvm.tool();
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.NEW)
            .nodeCount(1)
            .timeLimitSeconds(Limits.MAX_SECONDS + 1)
            .build(),
        AllocateRejection.BAD_NODE_REQUEST,
        PmixStatus.ERR_BAD_PARAM);
    String a = dvm.reserve(tool, null, "s1");
    assertRefused(
        dvm,
        dvm.allocate(tool, AllocDirective.RELEASE)
            .allocId(a)
            .lendSeconds(Limits.MAX_SECONDS + 1)
            .build(),
        ReleaseRejection.BAD_NODE_REQUEST,
        PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void aSessionTimeLimitWhoseDeadlineWouldOverflowIsRefusedBeforeAnythingChanges() {
    // 999999999999 months: parses to ~2.6e18 seconds; once, the deadline in nanoseconds
    // overflowed after the session was created, and the DVM stopped.
    TestDvm dvm = TestDvm.withNodes(1, 1);
    String scheduler = dvm.scheduler();
    assertRefused(
        dvm,
        Request.SessionControl.builder(dvm.rid(), proc(scheduler), 7)
            .operations(SessionOp.INSTANTIATE)
            .nodes(List.of(new NodeSpec("s1", 1)))
            .allocTimeSeconds(org.jdvm.pmix.TimeSpec.parseSeconds("999999999999:0:0:0:0"))
            .build(),
        SessionRejection.BAD_TIME_LIMIT,
        PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void aLimitBelowOneIsAConfigurationError() {
    assertThatThrownBy(() -> Limits.DEFAULT.withLiveAllocations(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("liveAllocations");
  }
}
