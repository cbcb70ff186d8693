package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process whose output's receiver is behind ({@link ProcListener#holdOutput}) is not read until
 * it is resumed (docs/ARCHITECTURE.md "Output back-pressure"): it blocks on its full pipe; its exit
 * is reaped meanwhile but reported only after its output; and the time it has to drain after its
 * exit does not run while it is held, so its last output is never cut.
 */
class ProcessHostHoldOutputTest {
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path dir;
  private ProcessHost host;
  private ProcessHost.RunningProc proc;

  @AfterEach
  void end() {
    if (proc != null) {
      ProcessHandle.of(proc.pid()).ifPresent(ProcessHandle::destroyForcibly);
    }
    if (host != null) {
      host.close();
    }
  }

  /** Holds after the first chunk, once; counts what arrives. */
  static final class Held implements ProcListener {
    final AtomicLong bytes = new AtomicLong();
    final AtomicReference<Runnable> resume = new AtomicReference<>();
    final CompletableFuture<int[]> exit = new CompletableFuture<>();
    private boolean heldOnce;

    @Override
    public void output(Stream stream, byte[] chunk) {
      bytes.addAndGet(chunk.length);
    }

    @Override
    public boolean holdOutput(Runnable r) {
      if (heldOnce) {
        return false;
      }
      heldOnce = true;
      resume.set(r);
      return true;
    }

    @Override
    public void exited(int exitCode, int signal) {
      exit.complete(new int[] {exitCode, signal});
    }
  }

  @Test
  void aHeldProcessThatExitsKeepsItsLastOutputPastTheDrainDeadline() throws Exception {
    host = new ProcessHost(dir, false, Integer.MAX_VALUE, Long.MAX_VALUE);
    Held l = new Held();
    // One byte, then (once held) 30,000 more that fit in the pipe, and the exit.
    String script = "printf a; sleep 0.3; head -c 30000 /dev/zero; exit 3";
    proc = host.start("node0/a", new LaunchRequest(List.of("sh", "-c", script), ENV, null), l);
    Await.until(() -> l.resume.get() != null, "the first chunk and the hold");
    assertThat(proc.awaitExit(TimeUnit.SECONDS.toNanos(20))).as("reaped while held").isTrue();
    Thread.sleep(4 * Poller.DRAIN_AFTER_EXIT_MS);
    assertThat(l.exit).as("its exit waits for its output").isNotDone();
    assertThat(l.bytes.get()).isEqualTo(1);

    l.resume.get().run();
    assertThat(l.exit.get(20, TimeUnit.SECONDS)).containsExactly(3, 0);
    assertThat(l.bytes.get()).as("every byte, the last ones included").isEqualTo(30_001);
  }

  @Test
  void aHeldProcessBlocksOnItsFullPipeAndGoesOnWhenResumed() throws Exception {
    host = new ProcessHost(dir, false, Integer.MAX_VALUE, Long.MAX_VALUE);
    Held l = new Held();
    long total = 8L << 20;
    String script = "head -c " + total + " /dev/zero";
    proc = host.start("node0/b", new LaunchRequest(List.of("sh", "-c", script), ENV, null), l);
    Await.until(() -> l.resume.get() != null, "the first chunk and the hold");
    Thread.sleep(500);
    assertThat(proc.awaitExit(0)).as("blocked on its full pipe, not done").isFalse();
    assertThat(l.bytes.get()).as("nothing read while held").isLessThanOrEqualTo(64 << 10);

    l.resume.get().run();
    assertThat(l.exit.get(30, TimeUnit.SECONDS)).containsExactly(0, 0);
    assertThat(l.bytes.get()).isEqualTo(total);
  }
}
