package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jdvm.core.Feature;
import org.jdvm.core.query.NodeView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.server.DvmConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Allocation requests through the real protocol (spec §8.2.1.5, §8.2.1.5.1, §8.2.1.8; decisions.md
 * #1–#9): every row of the routing table, EXTEND by either id, and every row of the error table
 * that an allocation can hit, each with its status and no partial effect.
 */
class AllocationProtocolTest {
  @TempDir Path home;
  private TestDvm t;
  private TestDvm.Output out;
  private JdvmClient tool;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 4);
    out = new TestDvm.Output();
    tool = t.tool(out);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  /** What a test reads of an allocation, copied on the controller thread. */
  private record Snapshot(String owner, boolean reserved, List<String> nodes) {}

  private Snapshot allocation(String allocId) {
    return t.read(
        v ->
            v.allocation(allocId)
                .map(
                    a ->
                        new Snapshot(
                            a.owner(),
                            a.reserved(),
                            a.nodes().stream().map(NodeView::name).toList()))
                .orElseThrow());
  }

  private static int refusal(ThrowingCall call) {
    PmixException e = catchThrowableOfType(PmixException.class, call::run);
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }

  // ---- the routing table (spec §8.2.1.5) ------------------------------------------------------

  @Test
  void aToolNamingATargetReservesForThatNamespace() throws Exception {
    TestDvm.Process0 job = t.runningJob(tool, out);
    AllocationResult a =
        tool.allocate(AllocationRequest.newAllocation().nodes(1).target(job.nspace()).build());
    Snapshot s = allocation(a.allocId());
    assertThat(s.owner()).isEqualTo(job.nspace());
    assertThat(s.reserved()).isTrue();
    assertThat(t.reservedNodes()).containsExactlyElementsOf(a.nodes());
  }

  @Test
  void aToolWithoutTargetReservesForItself() throws Exception {
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    Snapshot s = allocation(a.allocId());
    assertThat(s.owner()).isEqualTo(tool.self().nspace());
    assertThat(s.reserved()).isTrue();
  }

  @Test
  void aToolSharingPutsTheNodesInTheDefaultSession() throws Exception {
    AllocationResult a =
        tool.allocate(AllocationRequest.newAllocation().nodes(1).share(true).build());
    assertThat((allocation(a.allocId())).reserved()).isFalse();
    assertThat(t.reservedNodes()).isEmpty();
    assertThat(t.nodeNames()).containsAll(a.nodes());
  }

  @Test
  void anApplicationWithoutTargetReservesForItsOwnNamespace() throws Exception {
    TestDvm.Process0 app = t.runningJob(tool, out);
    AllocationResult a = app.client().allocate(AllocationRequest.newAllocation().nodes(1).build());
    Snapshot s = allocation(a.allocId());
    assertThat(s.owner()).isEqualTo(app.nspace());
    assertThat(s.reserved()).isTrue();
  }

  @Test
  void anApplicationSharingPutsTheNodesInTheDefaultSession() throws Exception {
    TestDvm.Process0 app = t.runningJob(tool, out);
    AllocationResult a =
        app.client().allocate(AllocationRequest.newAllocation().nodes(1).share(true).build());
    assertThat((allocation(a.allocId())).reserved()).isFalse();
    assertThat(t.reservedNodes()).isEmpty();
  }

  @Test
  void anApplicationNamingATargetIsRefusedNoPermissionsAndNothingIsReserved() throws Exception {
    TestDvm.Process0 app = t.runningJob(tool, out);
    int status =
        refusal(
            () ->
                app.client()
                    .allocate(
                        AllocationRequest.newAllocation()
                            .nodes(1)
                            .target(tool.self().nspace())
                            .build()));
    assertThat(status).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(t.reservedNodes()).isEmpty();
    assertThat(t.nodeNames()).containsExactly("node0");
  }

  // ---- new versus extend (spec §8.2.1.5.1) ----------------------------------------------------

  @Test
  void extendAddsNodesToTheReservationNamedByEitherId() throws Exception {
    AllocationResult a =
        tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("batch").build());
    assertThat(a.reqId()).isEqualTo("batch");
    AllocationResult byId =
        tool.allocate(AllocationRequest.extend().allocId(a.allocId()).nodes(1).build());
    AllocationResult byReq =
        tool.allocate(AllocationRequest.extend().reqId("batch").nodes(1).build());
    assertThat(byId.allocId()).isEqualTo(a.allocId());
    assertThat(byReq.allocId()).isEqualTo(a.allocId());
    assertThat((allocation(a.allocId())).nodes())
        .hasSize(3)
        .containsAll(a.nodes())
        .containsAll(byId.nodes())
        .containsAll(byReq.nodes());
  }

  @Test
  void newAlwaysMintsAFreshReservation() throws Exception {
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    AllocationResult b = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    assertThat(a.allocId()).isNotEqualTo(b.allocId());
    assertThat(t.reservedNodes()).hasSize(2);
  }

  // ---- the error table (spec §8.2.1.8) --------------------------------------------------------

  @Test
  void extendOfAnAllocationTheRequesterDoesNotOwnIsNoPermissionsAndChangesNothing()
      throws Exception {
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    JdvmClient other = t.tool();
    int status =
        refusal(
            () -> other.allocate(AllocationRequest.extend().allocId(a.allocId()).nodes(1).build()));
    assertThat(status).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat((allocation(a.allocId())).nodes()).hasSize(1);
    assertThat(t.nodeNames()).hasSize(2);
  }

  @Test
  void extendOfAnAllocationThatDoesNotExistIsNotFound() {
    assertThat(
            refusal(
                () -> tool.allocate(AllocationRequest.extend().allocId("nope").nodes(1).build())))
        .isEqualTo(PmixStatus.ERR_NOT_FOUND);
    assertThat(
            refusal(() -> tool.allocate(AllocationRequest.extend().reqId("nope").nodes(1).build())))
        .isEqualTo(PmixStatus.ERR_NOT_FOUND);
    assertThat(t.nodeNames()).containsExactly("node0");
  }

  @Test
  void extendWithoutEitherIdIsBadParam() {
    assertThat(refusal(() -> tool.allocate(AllocationRequest.extend().nodes(1).build())))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(t.nodeNames()).containsExactly("node0");
  }

  @Test
  void anInheritanceOutsideTheFourDispositionsIsNotSupportedAndReservesNothing() {
    AllocationRequest r =
        AllocationRequest.newAllocation()
            .nodes(1)
            .info(Info.of(PmixKeys.ALLOC_INHERITANCE, Value.uint8(9)))
            .build();
    assertThat(refusal(() -> tool.allocate(r))).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(t.nodeNames()).containsExactly("node0");
  }

  @Test
  void aNonDefaultInheritanceIsNotSupportedByADvmWithoutTheAttribute() throws Exception {
    t.close();
    t =
        TestDvm.start(
            home.resolve("without"),
            DvmConfig.embedded("nohrt" + ProcessHandle.current().pid(), 1, 2, 2, home)
                .without(Set.of(Feature.INHERITANCE))
                .withShrinkGrace(300));
    JdvmClient c = t.tool();
    int status =
        refusal(
            () ->
                c.allocate(
                    AllocationRequest.newAllocation()
                        .nodes(1)
                        .inheritance(AllocInheritance.NONE)
                        .build()));
    assertThat(status).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    AllocationResult ok =
        c.allocate(
            AllocationRequest.newAllocation()
                .nodes(1)
                .inheritance(AllocInheritance.DEFAULT)
                .build());
    assertThat(ok.allocId()).isNotNull();
  }

  @Test
  void aValueOfTheWrongTypeIsBadParamBeforeTheCoreSeesIt() {
    AllocationRequest r =
        AllocationRequest.newAllocation()
            .nodes(1)
            .info(Info.of(PmixKeys.ALLOC_INHERITANCE, Value.string("CHILD")))
            .build();
    assertThat(refusal(() -> tool.allocate(r))).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    AllocationRequest count =
        AllocationRequest.newAllocation()
            .info(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.string("2")))
            .build();
    assertThat(refusal(() -> tool.allocate(count))).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(t.read(v -> v.pending().size()).intValue()).isZero();
  }

  // ---- release, time, the scheduler ----------------------------------------------------------

  @Test
  void theReplyCarriesTheTimeLimitTheSchedulerSetAndReleaseGivesTheNodesBack() throws Exception {
    AllocationResult a =
        tool.allocate(AllocationRequest.newAllocation().nodes(2).time("1:00").build());
    assertThat(a.timeLimitSeconds()).isBetween(59L, 60L);
    assertThat(a.sessionId()).isNotNull();
    assertThat(t.nodeNames()).hasSize(3);
    AllocationResult r = tool.allocate(AllocationRequest.release().allocId(a.allocId()).build());
    assertThat(r.nodes()).containsExactlyInAnyOrderElementsOf(a.nodes());
    TestDvm.await(() -> t.nodeNames().size() == 1, "the released nodes to leave");
    assertThat(t.allocationExists(a.allocId())).isFalse();
  }

  @Test
  void aRequiredRequestTheSchedulerCannotMeetIsOutOfResourceAndANotRequiredOneQueuesUntilCancelled()
      throws Exception {
    assertThat(refusal(() -> tool.allocate(AllocationRequest.newAllocation().nodes(9).build())))
        .isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    AllocationResult hold = tool.allocate(AllocationRequest.newAllocation().nodes(4).build());
    var queued =
        tool.allocateAsync(
            AllocationRequest.newAllocation().nodes(1).reqId("later").notRequired().build());
    TestDvm.await(
        () -> {
          try {
            return tool.allocationStatus("later").equals("queued");
          } catch (PmixException e) {
            return false;
          }
        },
        "the request to queue");
    assertThat(tool.allocsJson()).contains("\"reqId\":\"later\"", "\"state\":\"queued\"");
    tool.allocate(AllocationRequest.cancel().reqId("later").build());
    PmixException cancelled =
        catchThrowableOfType(PmixException.class, () -> JdvmClient.await(queued));
    assertThat(cancelled.status()).isEqualTo(PmixStatus.ERR_JOB_CANCELED);
    assertThat(hold.nodes()).hasSize(4);
  }
}
