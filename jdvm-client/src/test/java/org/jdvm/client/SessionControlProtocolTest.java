package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session control by the scheduler role through the real protocol (decisions.md #13–#14,
 * docs/protocol.md "Session completion"): standing and running sessions, pause and resume, signal,
 * extend, terminate, time limits, the refusals, and the completion reported to the scheduler once.
 */
class SessionControlProtocolTest {
  @TempDir Path home;
  private TestDvm t;
  private JdvmClient scheduler;
  private EventProtocolTest.Events completions;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 0);
    scheduler = t.scheduler();
    completions = new EventProtocolTest.Events();
    scheduler.onEvents(completions, PmixStatus.EVENT_SESSION_END);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private static int refusal(ThrowingCall call) {
    PmixException e = catchThrowableOfType(PmixException.class, call::run);
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }

  private boolean stopped(String nspace) {
    return t.read(v -> v.job(nspace).orElseThrow().stopped());
  }

  @Test
  void aStandingReservationIsTheSchedulersAndPausesResumesAndTerminatesItsJobs() throws Exception {
    AllocationResult s =
        scheduler.sessionControl(
            SessionControlRequest.instantiate(7)
                .nodes("big0:2")
                .allocId("batch-7")
                .ctrlId("c1")
                .build());
    assertThat(s.sessionId()).isEqualTo(7L);
    assertThat(s.allocId()).isEqualTo("batch-7");
    assertThat(s.info(PmixKeys.SESSION_CTRL_ID)).isEqualTo("c1");
    assertThat(t.reservedNodes()).containsExactly("big0");

    JdvmClient tool = t.tool();
    assertThat(refusal(() -> tool.spawn(SpawnRequest.of("true").target("batch-7").build())))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    Job job = scheduler.spawn(SpawnRequest.of("sleep", "60").target("batch-7").build());
    assertThat(t.nodesOf(job.nspace())).containsExactly("big0");

    scheduler.sessionControl(SessionControlRequest.pause(7).build());
    assertThat(stopped(job.nspace())).isTrue();
    scheduler.sessionControl(SessionControlRequest.resume(7).build());
    assertThat(stopped(job.nspace())).isFalse();

    scheduler.sessionControl(SessionControlRequest.extend(7).nodes("big1").build());
    assertThat(t.reservedNodes()).containsExactlyInAnyOrder("big0", "big1");

    scheduler.sessionControl(SessionControlRequest.terminate(7).build());
    Event done = completions.await(PmixStatus.EVENT_SESSION_END);
    assertThat(done.info(PmixKeys.SESSION_COMPLETE)).isEqualTo("true");
    assertThat(done.info(PmixKeys.SESSION_ID)).isEqualTo("7");
    assertThat(done.info(PmixKeys.ALLOC_ID)).isEqualTo("batch-7");
    List<Info> jobInfo =
        done.infos().stream()
            .filter(i -> i.key().equals(PmixKeys.JOB_INFO_ARRAY))
            .map(i -> i.value().asArray().elementsAs(Info.class))
            .findFirst()
            .orElseThrow();
    assertThat(jobInfo.get(0).value().asString()).isEqualTo(job.nspace());
    assertThat(job.awaitEnd().status()).isNotEqualTo(PmixStatus.SUCCESS);
    TestDvm.await(() -> !t.allocationExists("batch-7"), "the session to end");
    // Once: the requester also hears that its allocation ended, without pmix.ssn.complete.
    assertThat(
            completions.seen.stream().filter(e -> "true".equals(e.info(PmixKeys.SESSION_COMPLETE))))
        .hasSize(1);
  }

  @Test
  void aSessionInstantiatedWithAppsRunsThemAndCompletesWithTheirEnd() throws Exception {
    App app = new App("sh", List.of("sh", "-c", "exit 0"), List.of(), null, 2, List.of());
    AllocationResult s =
        scheduler.sessionControl(
            SessionControlRequest.instantiate(8).nodes("run0:2").apps(List.of(app)).build());
    String nspace = s.info(PmixKeys.NSPACE);
    assertThat(nspace).isNotNull();
    Event done = completions.await(PmixStatus.EVENT_SESSION_END);
    assertThat(done.info(PmixKeys.SESSION_ID)).isEqualTo("8");
    TestDvm.await(
        () -> t.nodeNames().equals(List.of("node0")) || !t.allocationExists(s.allocId()),
        "the session to end");
  }

  @Test
  void aSessionSignalReachesEveryJobAndATimeLimitEndsTheSession() throws Exception {
    scheduler.sessionControl(
        SessionControlRequest.instantiate(9).nodes("sig0:1").allocId("s9").build());
    Job job = scheduler.spawn(SpawnRequest.of("sleep", "60").target("s9").build());
    scheduler.sessionControl(SessionControlRequest.signal(9, Signal.TERM.number()).build());
    assertThat(job.awaitEnd().exitCode()).isEqualTo(128 + 15);
    scheduler.sessionControl(SessionControlRequest.extend(9).time("1").build());
    completions.await(PmixStatus.EVENT_SESSION_END);
    TestDvm.await(() -> !t.allocationExists("s9"), "the time limit to end the session");
  }

  @Test
  void theRefusalsOfSessionControl() throws Exception {
    JdvmClient tool = t.tool();
    assertThat(
            refusal(
                () ->
                    tool.sessionControl(SessionControlRequest.instantiate(3).nodes("x0").build())))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(refusal(() -> scheduler.sessionControl(SessionControlRequest.pause(99).build())))
        .isEqualTo(PmixStatus.ERR_NOT_FOUND);
    assertThat(
            refusal(
                () ->
                    scheduler.sessionControl(
                        SessionControlRequest.pause(99)
                            .info(Info.of(PmixKeys.SESSION_RESUME, Value.bool(true)))
                            .build())))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(
            refusal(
                () ->
                    scheduler.sessionControl(
                        SessionControlRequest.instantiate(4)
                            .info(Info.of(PmixKeys.SESSION_PROVISION_IMAGE, Value.string("img")))
                            .build())))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(
            refusal(
                () ->
                    scheduler.sessionControl(
                        SessionControlRequest.instantiate(4)
                            .info(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2)))
                            .build())))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(
            refusal(
                () ->
                    scheduler.sessionControl(
                        SessionControlRequest.instantiate(4)
                            .nodes("x0")
                            .info(Info.of(PmixKeys.SESSION_RESOURCES, Value.string("not an array")))
                            .build())))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    AllocationResult ok =
        scheduler.sessionControl(
            SessionControlRequest.instantiate(4)
                .info(
                    Info.of(
                        PmixKeys.SESSION_RESOURCES,
                        Value.array(
                            DataArray.ofInfos(
                                List.of(Info.of(PmixKeys.ALLOC_NODE_LIST, Value.string("x0:3")))))))
                .build());
    assertThat(ok.sessionId()).isEqualTo(4L);
    int slots = t.read(v -> v.node("x0").orElseThrow().slots());
    assertThat(slots).isEqualTo(3);
  }
}
