package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's roles and wire formats against a real DVM (architecture.md §4, docs/protocol.md): a
 * tool naming its namespace, a launched JVM acting as its job from the environment, the wire
 * components and buffer types, and who may stop the DVM.
 */
class ClientRolesTest {
  @TempDir Path home;
  private TestDvm t;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 2);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aToolMayNameAnUnusedNamespaceOnce() throws Exception {
    JdvmClient named =
        t.keep(JdvmClient.connector().contact(t.contact()).namespace("my-tool").connect());
    assertThat(named.self().nspace()).isEqualTo("my-tool");
    assertThat(named.role()).isEqualTo(Role.TOOL);
    PmixException again =
        catchThrowableOfType(
            PmixException.class,
            () -> JdvmClient.connector().contact(t.contact()).namespace("my-tool").connect());
    assertThat(again.status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    AllocationResult a = named.allocate(AllocationRequest.newAllocation().nodes(1).build());
    String owner = t.read(v -> v.allocation(a.allocId()).orElseThrow().owner());
    assertThat(owner).isEqualTo("my-tool");
  }

  @Test
  void aJvmTheDvmLaunchedActsAsItsJobFromItsEnvironment() throws Exception {
    TestDvm.Output out = new TestDvm.Output();
    JdvmClient tool = t.tool(out);
    AllocationResult r = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Job job =
        tool.spawn(
            SpawnRequest.of(
                    java,
                    "-Xshare:auto",
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    System.getProperty("java.class.path"),
                    InJobMain.class.getName(),
                    r.allocId())
                .target(r.allocId())
                .build());
    JobEnd end = job.awaitEnd();
    String said = out.of(job.nspace(), 0, false);
    assertThat(said).contains("ROLE APPLICATION self=" + job.nspace() + ".0");
    assertThat(said).contains("nested\n").contains("NESTED exit=0");
    assertThat(end.exitCode()).as(said + out.of(job.nspace(), 0, true)).isZero();
  }

  @Test
  void aMasterEraClientSendsInheritanceAsType75AndA42ListenerGetsItAsUint8() throws Exception {
    JdvmClient v61 =
        t.keep(JdvmClient.connector().contact(t.contact()).wire(WireFormat.V61).connect());
    JdvmClient v41 = t.tool();
    AllocationResult a =
        v61.allocate(
            AllocationRequest.newAllocation().nodes(1).inheritance(AllocInheritance.NONE).build());
    AllocInheritance i = t.read(v -> v.allocation(a.allocId()).orElseThrow().inheritance());
    assertThat(i).isEqualTo(AllocInheritance.NONE);
    EventProtocolTest.Events seen = new EventProtocolTest.Events();
    v41.onEvents(seen, -3400);
    v61.notifyEvent(
        -3400,
        DataRange.CUSTOM,
        List.of(
            Info.of(
                PmixKeys.EVENT_CUSTOM_RANGE,
                Value.array(DataArray.of(DataType.PROC, List.of(v41.self())))),
            Info.of(PmixKeys.ALLOC_INHERITANCE, Value.inheritance(AllocInheritance.CHILD))));
    Event e = seen.await(-3400);
    Info inheritance =
        e.infos().stream()
            .filter(x -> x.key().equals(PmixKeys.ALLOC_INHERITANCE))
            .findFirst()
            .orElseThrow();
    assertThat(inheritance.value()).isEqualTo(Value.uint8(AllocInheritance.CHILD.code()));
  }

  @Test
  void aFullyDescribedClientIsServedInItsOwnBufferType() throws Exception {
    JdvmClient described =
        t.keep(
            JdvmClient.connector()
                .contact(t.contact())
                .wire(WireFormat.V41.withBufferType(BufferType.FULLY_DESCRIBED))
                .output(new TestDvm.Output())
                .connect());
    AllocationResult a = described.allocate(AllocationRequest.newAllocation().nodes(1).build());
    Job job = described.spawn(SpawnRequest.of("echo", "x").target(a.allocId()).build());
    assertThat(job.awaitEnd().exitCode()).isZero();
    assertThat(described.jobsJson()).contains(job.nspace());
  }

  @Test
  void aToolStopsTheDvmAndAnApplicationMayNot() throws Exception {
    TestDvm.Output out = new TestDvm.Output();
    JdvmClient tool = t.tool(out);
    TestDvm.Process0 app = t.runningJob(tool, out);
    PmixException e = catchThrowableOfType(PmixException.class, () -> app.client().stopDvm());
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(t.stops.get()).isZero();
    tool.stopDvm();
    TestDvm.await(() -> t.stops.get() == 1, "the stop hook to run");
  }

  @Test
  void aWrongSchedulerCredentialIsRefusedAndTheRightOneMakesTheScheduler() throws Exception {
    PmixException e =
        catchThrowableOfType(
            PmixException.class,
            () ->
                JdvmClient.connector()
                    .contact(t.contact())
                    .schedulerCredential("forged")
                    .connect());
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    JdvmClient scheduler = t.scheduler();
    assertThat(scheduler.role()).isEqualTo(Role.SCHEDULER);
    String kind = t.read(v -> v.job(scheduler.self().nspace()).orElseThrow().kind().name());
    assertThat(kind).isEqualTo("SCHEDULER");
  }

  @Test
  void overTheUnixSocketAToolIsServedAndAProcessMustPresentItsCredential() throws Exception {
    Contact local = t.contact();
    // A TCP address that is not loopback makes the client take the Unix socket.
    Contact unixOnly =
        new Contact(
            local.name(),
            local.uri(),
            new java.net.InetSocketAddress(java.net.InetAddress.getByName("192.0.2.1"), 1),
            local.unixSocket(),
            local.dir(),
            local.pid());
    TestDvm.Output out = new TestDvm.Output();
    JdvmClient tool =
        t.keep(JdvmClient.connector().contact(unixOnly).role(Role.TOOL).output(out).connect());
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    TestDvm.Process0 job = t.runningJob(tool, out, a.allocId());

    JdvmClient asJob =
        t.keep(
            JdvmClient.connector()
                .contact(unixOnly)
                .asProcess(job.proc(), job.credential())
                .connect());
    assertThat(asJob.self()).isEqualTo(job.proc());
    assertThat(
            asJob
                .allocate(AllocationRequest.extend().allocId(a.allocId()).nodes(1).build())
                .allocId())
        .isEqualTo(a.allocId());

    PmixException forged =
        catchThrowableOfType(
            PmixException.class,
            () ->
                JdvmClient.connector()
                    .contact(unixOnly)
                    .asProcess(job.proc(), "not-the-credential")
                    .connect());
    assertThat(forged).isNotNull();
  }
}
