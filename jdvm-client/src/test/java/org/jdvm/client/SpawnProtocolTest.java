package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spawns through the real protocol (spec §8.2.1.6–§8.2.1.8; decisions.md #15): targets and their
 * unions, isolation of reserved nodes, the owner set growing with the jobs spawned into a
 * reservation, output before the job's end, and job control.
 */
class SpawnProtocolTest {
  @TempDir Path home;
  private TestDvm t;
  private TestDvm.Output out;
  private JdvmClient tool;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 3);
    out = new TestDvm.Output();
    tool = t.tool(out);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private AllocationResult reserve() throws PmixException {
    return tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
  }

  private static int refusal(ThrowingCall call) {
    PmixException e = catchThrowableOfType(PmixException.class, call::run);
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }

  private int jobCount() {
    return t.read(v -> v.jobs().size());
  }

  // ---- targets (spec §8.2.1.6) ----------------------------------------------------------------

  @Test
  void aJobTargetingTwoReservationsMapsOntoTheirUnionOnly() throws Exception {
    AllocationResult a = reserve();
    AllocationResult b = reserve();
    Job job = tool.spawn(SpawnRequest.of("true").procs(4).target(a.allocId(), b.allocId()).build());
    Set<String> union = new HashSet<>(a.nodes());
    union.addAll(b.nodes());
    assertThat(t.nodesOf(job.nspace())).isEqualTo(union);
    assertThat(job.awaitEnd().exitCode()).isZero();
  }

  @Test
  void aReservationAndTheDefaultSessionTogetherGiveTheirUnion() throws Exception {
    AllocationResult a = reserve();
    Job job =
        tool.spawn(SpawnRequest.of("true").procs(4).target(a.allocId()).orDefaultSession().build());
    Set<String> expected = new HashSet<>(a.nodes());
    expected.add("node0");
    assertThat(t.nodesOf(job.nspace())).isEqualTo(expected);
  }

  @Test
  void aJobWithoutTargetNeverSeesReservedNodes() throws Exception {
    AllocationResult a = reserve();
    Job small = tool.spawn(SpawnRequest.of("true").procs(2).build());
    assertThat(t.nodesOf(small.nspace())).containsExactly("node0");
    small.awaitEnd();
    int before = jobCount();
    assertThat(refusal(() -> tool.spawn(SpawnRequest.of("true").procs(3).build())))
        .isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(jobCount()).isEqualTo(before);
    assertThat(t.reservedNodes()).containsExactlyElementsOf(a.nodes());
  }

  @Test
  void aTargetThatResolvesToNoSessionIsNotFoundAndLaunchesNothing() throws Exception {
    reserve();
    int before = jobCount();
    assertThat(refusal(() -> tool.spawn(SpawnRequest.of("true").target("no-such").build())))
        .isEqualTo(PmixStatus.ERR_NOT_FOUND);
    assertThat(jobCount()).isEqualTo(before);
  }

  @Test
  void aTargetTheRequesterDoesNotOwnIsNoPermissionsEvenWithAnOwnedOne() throws Exception {
    AllocationResult mine = reserve();
    JdvmClient other = t.tool();
    AllocationResult theirs = other.allocate(AllocationRequest.newAllocation().nodes(1).build());
    int before = jobCount();
    assertThat(
            refusal(
                () ->
                    tool.spawn(
                        SpawnRequest.of("true").target(mine.allocId(), theirs.allocId()).build())))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(jobCount()).isEqualTo(before);
  }

  @Test
  void mapByNodeSpreadsTheProcessesOverTheCandidateNodes() throws Exception {
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(2).build());
    Job job =
        tool.spawn(SpawnRequest.of("true").procs(2).target(a.allocId()).mapBy("node").build());
    assertThat(t.nodesOf(job.nspace())).containsExactlyInAnyOrderElementsOf(a.nodes());
  }

  // ---- the owner set (spec §8.2.1.7) ----------------------------------------------------------

  @Test
  void aJobSpawnedIntoAReservationOwnsItAndItsProcessMaySpawnThereWithItsCredential()
      throws Exception {
    AllocationResult r = reserve();
    AllocationResult other = reserve();
    TestDvm.Process0 child = t.runningJob(tool, out, r.allocId());
    List<String> owners =
        t.read(v -> List.copyOf(v.allocation(r.allocId()).orElseThrow().owners()));
    assertThat(owners).contains(tool.self().nspace(), child.nspace());
    Job grandchild = child.client().spawn(SpawnRequest.of("true").target(r.allocId()).build());
    assertThat(t.nodesOf(grandchild.nspace())).containsExactlyElementsOf(r.nodes());
    assertThat(grandchild.awaitEnd().exitCode()).isZero();
    String parent = t.read(v -> v.job(grandchild.nspace()).orElseThrow().parent());
    assertThat(parent).isEqualTo(child.nspace());
    // Ownership is not inherited: the child owns only the reservation it was spawned into.
    assertThat(
            refusal(
                () ->
                    child.client().spawn(SpawnRequest.of("true").target(other.allocId()).build())))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    // A job of the default session owns nothing.
    TestDvm.Process0 outsider = t.runningJob(tool, out);
    assertThat(
            refusal(
                () -> outsider.client().spawn(SpawnRequest.of("true").target(r.allocId()).build())))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
  }

  @Test
  void aProcessOfAnApplicationSpawnsIntoItsParentsSessionWithoutTarget() throws Exception {
    AllocationResult r = reserve();
    TestDvm.Process0 child = t.runningJob(tool, out, r.allocId());
    Job grandchild = child.client().spawn(SpawnRequest.of("true").build());
    assertThat(t.nodesOf(grandchild.nspace())).containsExactlyElementsOf(r.nodes());
  }

  // ---- output and the job's end --------------------------------------------------------------

  @Test
  void everyChunkOfOutputArrivesBeforeTheJobsEnd() throws Exception {
    for (int round = 0; round < 5; round++) {
      Job job =
          tool.spawn(
              SpawnRequest.of("sh", "-c", "seq 1 3000; echo done >&2; exit 3")
                  .procs(2)
                  .recoverable(true) // both ranks run to their end, though each fails
                  .build());
      JobEnd end = job.awaitEnd();
      assertThat(end.exitCode()).isEqualTo(3);
      assertThat(end.status()).isNotEqualTo(PmixStatus.SUCCESS);
      for (int rank = 0; rank < 2; rank++) {
        assertThat(out.of(job.nspace(), rank, false)).endsWith("\n2999\n3000\n");
        assertThat(out.of(job.nspace(), rank, true)).isEqualTo("done\n");
      }
    }
  }

  @Test
  void awaitEndWaitsForAnOutputHandlerStillRunningWhenTheEndArrives() throws Exception {
    java.util.concurrent.CountDownLatch inHandler = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean handled =
        new java.util.concurrent.atomic.AtomicBoolean();
    JdvmClient slow =
        t.keep(
            JdvmClient.connector()
                .contact(t.contact())
                .role(Role.TOOL)
                .output(
                    (source, stderr, bytes) -> {
                      inHandler.countDown();
                      try {
                        release.await(20, java.util.concurrent.TimeUnit.SECONDS);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                      handled.set(true);
                    })
                .connect());
    Job job = slow.spawn(SpawnRequest.of("echo", "hi").build());
    assertThat(inHandler.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    // What awaitEnd saw of the handler when it returned.
    java.util.concurrent.CompletableFuture<Boolean> handledWhenEnded =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                job.awaitEnd();
              } catch (PmixException e) {
                throw new java.util.concurrent.CompletionException(e);
              }
              return handled.get();
            });
    TestDvm.await(
        () ->
            t.jobState(job.nspace()) == null
                || t.jobState(job.nspace()) == JobView.State.TERMINATED,
        "the job's end");
    release.countDown();
    assertThat(handledWhenEnded.get(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aCommandThatCannotBeFoundIsExeNotFound() {
    assertThat(refusal(() -> tool.spawn(SpawnRequest.of("no-such-cmd-jdvm").build())))
        .isEqualTo(PmixStatus.ERR_JOB_EXE_NOT_FOUND);
  }

  @Test
  void anAppWithoutProcessesIsBadParam() {
    assertThat(refusal(() -> tool.spawn(SpawnRequest.of("true").procs(0).build())))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  // ---- job control ---------------------------------------------------------------------------

  @Test
  void aSignalRightAfterTheSpawnIsNotLost() throws Exception {
    // The spawn is answered once the pids are known, possibly before the process has made itself
    // a process-group leader; a signal to its group alone was lost then (and the job ran on).
    for (int i = 0; i < 30; i++) {
      Job job = tool.spawn(SpawnRequest.of("sleep", "60").build());
      tool.signal(job.nspace(), Signal.TERM);
      JobEnd end = job.end().get(10, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(end.exitCode()).isEqualTo(128 + 15);
    }
  }

  @Test
  void theSpawnerSignalsAndTerminatesItsJobsAndOthersMayNot() throws Exception {
    Job sleeper = tool.spawn(SpawnRequest.of("sleep", "60").build());
    JdvmClient stranger = t.tool();
    assertThat(refusal(() -> stranger.signal(sleeper.nspace(), Signal.TERM)))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(refusal(() -> stranger.terminate(sleeper.nspace())))
        .isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(
            refusal(
                () ->
                    JdvmClient.await(
                        tool.jobControlAsync(
                            sleeper.nspace(), Info.of("pmix.jctrl.ckpt", Value.string("/x"))))))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    tool.signal(sleeper.nspace(), Signal.TERM);
    JobEnd end = sleeper.awaitEnd();
    assertThat(end.exitCode()).isEqualTo(128 + 15);

    Job other = tool.spawn(SpawnRequest.of("sleep", "60").build());
    tool.terminate(other.nspace());
    assertThat(other.awaitEnd().status()).isEqualTo(PmixStatus.ERR_JOB_CANCELED);
    assertThat(t.jobState(other.nspace())).isEqualTo(JobView.State.TERMINATED);
    assertThat(refusal(() -> tool.signal(new Proc(other.nspace(), 0).nspace(), Signal.TERM)))
        .isEqualTo(PmixStatus.ERR_NOT_FOUND);
  }
}
