package org.jdvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.NodeView;
import org.jdvm.host.Await;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.server.shell.LaunchEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DVM without its network front: core, controller, shell, agents and scheduler together. */
class DvmIntegrationTest {
  @TempDir Path home;
  private final AtomicLong ids = new AtomicLong();
  private RecordingGateway gateway;
  private Dvm dvm;

  @BeforeEach
  void start() {
    gateway = new RecordingGateway();
    LaunchEnvironment env =
        new LaunchEnvironment(
            Map.of("PATH", "/usr/bin:/bin"),
            "jdvmtest.0;tcp4://127.0.0.1:1",
            "unused",
            home.toString(),
            Credentials.generate());
    dvm =
        Dvm.start(DvmConfig.embedded("jdvmtest", 2, 2, 2, home).withShrinkGrace(300), gateway, env);
  }

  @AfterEach
  void stop() {
    dvm.close();
  }

  private RequestId id() {
    return new RequestId(ids.incrementAndGet());
  }

  private String registerTool() {
    RequestId id = id();
    dvm.submit(new Request.RegisterTool(id, null));
    return gateway.awaitReply(id).info(PmixKeys.NSPACE);
  }

  @Test
  void theLimitsOfTheDvmsConfigurationReachTheCore() {
    dvm.close();
    LaunchEnvironment env =
        new LaunchEnvironment(
            Map.of("PATH", "/usr/bin:/bin"),
            "jdvmtest.0;tcp4://127.0.0.1:1",
            "unused",
            home.toString(),
            Credentials.generate());
    dvm =
        Dvm.start(
            DvmConfig.embedded("jdvmtest", 2, 2, 2, home)
                .limitedBy(org.jdvm.core.Limits.DEFAULT.with("procs-per-spawn", 1)),
            gateway,
            env);
    Proc requester = new Proc(registerTool(), 0);
    RequestId spawn = id();
    App two = new App("true", List.of("true"), List.of(), null, 2, List.of());
    dvm.submit(Request.Spawn.of(spawn, requester, List.of(two)));
    assertThat(gateway.awaitReply(spawn).status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aToolReservesSchedulerNodesAndRunsARealJobOnlyThere() {
    String tool = registerTool();
    Proc requester = new Proc(tool, 0);
    RequestId alloc = id();
    dvm.submit(Request.Allocate.builder(alloc, requester, AllocDirective.NEW).nodeCount(2).build());
    RecordingGateway.Reply granted = gateway.awaitReply(alloc);
    assertThat(granted.status()).isEqualTo(PmixStatus.SUCCESS);
    String allocId = granted.info(PmixKeys.ALLOC_ID);
    assertThat(allocId).isNotNull();

    RequestId spawn = id();
    App app =
        new App(
            "sh",
            List.of("sh", "-c", "echo $PMIX_RANK@$PMIX_HOSTNAME"),
            List.of(),
            null,
            3,
            List.of());
    dvm.submit(Request.Spawn.of(spawn, requester, List.of(app)).withTarget(List.of(allocId)));
    RecordingGateway.Reply launched = gateway.awaitReply(spawn);
    assertThat(launched.status()).isEqualTo(PmixStatus.SUCCESS);
    String job = launched.info(PmixKeys.NSPACE);

    for (int rank = 0; rank < 3; rank++) {
      int r = rank;
      Await.until(() -> gateway.outputOf(job, r).endsWith("\n"), "output of rank " + r);
      assertThat(gateway.outputOf(job, r)).startsWith(r + "@node").doesNotContain("node0", "node1");
    }
    Await.until(
        () -> gateway.events.stream().anyMatch(e -> e.status() == PmixStatus.EVENT_JOB_END),
        "job end");
    List<String> reserved =
        dvm.read(v -> v.nodes().stream().filter(NodeView::reserved).map(NodeView::name).toList())
            .join();
    assertThat(reserved).containsExactlyInAnyOrder("node2", "node3");
  }

  @Test
  void aCommandThatCannotBeFoundFailsTheSpawnWithExeNotFound() {
    String tool = registerTool();
    RequestId spawn = id();
    App app =
        new App(
            "no-such-program-jdvm", List.of("no-such-program-jdvm"), List.of(), null, 1, List.of());
    dvm.submit(Request.Spawn.of(spawn, new Proc(tool, 0), List.of(app)));
    assertThat(gateway.awaitReply(spawn).status()).isEqualTo(PmixStatus.ERR_JOB_EXE_NOT_FOUND);
  }

  @Test
  void releasingTheReservationShrinksItsNodesOutAndKillsTheJobOnThem() {
    String tool = registerTool();
    Proc requester = new Proc(tool, 0);
    RequestId alloc = id();
    dvm.submit(Request.Allocate.builder(alloc, requester, AllocDirective.NEW).nodeCount(1).build());
    String allocId = gateway.awaitReply(alloc).info(PmixKeys.ALLOC_ID);
    RequestId spawn = id();
    App app = new App("sleep", List.of("sleep", "60"), List.of(), null, 1, List.of());
    dvm.submit(Request.Spawn.of(spawn, requester, List.of(app)).withTarget(List.of(allocId)));
    String job = gateway.awaitReply(spawn).info(PmixKeys.NSPACE);

    RequestId release = id();
    dvm.submit(
        Request.Allocate.builder(release, requester, AllocDirective.RELEASE)
            .allocId(allocId)
            .build());
    assertThat(gateway.awaitReply(release).status()).isEqualTo(PmixStatus.SUCCESS);
    Await.until(
        () ->
            dvm.read(v -> v.job(job).map(j -> j.state().toString()).orElse(""))
                .join()
                .contains("TERMINATED"),
        "job to end");
    assertThat(dvm.read(v -> v.nodes().size()).join()).isEqualTo(2);
  }
}
