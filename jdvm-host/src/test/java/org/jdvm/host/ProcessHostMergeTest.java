package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process's stderr merged into its stdout ({@link LaunchRequest#mergeStderr}, {@code
 * PMIX_IOF_MERGE_STDERR_STDOUT}): one pipe, so what it writes to either arrives in the order it
 * wrote it, as stdout; and the host holds it with one descriptor instead of two, counted exactly.
 */
class ProcessHostMergeTest {
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path dir;
  private final List<ProcessHost> hosts = new ArrayList<>();
  private final List<ProcessHost.RunningProc> started = new ArrayList<>();

  @AfterEach
  void endEverythingThisTestStarted() {
    for (ProcessHost.RunningProc p : started) {
      ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
    }
    for (ProcessHost h : hosts) {
      h.close();
    }
  }

  private ProcessHost host(long maxFds) {
    ProcessHost h = new ProcessHost(dir, false, Integer.MAX_VALUE, maxFds);
    hosts.add(h);
    return h;
  }

  /** Each chunk with its stream, in arrival order, and the exit. */
  static final class Streams implements ProcListener {
    final StringBuffer out = new StringBuffer();
    final StringBuffer err = new StringBuffer();
    final CompletableFuture<int[]> exit = new CompletableFuture<>();

    @Override
    public void output(Stream stream, byte[] chunk) {
      (stream == Stream.STDOUT ? out : err).append(new String(chunk, StandardCharsets.UTF_8));
    }

    @Override
    public void exited(int exitCode, int signal) {
      exit.complete(new int[] {exitCode, signal});
    }

    int[] awaitExit() throws Exception {
      return exit.get(20, TimeUnit.SECONDS);
    }
  }

  private static final String ALTERNATE =
      "i=1; while [ $i -le 500 ]; do echo out$i; echo err$i >&2; i=$((i+1)); done";

  private static LaunchRequest alternating(boolean merge) {
    return new LaunchRequest(List.of("sh", "-c", ALTERNATE), ENV, null, false, merge);
  }

  @Test
  void aMergedProcessWritingAlternatelyToStdoutAndStderrArrivesInOrderOnStdout() throws Exception {
    ProcessHost h = host(Long.MAX_VALUE);
    Streams merged = new Streams();
    started.add(h.start("node0/a", alternating(true), merged));
    assertThat(merged.awaitExit()).containsExactly(0, 0);
    StringBuilder inOrder = new StringBuilder();
    for (int i = 1; i <= 500; i++) {
      inOrder.append("out").append(i).append('\n').append("err").append(i).append('\n');
    }
    assertThat(merged.out.toString()).isEqualTo(inOrder.toString());
    assertThat(merged.err.toString()).isEmpty();

    Streams apart = new Streams();
    started.add(h.start("node0/b", alternating(false), apart));
    assertThat(apart.awaitExit()).containsExactly(0, 0);
    assertThat(apart.out.toString()).startsWith("out1\nout2\n").doesNotContain("err");
    assertThat(apart.err.toString()).startsWith("err1\nerr2\n").doesNotContain("out");
  }

  private static LaunchRequest sleeper(boolean merge) {
    return new LaunchRequest(List.of("sleep", "300"), ENV, null, false, merge);
  }

  /** Starts sleepers until the host refuses one; returns how many it took. */
  private int fill(ProcessHost h, boolean merge, List<ProcessHost.RunningProc> into)
      throws Exception {
    while (true) {
      long fdsBefore = openFds();
      long childrenBefore = ProcessHandle.current().children().count();
      long heldBefore = h.fdsInUse();
      int liveBefore = h.liveProcs();
      try {
        ProcessHost.RunningProc p = h.start("node0/fill", sleeper(merge), new Streams());
        into.add(p);
        started.add(p);
      } catch (LaunchException e) {
        assertThat(e.kind()).isEqualTo(LaunchException.Kind.OUT_OF_RESOURCE);
        assertThat(e.getMessage()).contains("open files", "of the 24 it may hold");
        // Nothing half-started: no process, no descriptor, no count.
        assertThat(h.liveProcs()).isEqualTo(liveBefore);
        assertThat(h.fdsInUse()).isEqualTo(heldBefore);
        assertThat(openFds()).isEqualTo(fdsBefore);
        assertThat(ProcessHandle.current().children().count()).isEqualTo(childrenBefore);
        return into.size();
      }
      if (into.size() > 100) {
        throw new AssertionError("the host admitted more than 100 processes on 24 descriptors");
      }
    }
  }

