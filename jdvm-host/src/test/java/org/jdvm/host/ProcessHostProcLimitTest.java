package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jdvm.host.os.Containment;
import org.jdvm.pmix.Signal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each job's processes on a node are bounded in number (docs/ARCHITECTURE.md "The process host"): a
 * rank that forks past the bound has its job ended, told why on its standard error, and every
 * process of it is gone afterwards, while another job on the node runs on. In both containment
 * modes (cgroup skipped where none can be made here).
 */
class ProcessHostProcLimitTest {
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

  /** The bound the tests set: small, so that a shell loop passes it at once. */
  private static final int LIMIT = 20;

  @TempDir Path dir;
  private ProcessHost host;
  private final List<Long> pids = new ArrayList<>();

  @AfterEach
  void endEverythingThisTestStarted() {
    if (host != null) {
      host.close();
    }
    for (long pid : pids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /** Collects a process's output and exit. */
  static final class Recorder implements ProcListener {
    final StringBuffer out = new StringBuffer();
    final CompletableFuture<int[]> exit = new CompletableFuture<>();

    @Override
    public void output(Stream stream, byte[] chunk) {
      out.append(new String(chunk, StandardCharsets.UTF_8));
    }

    @Override
    public void exited(int exitCode, int signal) {
      exit.complete(new int[] {exitCode, signal});
    }

    /** The numbers the process printed, one a line. */
    List<Long> pids() {
      List<Long> l = new ArrayList<>();
      for (String s : out.toString().split("\\n")) {
        if (s.matches("\\d+")) {
          l.add(Long.parseLong(s));
        }
      }
      return l;
    }
  }

  private static boolean gone(long pid) {
    return !Files.exists(Path.of("/proc/" + pid)) || Containment.zombie((int) pid);
  }

  @ParameterizedTest(name = "cgroup={0}")
  @ValueSource(booleans = {true, false})
  void aJobForkingPastItsBoundIsEndedWithWhyAndNothingOfItIsLeftWhileAnotherRunsOn(boolean cgroup)
      throws Exception {
    host = new ProcessHost(dir, cgroup, Integer.MAX_VALUE, Long.MAX_VALUE, LIMIT);
    if (cgroup) {
      assumeTrue(host.isolation().contains("cgroup"), "no writable cgroup v2 here");
    }
    assertThat(host.containment()).contains("at most " + LIMIT);

    Recorder other = new Recorder();
    long otherPid =
        host.start(
                "node0/other",
                new LaunchRequest(
                    List.of("sh", "-c", "sleep 300 & echo $!; echo ready; wait"), ENV, null),
                other)
            .pid();
    pids.add(otherPid);
    Await.until(() -> other.out.toString().contains("ready"), "the other job to run");
    pids.addAll(other.pids());

    Recorder bomb = new Recorder();
    int n = 3 * LIMIT;
    String loop =
        "for i in $(seq " + n + "); do sleep 60 & echo $!; done 2>/dev/null; echo forked; wait";
    long bombPid =
        host.start("node0/bomb", new LaunchRequest(List.of("sh", "-c", loop), ENV, null), bomb)
            .pid();
    pids.add(bombPid);

    int[] end = bomb.exit.get(30, TimeUnit.SECONDS);
    pids.addAll(bomb.pids());
    assertThat(end[1]).as("ended by jdvm's KILL").isEqualTo(Signal.KILL.number());
    assertThat(bomb.out.toString())
        .as("the owner sees why on the job's standard error")
        .contains("went past their bound", "at most " + LIMIT);
    assertThat(bomb.pids()).as("it had forked").isNotEmpty();
    for (long pid : bomb.pids()) {
      Await.until(() -> gone(pid), "pid " + pid + " of the ended job to be gone");
    }

    assertThat(other.exit).as("the other job runs on").isNotDone();
    for (long pid : other.pids()) {
      assertThat(gone(pid)).as("the other job's pid %d", pid).isFalse();
    }
    assertThat(other.out.toString()).doesNotContain("bound");
  }
}
