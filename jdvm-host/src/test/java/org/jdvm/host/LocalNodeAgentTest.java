package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.Signal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LocalNodeAgentTest {
  private static ProcessHost host;
  private RecordingEvents events;
  private LocalNodeAgent agent;
  private final List<Long> extraPids = new ArrayList<>();

  @BeforeAll
  static void startHost() {
    host = new ProcessHost();
  }

  @AfterAll
  static void stopHost() {
    host.close();
  }

  @BeforeEach
  void newAgent() {
    events = new RecordingEvents();
    agent = new LocalNodeAgent("node0", host, events);
  }

  @AfterEach
  void endEveryProcessThisTestStarted() {
    agent.close();
    for (long pid : extraPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private static Map<String, String> env(String... kv) {
    Map<String, String> m = new HashMap<>();
    m.put("PATH", "/usr/bin:/bin");
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private long launch(String nspace, int rank, Map<String, String> env, String... argv)
      throws LaunchException {
    return agent.launch(nspace, rank, new LaunchRequest(List.of(argv), env, null));
  }

  @Test
  void aProcessRunsWithExactlyTheEnvironmentGivenAndItsOutputPrecedesItsExit() throws Exception {
    launch(
        "job1",
        0,
        env("PMIX_RANK", "0", "GREETING", "hello"),
        "sh",
        "-c",
        "echo $GREETING $PMIX_RANK; env | wc -l; exit 7");
    assertThat(events.awaitExit("job1", 0)).isEqualTo(7);
    // PATH, PMIX_RANK, GREETING, plus what sh itself always sets (PWD and SHLVL, or _ for dash)
    assertThat(events.stdoutOf("job1", 0)).startsWith("hello 0\n");
    assertThat(agent.runningProcs()).isZero();
  }

  @Test
  void aMissingCommandIsRefusedBeforeAnythingStarts() {
    assertThatThrownBy(() -> launch("job1", 0, env(), "no-such-command-jdvm"))
        .isInstanceOfSatisfying(
            LaunchException.class,
            e -> assertThat(e.kind()).isEqualTo(LaunchException.Kind.EXE_NOT_FOUND));
    assertThat(agent.runningProcs()).isZero();
  }

  @Test
  void aCommandIsResolvedOnTheProcessPathAndRelativeToItsWorkingDirectory(
      @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path script = dir.resolve("hello.sh");
    Files.writeString(script, "#!/bin/sh\necho from-script\n");
    script.toFile().setExecutable(true);
    agent.launch("job1", 0, new LaunchRequest(List.of("./hello.sh"), env(), dir));
    assertThat(events.awaitExit("job1", 0)).isZero();
    assertThat(events.stdoutOf("job1", 0)).isEqualTo("from-script\n");
  }

  @Test
  void aKilledProcessReportsOneHundredTwentyEightPlusTheSignal() throws Exception {
    launch("job1", 0, env(), "sleep", "60");
    agent.signalProc("job1", 0, Signal.KILL.number());
    assertThat(events.awaitExit("job1", 0)).isEqualTo(128 + 9);
  }

  @Test
  void aSignalToAJobReachesTheChildrenItsProcessesStarted() throws Exception {
    launch("job1", 0, env(), "sh", "-c", "sleep 60 & echo $!; wait");
    Await.until(() -> !events.stdoutOf("job1", 0).isEmpty(), "child pid");
    long child = Long.parseLong(events.stdoutOf("job1", 0).trim());
    extraPids.add(child);
    assertThat(ProcessHandle.of(child)).isPresent();
    agent.signalJob("job1", Signal.TERM.number());
    events.awaitExit("job1", 0);
    Await.until(() -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true), "child to die");
  }

  @Test
  void terminateAllEndsProcessesThatIgnoreTermAndProcessesThatAreStopped() throws Exception {
    launch("job1", 0, env(), "sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done");
    launch("job2", 0, env(), "sleep", "60");
    Await.until(() -> events.stdoutOf("job1", 0).contains("ready"), "trap installed");
    agent.signalJob("job2", Signal.STOP.number());
    agent.terminateAll(300);
    events.awaitExit("job1", 0);
    events.awaitExit("job2", 0);
    assertThat(agent.runningProcs()).isZero();
  }

  @Test
  void processesThatExitAtOnceLeaveNoEntryBehind() throws Exception {
    for (int i = 0; i < 50; i++) {
      launch("job" + i, 0, env(), "/bin/true");
    }
    for (int i = 0; i < 50; i++) {
      assertThat(events.awaitExit("job" + i, 0)).isZero();
    }
    assertThat(agent.runningProcs()).isZero();
  }

  @Test
  void aNodeThatLeftTheDvmLaunchesNothing() throws IOException {
    agent.close();
    assertThatThrownBy(() -> launch("job1", 0, env(), "/bin/true"))
        .isInstanceOfSatisfying(
            LaunchException.class,
            e -> assertThat(e.kind()).isEqualTo(LaunchException.Kind.NODE_GONE));
  }
}
