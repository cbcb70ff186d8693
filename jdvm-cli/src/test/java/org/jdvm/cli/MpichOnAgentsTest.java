package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPICH programs whose ranks run on node agents (docs/protocol.md "Simple PMI"): each agent's relay
 * serves simple PMI to its host's processes, proves them there and carries their lines to the
 * controller's engine, entering each barrier once for its node. The agents run in this JVM on
 * loopback ({@link InJvmAgents}), two hosts of two slots beside the controller's own node of one,
 * so one job has ranks served by the controller and by both relays, in one modex and one barrier.
 * Across real hosts: {@code MultiHostTest}.
 */
class MpichOnAgentsTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");

  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;
  private static String noMpi;
  private static String noPmi2;

  @BeforeAll
  static void startDvm() throws Exception {
    assertThat(PROGRAMS.resolve("mpi_ring.c")).exists();
    for (String program : List.of("mpi_hello", "mpi_ring", "mpi_names", "mpi_abort")) {
      if (!MpiJobs.build("mpicc.mpich", PROGRAMS.resolve(program + ".c"), bin.resolve(program))) {
        noMpi = "mpicc.mpich (libmpich-dev) could not build " + program;
      }
    }
    String[] pmiClients = MpiJobs.buildPmiClients(PROGRAMS, bin);
    noMpi = noMpi != null ? noMpi : pmiClients[0];
    noPmi2 = pmiClients[1];
    RemoteHosts remote =
        new RemoteHosts(
            HostList.parseHosts("a1:2,a2:2"),
            new InJvmAgents(),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            List.of("jdvm"),
            new AgentHub.Settings(250, 8),
            60_000,
            line -> {});
    server =
        DvmServer.start(
            DvmConfig.embedded("mpichagents", 1, 1, 0, dir)
                .withScheduler(DvmConfig.SchedulerKind.NONE),
            remote);
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  private static CliRun run(int np, String program) throws Exception {
    return new MpiJobs(server, dir).run(np, bin.resolve(program).toString());
  }

  @Test
  void anMpichJobOnTheControllersNodeAndTwoAgentsWiresUpAndPassesItsToken() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    long[] before = server.endpoint().pmi().carriedCounts();
    CliRun hello = run(4, "mpi_hello");
    long[] after = server.endpoint().pmi().carriedCounts();
    assertThat(hello.status()).as(hello.out() + hello.err()).isZero();
    List<String> lines = MpiJobs.lines(hello, "OK mpi_hello");
    assertThat(lines).as(hello.out() + hello.err()).hasSize(4);
    for (int rank = 0; rank < 4; rank++) {
      assertThat(lines.get(rank)).startsWith("OK mpi_hello rank=" + rank + " size=4 ");
    }
    // every rank came through an agent's relay, and each node entered each barrier once for its
    // two ranks: as many ranks represented as entries sent
    assertThat(after[0] - before[0]).isEqualTo(4);
    long entries = after[1] - before[1];
    assertThat(entries).isPositive().isEven();
    assertThat(after[2] - before[2]).isEqualTo(entries);
    CliRun ring = run(4, "mpi_ring");
    assertThat(ring.status()).as(ring.out() + ring.err()).isZero();
    assertThat(MpiJobs.lines(ring, "OK mpi_ring")).as(ring.out() + ring.err()).hasSize(4);
  }

  @Test
  void namesPublishedOnOneAgentAreFoundOnAnother() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(4, "mpi_names");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(MpiJobs.lines(r, "OK mpi_names")).as(r.out() + r.err()).hasSize(4);
  }

  @Test
  void anAbortOnAnAgentEndsTheJobWithItsCode() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(4, "mpi_abort");
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(7);
    assertThat(r.out()).contains("ABORTING mpi_abort rank=3 code=7").doesNotContain("FAIL");
  }

  /** The children run where the parent runs on its agent's host (its cwd comes with it). */
  @Test
  void aSpawnFromAnAgentsRankMakesAChildJobWhoseOutputReachesTheRun() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(1, "pmi_spawn");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    String cwd = Path.of("").toAbsolutePath().toString();
    assertThat(MpiJobs.lines(r, "OK pmi_spawn"))
        .as(r.out() + r.err())
        .hasSize(4)
        .contains(
            "OK pmi_spawn child rank=0 size=3 appnum=0 args=child,two words"
                + " preput=tag#0$port#42$ cwd="
                + cwd,
            "OK pmi_spawn parent rank=0 size=1 rc=0");
  }

  /** A PMI-2 client on the agents: its relay answers its first line and carries its commands. */
  @Test
  void aPmi2ClientOnTheAgentsWiresUpWithOneFenceEntryPerNode() throws Exception {
    assumeTrue(noPmi2 == null, noPmi2);
    long[] before = server.endpoint().pmi().carriedCounts();
    CliRun r = run(4, "pmi2_hello");
    long[] after = server.endpoint().pmi().carriedCounts();
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(MpiJobs.lines(r, "OK pmi2_hello"))
        .as(r.out() + r.err())
        .hasSize(4)
        .allMatch(l -> l.endsWith(" seen=yes port=port-of-rank-0"));
    assertThat(after[0] - before[0]).isEqualTo(4);
    long entries = after[1] - before[1];
    assertThat(entries).isPositive().isEven();
    assertThat(after[2] - before[2]).isEqualTo(entries);
  }
}