  @Test
  void aHostAdmitsTwiceAsManyMergedProcessesAsUnmergedAndRefusesTheNextAsOutOfResource()
      throws Exception {
    // 24 descriptors, pidfds while fewer than 3 are in use: 1 process with a pidfd (3) and 10
    // without (2 each) unmerged; 2 with a pidfd (2 each) and 20 without (1 each) merged.
    ProcessHost h = host(24);
    assertThat(h.maxProcs()).isEqualTo(11);
    assertThat(h.maxMergedProcs()).isEqualTo(22);
    long fdsEmpty = openFds();

    List<ProcessHost.RunningProc> apart = new ArrayList<>();
    assertThat(fill(h, false, apart)).isEqualTo(11);
    assertThat(h.fdsInUse()).isEqualTo(23);
    assertThat(openFds() - fdsEmpty).as("descriptors the host opened").isEqualTo(h.fdsInUse());
    h.terminate(apart, 0);
    Await.until(() -> h.liveProcs() == 0 && h.fdsInUse() == 0, "every unmerged process reported");

    List<ProcessHost.RunningProc> merged = new ArrayList<>();
    assertThat(fill(h, true, merged)).isEqualTo(22);
    assertThat(h.fdsInUse()).isEqualTo(24);
    assertThat(openFds() - fdsEmpty).as("descriptors the host opened").isEqualTo(h.fdsInUse());
    h.terminate(merged, 0);
    Await.until(() -> h.liveProcs() == 0 && h.fdsInUse() == 0, "every merged process reported");
    Await.until(() -> openFds() == fdsEmpty, "the descriptors to be closed");
  }

  @Test
  void concurrentStartsNeverPassTheBudgetTogether() throws Exception {
    ProcessHost h = host(24);
    long fdsEmpty = openFds();
    List<ProcessHost.RunningProc> admitted =
        java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicInteger refused =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
    List<Thread> starters = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      starters.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      go.await();
                      for (int i = 0; i < 6; i++) {
                        try {
                          admitted.add(h.start("node0/race", sleeper(true), new Streams()));
                        } catch (LaunchException e) {
                          refused.incrementAndGet();
                        }
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
    }
    go.countDown();
    for (Thread t : starters) {
      t.join(30_000);
    }
    started.addAll(admitted);
    // 48 attempts on room for 22: exactly 22 run, whatever the interleaving.
    assertThat(admitted).hasSize(22);
    assertThat(refused.get()).isEqualTo(48 - 22);
    assertThat(h.fdsInUse()).isEqualTo(24);
    assertThat(openFds() - fdsEmpty).as("descriptors the host opened").isEqualTo(24);
    h.terminate(admitted, 0);
    Await.until(() -> h.liveProcs() == 0 && h.fdsInUse() == 0, "every process reported");
  }

  /**
   * The pipes and pidfds this JVM holds: what the host opens for processes, and nothing the JVM
   * opens or closes on its own meanwhile (jars, class files, sockets).
   */
  private static long openFds() {
    try (var s = Files.list(Path.of("/proc/self/fd"))) {
      return s.filter(
              fd -> {
                try {
                  String target = Files.readSymbolicLink(fd).toString();
                  return target.startsWith("pipe:") || target.equals("anon_inode:[pidfd]");
                } catch (java.io.IOException e) {
                  return false; // the listing's own descriptor, closed by now
                }
              })
          .count();
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
