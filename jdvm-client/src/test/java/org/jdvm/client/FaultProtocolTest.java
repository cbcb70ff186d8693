package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults seen through the Java client: each is handled with nothing lost, and a request that
 * succeeds afterwards shows the DVM still serving. (The wire-level faults, malformed messages and
 * bad handshakes, are in the endpoint's own EndpointWireTest.)
 */
class FaultProtocolTest {
  @TempDir Path home;
  private TestDvm t;
  private TestDvm.Output out;
  private JdvmClient tool;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 2);
    out = new TestDvm.Output();
    tool = t.tool(out);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private long pidOf(String nspace, int rank) {
    return t.read(
        v ->
            v.job(nspace).orElseThrow().procs().stream()
                .filter(p -> p.rank() == rank)
                .mapToLong(ProcView::pid)
                .findFirst()
                .orElseThrow());
  }

  @Test
  void aProcessKilledByASignalEndsItsJobWithTheSignalAndTheDvmServesOn() throws Exception {
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").procs(2).build());
    long pid = pidOf(job.nspace(), 1);
    assertThat(pid).isPositive();
    ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    try {
      tool.terminate(job.nspace());
    } catch (PmixException e) {
      // The killed rank's end may have ended the job first (a quiet clean-clone run): a job that
      // is no longer live is NOT_FOUND to job control (JobControl.check).
      assertThat(e.status()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
    }
    JobEnd end = job.awaitEnd();
    assertThat(end.status()).isNotEqualTo(PmixStatus.SUCCESS);
    int exit = t.read(v -> v.job(job.nspace()).orElseThrow().procs().get(1).exitCode());
    assertThat(exit).isEqualTo(128 + 9);
    Job next = tool.spawn(SpawnRequest.of("true").build());
    assertThat(next.awaitEnd().exitCode()).isZero();
  }

  @Test
  void aJobWhoseOnlyProcessIsKilledEndsWithExitCode137() throws Exception {
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").build());
    ProcessHandle.of(pidOf(job.nspace(), 0)).orElseThrow().destroyForcibly();
    JobEnd end = job.awaitEnd();
    assertThat(end.exitCode()).isEqualTo(137);
    assertThat(tool.jobsJson()).contains(job.nspace());
  }

  @Test
  void aClientThatLeavesMidSpawnLosesOnlyItsReplyAndItsJobRunsToItsEnd() throws Exception {
    JdvmClient leaver = t.tool();
    Proc who = leaver.self();
    CompletableFuture<Job> spawn =
        leaver.spawnAsync(SpawnRequest.of("sh", "-c", "sleep 0.2").forwardOutput(true).build());
    leaver.dropConnection();
    PmixException lost = catchThrowableOfType(PmixException.class, () -> JdvmClient.await(spawn));
    assertThat(lost).isNotNull();
    TestDvm.await(
        () -> t.jobState(who.nspace()) == JobView.State.TERMINATED, "the tool's departure");
    TestDvm.await(
        () ->
            t.read(
                v ->
                    v.jobs().stream()
                        .filter(j -> who.nspace().equals(j.parent()))
                        .allMatch(j -> j.state() == JobView.State.TERMINATED)),
        "its job to end on its own");
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    assertThat(a.allocId()).isNotNull();
  }

  @Test
  void aConnectionToANonexistentDvmIsUnreachable() {
    PmixException e =
        catchThrowableOfType(
            PmixException.class,
            () ->
                JdvmClient.connector()
                    .contact(Contact.fromUri("gone@0.0;tcp4://127.0.0.1:1"))
                    .connect());
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNREACH);
  }

  @Test
  void requestsInFlightFailWhenTheDvmGoesAway() throws Exception {
    JdvmClient doomed = t.tool();
    Job job = doomed.spawn(SpawnRequest.of("sleep", "60").build());
    t.endpoint.close();
    PmixException e = catchThrowableOfType(PmixException.class, job::awaitEnd);
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_LOST_CONNECTION_TO_SERVER);
    PmixException after = catchThrowableOfType(PmixException.class, doomed::nodesJson);
    assertThat(after).isNotNull();
  }
}
