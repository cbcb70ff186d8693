package org.jdvm.server.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jdvm.core.NodeSpec;
import org.jdvm.host.Await;
import org.jdvm.scheduler.slurm.SlurmAllocation;
import org.jdvm.scheduler.slurm.SlurmCluster;
import org.jdvm.scheduler.slurm.SlurmCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agents started with {@code srun --overlap} inside a real Slurm job of three nodes ({@code salloc
 * -N 3}): the command runs on the node named, the secret arrives on its stdin and nowhere else, and
 * stopping the carrier ends it.
 */
class SrunAgentStarterTest {
  private static SlurmCluster cluster;
  private static String job;
  private static Map<String, String> sallocEnvironment;

  @BeforeAll
  static void up() throws Exception {
    cluster = SlurmCluster.upOrSkip();
    // What jdvm start sees when it runs as salloc's command (the allocation ends with it).
    sallocEnvironment = new HashMap<>();
    for (String line : cluster.run("salloc", "-N", "3", "-t", "1", "env").out().split("\n")) {
      int eq = line.indexOf('=');
      if (line.startsWith("SLURM") && eq > 0) {
        sallocEnvironment.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    SlurmCommands.Result r = cluster.run("salloc", "--no-shell", "-N", "3", "-t", "5");
    Matcher m = Pattern.compile("Granted job allocation ([0-9]+)").matcher(r.err());
    assertThat(m.find()).as(r.err()).isTrue();
    job = m.group(1);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static AgentStarter starter() {
    return SrunAgentStarter.inJob(SlurmCommands.system(cluster.env()), job);
  }

  @Test
  void insideSallocN3TheAllocationIsItsThreeNodesWithTheirSlots() {
    SlurmAllocation a = SlurmAllocation.fromEnvironment(sallocEnvironment).orElseThrow();
    assertThat(a.jobId()).matches("[0-9]+").isNotEqualTo(job);
    assertThat(a.nodes())
        .containsExactly(
            new NodeSpec("node1", 4), new NodeSpec("node2", 4), new NodeSpec("node3", 4));
    assertThat(SrunAgentStarter.argv(a.jobId(), "node2", List.of("jdvm", "agent")))
        .containsExactly(
            "srun",
            "--overlap",
            "--jobid=" + a.jobId(),
            "--nodes=1",
            "--ntasks=1",
            "--nodelist=node2",
            "--kill-on-bad-exit=1",
            "--mpi=none",
            "--cpu-bind=none",
            "--job-name=jdvm-agent",
            "--quiet",
            "jdvm",
            "agent");
  }

  @Test
  void theSecretReachesTheAgentsStdinOnTheNamedNodeAndNoCommandLine(@TempDir Path dir)
      throws Exception {
    Path got = dir.resolve("secret");
    byte[] secret = "s3cr3t-".concat(Long.toString(System.nanoTime())).getBytes();
    AgentStarter.Handle a =
        starter()
            .start(
                "node2",
                List.of("sh", "-c", "cat > " + got + "; echo $SLURMD_NODENAME > " + got + ".node"),
                secret);
    assertThat(a.onExit().get(30, TimeUnit.SECONDS)).isZero();
    assertThat(Files.readAllBytes(got)).isEqualTo(secret);
    assertThat(Files.readString(dir.resolve("secret.node")).strip()).isEqualTo("node2");
  }

  @Test
  void aFailingAgentsStatusAndLastWordsReachTheController() throws Exception {
    AgentStarter.Handle a =
        starter()
            .start("node1", List.of("sh", "-c", "echo cannot reach it >&2; exit 3"), new byte[0]);
    assertThat(a.onExit().get(30, TimeUnit.SECONDS)).isEqualTo(3);
    Await.until(() -> a.lastOutput().contains("cannot reach it"), "the agent's last words");
  }

  @Test
  void stoppingTheCarrierEndsTheAgentOnItsNode() throws Exception {
    String marker = ThreadLocalRandom.current().nextInt(100_000, 999_999) + ".5";
    byte[] secret = "not-on-any-command-line".getBytes();
    AgentStarter.Handle a = starter().start("node3", List.of("sleep", marker), secret);
    Await.until(() -> sleeper(marker).isPresent(), "sleep " + marker + " to run");
    long sleeper = sleeper(marker).orElseThrow();
    assertThat(Files.readString(Path.of("/proc/" + sleeper + "/environ")))
        .contains("SLURMD_NODENAME=node3")
        .doesNotContain("not-on-any-command-line");
    assertThat(Files.readString(Path.of("/proc/" + a.pid() + "/cmdline")))
        .contains("--nodelist=node3")
        .doesNotContain("not-on-any-command-line");
    a.stop();
    Await.until(
        () -> ProcessHandle.of(sleeper).map(h -> !h.isAlive()).orElse(true), "the agent to end");
    assertThat(ProcessHandle.of(a.pid())).isEmpty();
  }

  @Test
  void aHostileHostOrAnOptionAsTheCommandStartsNothing() {
    for (String host : List.of("node1;touch /tmp/x", "node[1-3]", "--uid=0", "$(id)")) {
      assertThatThrownBy(() -> starter().start(host, List.of("sleep", "1"), new byte[0]))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("not a Slurm node name");
    }
    assertThatThrownBy(() -> starter().start("node1", List.of("--uid=0", "sleep"), new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not an option");
  }

  /**
   * The pid of the process whose command line is {@code sleep <marker>} (srun passes the program
   * with its full path).
   */
  private static Optional<Long> sleeper(String marker) {
    String want = "sleep\0" + marker + "\0";
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs
          .filter(p -> p.getFileName().toString().matches("[0-9]+"))
          .filter(
              p -> {
                try {
                  String cmd =
                      new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                  return cmd.endsWith(want) && (cmd.equals(want) || cmd.endsWith("/" + want));
                } catch (IOException e) {
                  return false;
                }
              })
          .map(p -> Long.parseLong(p.getFileName().toString()))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
