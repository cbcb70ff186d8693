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

  /** Starts {@code command} and returns what it used, reported with its exit. */
  private Rusage usageOf(String... command) throws Exception {
    ProcessHost h = new ProcessHost(dir.resolve("h" + hosts.size()));
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
    LaunchRequest request = new LaunchRequest(List.of(command), ENV, null, false, false);
    started.add(h.start("node0/u", request, listener));
    return used.get(60, TimeUnit.SECONDS);
  }

  @Test
  void aProcessThatBurnsCpuReportsItsCpuAndWallTimeButNotTheJvmsPeakAsItsOwn() throws Exception {
    // A shell loop: some tenths of a second of CPU, a resident set of a few MiB.
    Rusage u = usageOf("sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done");
    assertThat(u).isNotNull();
    assertThat(u.userMicros() + u.systemMicros()).isPositive();
    assertThat(u.wallMicros()).isPositive();
    // The kernel's ru_maxrss of a child born sharing this JVM's memory is at least this JVM's peak
    // (recorded at its exec); reporting it would say a shell loop used the JVM's memory.
    assertThat(u.maxRssKiB()).isEqualTo(-1);
  }

  @Test
  void aProcessThatTouchesMoreMemoryThanTheJvmReportsItsPeak() throws Exception {
    long jvmKiB = org.jdvm.host.os.Posix.selfMaxRssKiB();
    long bytes = (jvmKiB + (128 << 10)) * 1024; // 128 MiB more than this JVM's peak
    Rusage u = usageOf("perl", "-e", "my $x = 'x' x " + bytes + "; exit 0");
    assertThat(u.maxRssKiB()).isGreaterThanOrEqualTo(bytes / 1024);
    assertThat(u.userMicros() + u.systemMicros()).isPositive();
  }
}
