package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.SpawnRequest;
import org.jdvm.server.agents.LocalAgentPids;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded DVM whose virtual nodes live in local agents ({@code jdvm start --node-agents on},
 * docs/ARCHITECTURE.md "Processes beyond one process's open-file limit"), started detached as users
 * start it: its processes run under the agents, not the controller; their output is forwarded;
 * {@code jdvm stop} leaves no process and no agent behind, by pid; a controller killed with SIGKILL
 * leaves none either.
 */
class LocalAgentsEndToEndTest {
  @TempDir Path dir;

  /** Everything a test started, ended by pid whatever happens. */
  private final List<Long> started = new ArrayList<>();

  @AfterEach
  void endWhatWasStarted() {
    CliRun.of("stop", "--dir", dir.toString());
    started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  private ProcessHandle start(int nodes, int slots) {
    CliRun start =
        CliRun.of(
            "start",
            "--detach",
            "--dir",
            dir.toString(),
            "--nodes",
            "" + nodes,
            "--slots",
            "" + slots,
            "--spare",
            "0",
            "--node-agents",
            "on");
    assertThat(start.status()).as(start.err()).isZero();
    assertThat(start.out()).contains("each in a local jdvm agent");
    ProcessHandle dvm = ProcessHandle.of(contact().pid()).orElseThrow();
    started.add(dvm.pid());
    List<ProcessHandle> agents = LocalAgentPids.running(dir);
    assertThat(agents).hasSize(nodes);
    agents.forEach(a -> started.add(a.pid()));
    return dvm;
  }

  private Contact contact() {
    try {
      return Contact.fromFile(dir.resolve(Contact.CONTACT_FILE));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Spawns {@code n} sleeping ranks; their pids, once every one runs, each checked alive. */
  private List<Long> sleepers(JdvmClient tool, int n) throws Exception {
    tool.spawn(SpawnRequest.of("sleep", "300").procs(n).forwardOutput(false).build());
    List<Long> pids = new ArrayList<>();
    Listings.until(
        () -> {
          pids.clear();
          pids.addAll(Listings.runningPids(jobsJson(tool)));
          return pids.size() == n;
        },
        n + " running processes",
        240);
    started.addAll(pids);
    assertThat(pids).allMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false));
    return pids;
  }

  private static String jobsJson(JdvmClient tool) {
    try {
      return tool.jobsJson();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The agents that are these processes' parents. */
  private static Set<Long> parents(List<Long> pids) {
    Set<Long> out = new HashSet<>();
    for (long p : pids) {
      ProcessHandle.of(p).flatMap(ProcessHandle::parent).ifPresent(h -> out.add(h.pid()));
    }
    return out;
  }

  /**
   * Waits until none of {@code pids} runs: each exited, reaped or not (one whose parent died
   * belongs to the nearest child subreaper, such as this JVM, which need not reap it).
   */
  private static void allGone(List<Long> pids, String what) throws InterruptedException {
    Listings.until(
        () ->
            pids.stream()
                .noneMatch(
                    p ->
                        ProcessHandle.of(p).isPresent()
                            && !org.jdvm.host.os.Containment.zombie(p.intValue())),
        what,
        60);
  }

  @Test
  void twoThousandProcessesRunUnderTheAgentsAndStopLeavesNoneBehind() throws Exception {
    ProcessHandle dvm = start(4, 500);
    Set<Long> agents = new HashSet<>();
    LocalAgentPids.running(dir).forEach(a -> agents.add(a.pid()));
    CliRun run =
        CliRun.of(
            "run", "--dir", dir.toString(), "-n", "4", "--", "sh", "-c", "echo hi $PMIX_RANK");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains("hi 0", "hi 1", "hi 2", "hi 3");
    List<Long> pids;
    try (JdvmClient tool =
        JdvmClient.connector().dir(dir).output(OutputHandler.DISCARD).connect()) {
      pids = sleepers(tool, 2000);
      assertThat(parents(pids)).isSubsetOf(agents).doesNotContain(dvm.pid());
      CliRun nodes = CliRun.of("nodes", "--json", "--dir", dir.toString());
      assertThat(Listings.list(nodes.out())).extracting(n -> n.get("agent")).containsOnly("up");
    }
    CliRun stop = CliRun.of("stop", "--dir", dir.toString());
    assertThat(stop.status()).as(stop.err()).isZero();
    allGone(pids, "every process ended by jdvm stop");
    allGone(new ArrayList<>(agents), "every local agent ended by jdvm stop");
    assertThat(dir.resolve(LocalAgentPids.FILE)).doesNotExist();
  }

  @Test
  void aControllerKilledWithSigkillLeavesNoProcessAndNoAgent() throws Exception {
    ProcessHandle dvm = start(2, 100);
    List<Long> agents = new ArrayList<>();
    LocalAgentPids.running(dir).forEach(a -> agents.add(a.pid()));
    List<Long> pids;
    try (JdvmClient tool =
        JdvmClient.connector().dir(dir).output(OutputHandler.DISCARD).connect()) {
      pids = sleepers(tool, 200);
    }
    dvm.destroyForcibly(); // SIGKILL: its links close with it
    allGone(pids, "every process ended by its agent once the controller died");
    allGone(agents, "every local agent gone with its controller");
  }

  @Test
  void nodeAgentsRefusesAnUnknownModeBeforeAnythingStarts() {
    CliRun bad = CliRun.of("start", "--dir", dir.toString(), "--node-agents", "sometimes");
    assertThat(bad.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(bad.err()).contains("--node-agents takes auto, on or off, not 'sometimes'");
    assertThat(dir.resolve(Contact.CONTACT_FILE)).doesNotExist();
    CliRun across =
        CliRun.of("start", "--dir", dir.toString(), "--hosts", "somehost", "--node-agents", "on");
    assertThat(across.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(across.err()).contains("--node-agents on is for a DVM on this machine");
  }
}
