package org.jdvm.agent.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.NodeEvents;
import org.jdvm.host.ProcListener;
import org.jdvm.host.identity.Credentials;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.NodeState;
import org.jdvm.server.agents.RemoteNodeAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Output back-pressure across the agent link (docs/ARCHITECTURE.md "Output back-pressure"): while
 * the controller's shell says a remote job's readers are behind ({@link NodeEvents#holdOutput}),
 * the agent is sent no credit and stops reading the job's pipes once a window of it is out, so the
 * controller receives at most {@link LinkMessage.OutputCredit#WINDOW_BYTES} (plus a chunk) after
 * the pause; resumed, every byte arrives, in order, and the link stays up.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AgentOutputCreditTest {
  /** More than the 64 MiB past which a connection that did not read its output was cut off. */
  private static final long BYTES = 100_000_000L;

  private static final String LINE = "0123456789abcdef\n";

  /** What the shell would be: it counts the output and holds it while {@link #behind}. */
  private static final class PacedReader implements NodeEvents {
    final AtomicLong received = new AtomicLong();
    final CRC32 crc = new CRC32();
    final ConcurrentLinkedQueue<Runnable> resumes = new ConcurrentLinkedQueue<>();
    volatile boolean behind;
    volatile String exit;

    @Override
    public void output(String node, String nspace, int rank, ProcListener.Stream s, byte[] chunk) {
      crc.update(chunk);
      received.addAndGet(chunk.length);
    }

    @Override
    public boolean holdOutput(String node, String nspace, Runnable resume) {
      if (!behind) {
        return false;
      }
      resumes.add(resume);
      return true;
    }

    @Override
    public void exited(String node, String nspace, int rank, int code, int signal) {
      exit = code + "/" + signal;
    }

    @Override
    public void exited(String node, String nspace, int rank, int status) {
      exit = status + "/0";
    }

    void catchUp() {
      behind = false;
      Runnable r;
      while ((r = resumes.poll()) != null) {
        r.run();
      }
    }
  }

  @Test
  void aReaderThatFallsBehindPausesTheRemoteJobWithinAWindowAndLosesNothing() throws Exception {
    Credentials credentials = Credentials.generate();
    long pid = -1;
    Thread agentThread = null;
    AgentDaemon daemon = null;
    try (AgentHub hub =
        AgentHub.open(
            credentials,
            new AgentHub.Settings(200, 25),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            System::nanoTime)) {
      RemoteNodeAgent n1 = hub.expect("n1");
      PacedReader reader = new PacedReader();
      n1.bind(reader);
      daemon =
          new AgentDaemon(
              new AgentDaemon.Options(
                  hub.address(), "n1", "testhost", 2, 5000, AgentDaemon.NO_RELAY),
              credentials,
              System::nanoTime);
      AgentDaemon d = daemon;
      agentThread = Thread.ofPlatform().start(d::run);
      await("n1 up", () -> n1.state() == NodeState.UP);
      Link link = n1.link();

      String cmd = "yes " + LINE.strip() + " | head -c " + BYTES;
      pid =
          n1.launch("big@1", 0, new LaunchRequest(List.of("sh", "-c", cmd), Map.of(), null, false));
      await("output to flow", () -> reader.received.get() >= 4 << 20);
      reader.behind = true;
      long pausedAt = reader.received.get();
      // Far more than the window crosses a loopback link in this time when nothing paces it.
      Thread.sleep(3000);
      long sincePause = reader.received.get() - pausedAt;
      assertThat(sincePause)
          .as("output received after the reader fell behind (bytes)")
          .isLessThanOrEqualTo(LinkMessage.OutputCredit.WINDOW_BYTES + (64 << 10));
      assertThat(reader.exit).as("the job is paused on its full pipe, not ended").isNull();
      assertThat(link.isOpen()).isTrue();

      reader.catchUp();
      await("the job's exit", () -> reader.exit != null);
      assertThat(reader.exit).isEqualTo("0/0");
      assertThat(reader.received.get()).as("every byte arrives").isEqualTo(BYTES);
      assertThat(reader.crc.getValue()).as("in order").isEqualTo(expectedCrc());
      assertThat(n1.link()).as("the same link throughout").isSameAs(link);
      assertThat(link.isOpen()).isTrue();
    } finally {
      if (pid > 0) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
      if (daemon != null) {
        daemon.stop();
        agentThread.join(10_000);
      }
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

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 120 s: " + what);
      }
      Thread.sleep(5);
    }
  }
}
