package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.host.Await;
import org.jdvm.host.OtherUser;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.AgentStarter;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another local user can do to a node agent's PMIx relay (docs/protocol.md "Node agents"): it
 * holds thousands of connections to the relay's port, and a job's ranks on that agent still
 * initialise and fence through it, while the other user holds at most {@link
 * ConnectionGate.Limits#pendingPerUser} of them. The agent runs in this JVM (an {@link
 * AgentStarter} that starts {@link AgentDaemon}s instead of ssh), its ranks are libpmix programs;
 * runs as root with a throwaway user (skipped otherwise, and without gcc and libpmix-dev).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AgentNeighboursTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  private static final String PYTHON = "/usr/bin/python3";

  /** Opens N connections to a port, holds them silent, and waits for its stdin to close. */
  private static final String FLOOD =
      """
      import resource, socket, sys
      soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
      resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
      port, n = int(sys.argv[1]), int(sys.argv[2])
      held = []
      for i in range(n):
          try:
              held.append(socket.create_connection(("127.0.0.1", port)))
          except OSError:
              pass
      print("opened", len(held), flush=True)
      sys.stdin.read()
      """;

  @TempDir Path dir;
  @TempDir Path bin;

  @Test
  void anotherUsersConnectionsToTheRelayDoNotKeepTheJobsRanksFromInitialisingAndFencing()
      throws Exception {
    assumeTrue(new java.io.File(PYTHON).canExecute(), PYTHON + " runs the other user's flood");
    String fence = build("pmix_fence_collect");
    InJvmAgents agents = new InJvmAgents();
    try (OtherUser other = OtherUser.create();
        DvmServer server = dvm(agents)) {
      CliRun first = jdvm("run", "-n", "1", "--", "true");
      assertThat(first.status()).as(first.err()).isZero();
      assertThat(agents.relays).hasSize(1);
      var relay = agents.relays.getFirst().relay(); // opened by the first launch
      int port = relay.tcpAddress().getPort();

      Process flood = other.start(PYTHON, "-c", FLOOD, Integer.toString(port), "5000");
      try {
        BufferedReader said =
            new BufferedReader(
                new InputStreamReader(flood.getInputStream(), StandardCharsets.UTF_8));
        assertThat(said.readLine()).startsWith("opened");

        CliRun job = jdvm("run", "-n", "4", "--", fence, "100");
        assertThat(job.status()).as(job.out() + job.err()).isZero();
        assertThat(job.out().lines().filter(l -> l.startsWith("OK pmix_fence_collect")))
            .as(job.out())
            .isNotEmpty();
        assertThat(job.out()).doesNotContain("FAIL");
        assertThat(relay.pendingOthers())
            .isLessThanOrEqualTo(ConnectionGate.Limits.DEFAULT.pendingPerUser());
      } finally {
        flood.getOutputStream().close(); // the flood ends: what it held is released
        flood.waitFor(30, TimeUnit.SECONDS);
        flood.destroyForcibly();
      }
      Await.until(() -> relay.pendingOthers() == 0, "the flood's connections closed");
    }
  }

  private DvmServer dvm(InJvmAgents agents) throws IOException {
    RemoteHosts remote =
        new RemoteHosts(
            HostList.parseHosts("a1:4"),
            agents,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            List.of("jdvm"),
            new AgentHub.Settings(250, 8),
            60_000,
            line -> {});
    return DvmServer.start(
        DvmConfig.embedded("nb", 1, 1, 0, dir).withScheduler(DvmConfig.SchedulerKind.NONE), remote);
  }

  private CliRun jdvm(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString()));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** Builds a libpmix test program into {@link #bin}; skips the test when it cannot. */
  private String build(String program) throws Exception {
    String flags = output(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    assumeTrue(flags != null, "pkg-config or libpmix-dev (pmix.pc) is not installed");
    List<String> cmd = new ArrayList<>(List.of("gcc", "-o", bin.resolve(program).toString()));
    cmd.add(PROGRAMS.resolve(program + ".c").toString());
    cmd.addAll(List.of(flags.strip().split("\\s+")));
    assumeTrue(output(cmd) != null, "gcc with libpmix-dev could not build " + program);
    return bin.resolve(program).toString();
  }

  private static String output(List<String> cmd) throws InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return null;
    }
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
