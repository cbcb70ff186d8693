package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a process used ({@link Rusage}) comes with its exit: the rusage the kernel gives when the
 * host reaps it (the raw {@code waitid}), and the time from its start to its reaping.
 */
class ProcessHostUsageTest {
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

  @org.junit.jupiter.api.io.TempDir Path dir;
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

  @Test
  void aProcessThatBurnsCpuReportsItsCpuTimePeakMemoryAndWallTime() throws Exception {
    ProcessHost h = new ProcessHost(dir);
    hosts.add(h);
    CompletableFuture<Rusage> used = new CompletableFuture<>();
    ProcListener listener =
        new ProcListener() {
          @Override
          public void output(Stream stream, byte[] chunk) {}

          @Override
          public void exited(int exitCode, int signal) {
            used.completeExceptionally(new AssertionError("exited without its usage"));
          }

          @Override
          public void exited(int exitCode, int signal, Rusage usage) {
            used.complete(usage);
          }
        };
    // A shell loop: some tenths of a second of CPU in the process itself.
    LaunchRequest burn =
        new LaunchRequest(
            List.of("sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"),
            ENV,
            null,
            false,
            false);
    started.add(h.start("node0/u", burn, listener));
    Rusage u = used.get(60, TimeUnit.SECONDS);
    assertThat(u).isNotNull();
    assertThat(u.userMicros() + u.systemMicros()).isPositive();
    assertThat(u.maxRssKiB()).isPositive();
    assertThat(u.wallMicros()).isPositive();
  }
}
