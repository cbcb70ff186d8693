package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Output options for ranks on node agents (docs/cli.md "Output"): their lines are tagged, labelled
 * and written to files as the controller's own node's are, since the controller cuts and writes
 * every node's output. The agents run in this JVM on loopback ({@link InJvmAgents}): two hosts of
 * two slots (the controller's own node has none then), so every rank runs on an agent.
 */
class RunOutputOnAgentsTest {
  @TempDir static Path dir;
  @TempDir Path out;
  private static DvmServer server;

  private static final String SH = "echo \"o $PMIX_RANK\"; echo \"e $PMIX_RANK\" >&2";

  @BeforeAll
  static void startDvm() throws Exception {
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
            DvmConfig.embedded("outagents", 1, 1, 0, dir)
                .withScheduler(DvmConfig.SchedulerKind.NONE),
            remote);
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  private static CliRun run(String... args) {
    List<String> all = new ArrayList<>(List.of("run", "--dir", dir.toString()));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  void ranksOnAgentsAreTaggedAndLabelledAsTheControllersAre() {
    CliRun r = run("--tag-output", "-n", "4", "--", "sh", "-c", SH);
    assertThat(r.status()).as(r.err()).isZero();
    String j = r.out().substring(1, r.out().indexOf(','));
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < 4; rank++) {
      expected.add("[" + j + "," + rank + "]<stdout>: o " + rank);
    }
    assertThat(r.out().lines().sorted()).containsExactlyElementsOf(expected);
    CliRun l = run("-l", "-n", "4", "--", "sh", "-c", SH);
    assertThat(l.status()).as(l.err()).isZero();
    assertThat(l.err().lines().sorted()).containsExactly("0: e 0", "1: e 1", "2: e 2", "3: e 3");
  }

  @Test
  void ranksOnAgentsAreWrittenToTheControllersFiles() throws Exception {
    CliRun r = run("--output-filename", out + ":nocopy", "-n", "4", "--", "sh", "-c", SH);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
    for (int rank = 0; rank < 4; rank++) {
      Path d = out.resolve("1").resolve("rank." + rank);
      assertThat(Files.readString(d.resolve("stdout"))).isEqualTo("o " + rank + "\n");
      assertThat(Files.readString(d.resolve("stderr"))).isEqualTo("e " + rank + "\n");
    }
  }
}
