package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.server.assembly.DvmServer;

/**
 * The stopped-reader scenario of the output back-pressure tests (docs/ARCHITECTURE.md "Output
 * back-pressure"), for a DVM whose job runs on the controller's node or on an agent: a {@code jdvm
 * run} stopped with SIGSTOP (as a terminal's Ctrl-Z does) while its job writes {@link #BYTES}, then
 * continued. Its checks: nothing is read while stopped, the reader is not cut off, the DVM holds at
 * most the bound given, the job waits on its full pipe, and every byte arrives in order.
 */
final class StoppedReader {
  /** More than the 64 MiB after which a connection that did not read was cut off. */
  static final long BYTES = 120_000_000L;

  private static final String LINE = "0123456789abcdef\n";

  private StoppedReader() {}

  /** The pids of every process the DVM starts from now on, for the test to end. */
  static Set<Long> watchJobPids(DvmServer server) {
    Set<Long> pids = ConcurrentHashMap.newKeySet();
    server
        .endpoint()
        .observe(
            o ->
                o.changes()
                    .forEach(
                        c -> {
                          if (c instanceof org.jdvm.core.Change.ProcsStarted s) {
                            s.procs().forEach(pr -> pids.add(pr.pid()));
                          }
                        }));
    return pids;
  }

  /**
   * Runs the scenario; {@code started} is told of the {@code jdvm run} process at once, so the test
   * ends it whatever happens.
   *
   * @return the most output the DVM held while the reader was stopped
   */
  static long stopWhileItWrites(
      DvmServer server, Path dir, Set<Long> jobPids, long mostHeld, Consumer<Process> started)
      throws Exception {
    List<String> cmd = ChildJdvm.command("run", "--dir", dir.toString(), "--stdin", "none", "--");
    cmd.addAll(List.of("sh", "-c", "yes " + LINE.strip() + " | head -c " + BYTES));
    Process run = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    started.accept(run);
    AtomicLong received = new AtomicLong();
    CRC32 crc = new CRC32();
    Thread reader = Thread.ofPlatform().start(() -> drain(run.getInputStream(), received, crc));

    awaitTrue(() -> received.get() >= 4 << 20, "the job's output to flow");
    signal(run.pid(), "STOP");
    // What jdvm run wrote before it stopped is still in the pipe to this test, and being read:
    // the count is taken once it has settled.
    long stoppedAt = settled(received);
    long most = 0;
    long t0 = System.nanoTime();
    while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4)) {
      most = Math.max(most, bufferedOutput(server));
      Thread.sleep(20);
    }
    assertThat(received.get()).as("nothing is read while jdvm run is stopped").isEqualTo(stoppedAt);
    assertThat(connectionsOpen(server)).as("the stopped reader is not cut off").isPositive();
    assertThat(most)
        .as("output the DVM held for the stopped reader (bytes)")
        .isPositive()
        .isLessThanOrEqualTo(mostHeld);
    assertThat(jobPids.stream().anyMatch(pid -> ProcessHandle.of(pid).isPresent()))
        .as("the job is blocked on its full pipe, not ended")
        .isTrue();

    signal(run.pid(), "CONT");
    assertThat(run.waitFor(300, TimeUnit.SECONDS)).as("jdvm run ends").isTrue();
    reader.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(run.exitValue()).isZero();
    assertThat(received.get()).as("every byte arrives").isEqualTo(BYTES);
    assertThat(crc.getValue()).as("in order").isEqualTo(expectedCrc());
    return most;
  }

  /** Continues a stopped {@code jdvm run} and ends it, and every process of its job. */
  static void end(Process run, Set<Long> jobPids) throws Exception {
    if (run != null) {
      signal(run.pid(), "CONT");
      run.destroyForcibly();
    }
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private static long bufferedOutput(DvmServer server) {
    long n = 0;
    for (Connection c : server.endpoint().connections()) {
      n += c.outputQueued();
    }
    return n;
  }

  private static long connectionsOpen(DvmServer server) {
    return server.endpoint().connections().stream().filter(c -> !c.isClosed()).count();
  }

  private static void drain(InputStream in, AtomicLong count, CRC32 crc) {
    byte[] buf = new byte[64 << 10];
    try (in) {
      int n;
      while ((n = in.read(buf)) > 0) {
        crc.update(buf, 0, n);
        count.addAndGet(n);
      }
    } catch (IOException e) {
      // The process is gone; what was read is what the test checks.
    }
  }

  private static long expectedCrc() {
    CRC32 crc = new CRC32();
    byte[] line = LINE.getBytes(StandardCharsets.US_ASCII);
    byte[] block = new byte[line.length * 4096];
    for (int i = 0; i < 4096; i++) {
      System.arraycopy(line, 0, block, i * line.length, line.length);
    }
    long left = BYTES;
    while (left > 0) {
      int n = (int) Math.min(left, block.length);
      crc.update(block, 0, n);
      left -= n;
    }
    return crc.getValue();
  }

  /** The count once it has not grown for 500 ms (at most 10 s). */
  private static long settled(AtomicLong count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long seen = count.get();
    while (System.nanoTime() < deadline) {
      Thread.sleep(500);
      long now = count.get();
      if (now == seen) {
        return now;
      }
      seen = now;
    }
    return seen;
  }

  private static void signal(long pid, String signal) throws Exception {
    new ProcessBuilder("/bin/kill", "-" + signal, Long.toString(pid)).start().waitFor();
  }

  private static void awaitTrue(java.util.function.BooleanSupplier c, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!c.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
