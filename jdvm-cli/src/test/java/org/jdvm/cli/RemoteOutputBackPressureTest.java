package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.agent.AgentRelay;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.host.identity.Credentials;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.AgentStarter;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output back-pressure end to end for a job on a node agent (docs/ARCHITECTURE.md "Output
 * back-pressure"): as {@link OutputBackPressureTest}, but the job runs on an agent (in this JVM, on
 * loopback) and its output crosses the agent link: a {@code jdvm run} stopped with SIGSTOP is not
 * cut off, the controller holds at most its high-water mark plus the link's window (and a chunk or
 * two) for it, and once it is continued every byte arrives, in order.
 */
class RemoteOutputBackPressureTest {
  @TempDir static Path dir;
  private static DvmServer server;
  private static final Set<Long> jobPids = ConcurrentHashMap.newKeySet();
  private Process run;

  /** More than the 64 MiB after which a connection that did not read was cut off. */
  private static final long BYTES = 120_000_000L;

  private static final String LINE = "0123456789abcdef\n";

  @BeforeAll
  static void startDvm() throws Exception {
    RemoteHosts remote =
        new RemoteHosts(
            HostList.parseHosts("a1:2"),
            new InJvmAgents(),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            List.of("jdvm"),
            new AgentHub.Settings(250, 8),
            60_000,
            line -> {});
    server =
        DvmServer.start(
            DvmConfig.embedded("rbp", 1, 1, 0, dir).withScheduler(DvmConfig.SchedulerKind.NONE),
            remote);
    server
        .endpoint()
        .observe(
            o ->
                o.changes()
                    .forEach(
                        c -> {
                          if (c instanceof org.jdvm.core.Change.ProcsStarted s) {
                            s.procs().forEach(pr -> jobPids.add(pr.pid()));
                          }
                        }));
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  @AfterEach
  void endWhatThisTestStarted() throws Exception {
    if (run != null) {
      signal(run.pid(), "CONT");
      run.destroyForcibly();
    }
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aStoppedRunIsPacedNotCutOffAndLosesNothing() throws Exception {
    List<String> cmd = ChildJdvm.command("run", "--dir", dir.toString(), "--stdin", "none", "--");
    cmd.addAll(List.of("sh", "-c", "yes " + LINE.strip() + " | head -c " + BYTES));
    run = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    AtomicLong received = new AtomicLong();
    CRC32 crc = new CRC32();
    Thread reader = Thread.ofPlatform().start(() -> drain(run.getInputStream(), received, crc));

    awaitTrue(() -> received.get() >= 4 << 20, "the job's output to flow");
    signal(run.pid(), "STOP");
    long stoppedAt = received.get();
    long most = 0;
    long t0 = System.nanoTime();
    while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4)) {
      most = Math.max(most, bufferedOutput());
      Thread.sleep(20);
    }
    System.err.println("the controller held at most " + most + " bytes for the stopped reader");
    assertThat(received.get()).as("nothing is read while jdvm run is stopped").isEqualTo(stoppedAt);
    assertThat(connectionsOpen()).as("the stopped reader is not cut off").isPositive();
    assertThat(most)
        .as("output the DVM held for the stopped reader (bytes)")
        .isPositive()
        .isLessThanOrEqualTo(
            Connection.OUTPUT_HIGH_WATER + LinkMessage.OutputCredit.WINDOW_BYTES + (128 << 10));
    assertThat(jobPids.stream().anyMatch(pid -> ProcessHandle.of(pid).isPresent()))
        .as("the job is blocked on its full pipe, not ended")
        .isTrue();

    signal(run.pid(), "CONT");
    assertThat(run.waitFor(300, TimeUnit.SECONDS)).as("jdvm run ends").isTrue();
    reader.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(run.exitValue()).isZero();
    assertThat(received.get()).as("every byte arrives").isEqualTo(BYTES);
    assertThat(crc.getValue()).as("in order").isEqualTo(expectedCrc());
  }

  /** Starts each agent in this JVM, with the relay {@code jdvm agent} opens. */
  static final class InJvmAgents implements AgentStarter {
    final List<AgentRelay> relays = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public Handle start(String host, List<String> argv, byte[] secret) {
      String controller = argv.get(argv.indexOf("--controller") + 1);
      int colon = controller.lastIndexOf(':');
      Credentials credentials =
          Credentials.fromSecretHex(new String(secret, StandardCharsets.US_ASCII));
      AgentDaemon daemon =
          new AgentDaemon(
              new AgentDaemon.Options(
                  new InetSocketAddress(
                      controller.substring(0, colon),
                      Integer.parseInt(controller.substring(colon + 1))),
                  argv.get(argv.indexOf("--node") + 1),
                  host,
                  Integer.parseInt(argv.get(argv.indexOf("--slots") + 1)),
                  60_000,
                  port -> {
                    AgentRelay relay = (AgentRelay) AgentRelay.hook(credentials).apply(port);
                    relays.add(relay);
                    return relay;
                  }),
              credentials,
              System::nanoTime);
      CompletableFuture<Integer> exit = new CompletableFuture<>();
      Thread.ofPlatform()
          .daemon()
          .name("test-agent-" + host)
          .start(() -> exit.complete(daemon.run().code));
      return new Handle() {
        @Override
        public long pid() {
          return ProcessHandle.current().pid();
        }

        @Override
        public CompletableFuture<Integer> onExit() {
          return exit;
        }

        @Override
        public String lastOutput() {
          return "";
        }

        @Override
        public void stop() {
          daemon.stop();
        }
      };
    }
  }

  private static long bufferedOutput() {
    long n = 0;
    for (Connection c : server.endpoint().connections()) {
      n += c.outputQueued();
    }
    return n;
  }

  private static long connectionsOpen() {
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
