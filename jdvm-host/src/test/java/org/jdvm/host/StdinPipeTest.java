package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A process's stdin fed by its spawner (docs/wireup.md §c.7): only a stdin target gets a pipe, the
 * bytes arrive in order and the empty chunk is its end of file, and a process that does not read
 * holds at most {@link StdinPipe#MAX_QUEUED_BYTES} before its feeder is made to wait.
 */
class StdinPipeTest {
  private static ProcessHost host;
  private RecordingEvents events;
  private LocalNodeAgent agent;

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
  }

  private static Map<String, String> env() {
    Map<String, String> m = new HashMap<>();
    m.put("PATH", "/usr/bin:/bin");
    return m;
  }

  private void launch(String nspace, int rank, boolean stdin, String... argv) throws Exception {
    agent.launch(nspace, rank, new LaunchRequest(List.of(argv), env(), null, stdin));
  }

  @Test
  void aStdinTargetReadsEveryByteInOrderAndEndsAtTheEmptyChunk() throws Exception {
    launch("job1", 0, true, "sh", "-c", "wc -c; cksum");
    byte[] input = new byte[100_000];
    new Random(7).nextBytes(input);
    List<CompletableFuture<Void>> written = new ArrayList<>();
    for (int at = 0; at < input.length; at += 4096) {
      byte[] chunk = java.util.Arrays.copyOfRange(input, at, Math.min(input.length, at + 4096));
      written.add(agent.writeStdin("job1", 0, chunk, 10_000));
    }
    written.add(agent.writeStdin("job1", 0, new byte[0], 10_000));
    for (CompletableFuture<Void> w : written) {
      w.get(20, TimeUnit.SECONDS);
    }
    assertThat(events.awaitExit("job1", 0)).isZero();
    assertThat(events.stdoutOf("job1", 0)).startsWith("100000\n");
  }

  @Test
  void aProcessThatIsNotAStdinTargetReadsDevNullAndCannotBeFed() throws Exception {
    launch("job1", 0, false, "sh", "-c", "wc -c");
    assertThat(events.awaitExit("job1", 0)).isZero();
    assertThat(events.stdoutOf("job1", 0)).isEqualTo("0\n");
    CompletableFuture<Void> w = agent.writeStdin("job1", 0, new byte[] {1}, 1000);
    assertThat(w).isCompletedExceptionally();
  }

  @Test
  void aProcessThatDoesNotReadHoldsABoundedAmountAndItsFeederWaits() throws Exception {
    launch("job1", 0, true, "sleep", "60");
    byte[] chunk = new byte[64 << 10];
    List<CompletableFuture<Void>> written = new ArrayList<>();
    CompletableFuture<Void> refused = null;
    long started = System.nanoTime();
    for (int i = 0; i < 64 && refused == null; i++) {
      CompletableFuture<Void> w = agent.writeStdin("job1", 0, chunk, 300);
      if (w.isCompletedExceptionally()) {
        refused = w;
      } else {
        written.add(w);
      }
    }
    assertThat(refused).as("a write past the bound waits, then is refused").isNotNull();
    assertThat(System.nanoTime() - started).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(250));
    // The kernel's pipe holds 64 KiB; the agent at most its bound more.
    assertThat(written.size() * chunk.length)
        .isLessThanOrEqualTo(StdinPipe.MAX_QUEUED_BYTES + (128 << 10));
    agent.signalProc("job1", 0, 9);
    events.awaitExit("job1", 0);
    for (CompletableFuture<Void> w : written) {
      try {
        w.get(10, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(StdinPipe.Closed.class);
      }
    }
  }

  @Test
  void aProcessThatClosesItsStdinFailsTheFeedWithoutHangingIt() throws Exception {
    launch("job1", 0, true, "head", "-c", "10");
    byte[] chunk = new byte[32 << 10];
    CompletableFuture<Void> last = null;
    for (int i = 0; i < 40; i++) {
      last = agent.writeStdin("job1", 0, chunk, 5000);
      if (last.isCompletedExceptionally()) {
        break;
      }
    }
    events.awaitExit("job1", 0);
    CompletableFuture<Void> after = agent.writeStdin("job1", 0, chunk, 1000);
    assertThat(after).isCompletedExceptionally();
    assertThat(agent.writeStdin("job1", 0, new byte[0], 1000)).isCompletedExceptionally();
  }
}
