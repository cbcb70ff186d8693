package org.jdvm.server.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jdvm.core.Effect;
import org.jdvm.endpoint.PeerGateway;
import org.jdvm.host.Cleanup;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.NodeAgent;
import org.jdvm.host.identity.Credentials;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerPort;
import org.junit.jupiter.api.Test;

/**
 * A released node goes back to its scheduler only once its processes have ended — and, when it runs
 * none, before the shell returns to the controller, so that the next command (a required NEW sent
 * right after the release's reply) finds it free. Found by the journal benchmark: a loop of
 * NEW+RELEASE was refused {@code PMIX_ERR_OUT_OF_RESOURCE} after a few thousand rounds, each
 * release having reached the scheduler late, from a virtual thread.
 */
class HandBackTest {
  private final List<String> port = new CopyOnWriteArrayList<>();

  @Test
  void anIdleNodeIsBackWithTheSchedulerBeforeTheEffectsReturn() {
    FakeAgent agent = new FakeAgent("n1", 0);
    releaseN1(shell(agent));
    assertThat(agent.closedBy).containsExactly(Thread.currentThread().getName());
    // On this (the controller's) thread: the scheduler port takes it ahead of any later ask.
    assertThat(port).containsExactly("release s1 [n1] by " + Thread.currentThread().getName());
  }

  @Test
  void aNodeWithProcessesGoesBackOnlyAfterTheyHaveEnded() throws Exception {
    FakeAgent agent = new FakeAgent("n1", 2);
    releaseN1(shell(agent));
    assertThat(agent.terminating.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(port).isEmpty();
    agent.mayEnd.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (port.isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(port).hasSize(1).allMatch(s -> s.startsWith("release s1 [n1] by "));
  }

  /** What the core asks for when allocation a1 (the scheduler's s1) lets node n1 go. */
  private static void releaseN1(Shell shell) {
    shell.execute(
        List.of(
            new Effect.ShrinkNodes(List.of("n1")),
            new Effect.HandBackNodes("a1", "s1", List.of("n1"), null)));
  }

  private Shell shell(FakeAgent agent) {
    NodeRegistry nodes = new NodeRegistry(name -> agent);
    nodes.add(agent.node());
    LaunchEnvironment env =
        new LaunchEnvironment(
            Map.of(), "t.0;tcp4://127.0.0.1:1", "c", "/tmp/t", Credentials.generate());
    return new Shell(nodes, new RecordingPort(), new NoPeers(), env, c -> {}, 0);
  }

  private final class RecordingPort implements SchedulerPort {
    @Override
    public void start(Consumer<SchedulerEvent> listener) {}

    @Override
    public void ask(Ask ask) {
      port.add("ask " + ask.askId());
    }

    @Override
    public void cancel(String askId) {
      port.add("cancel " + askId);
    }

    @Override
    public void release(String allocation, List<String> nodes) {
      port.add("release " + allocation + " " + nodes + " by " + Thread.currentThread().getName());
    }

    @Override
    public void lend(String allocation, List<String> nodes, long seconds) {
      port.add("lend " + allocation + " " + nodes);
    }

    @Override
    public void end(String allocation) {
      port.add("end " + allocation);
    }

    @Override
    public String describe() {
      return "recording";
    }

    @Override
    public void close() {}
  }

  private static final class NoPeers implements PeerGateway {
    @Override
    public void reply(org.jdvm.core.RequestId requestId, int status, List<org.jdvm.pmix.Info> i) {}

    @Override
    public void notify(
        org.jdvm.pmix.Proc target,
        int status,
        org.jdvm.pmix.Proc source,
        List<org.jdvm.pmix.Info> i) {}

    @Override
    public void output(
        String nspace, int rank, org.jdvm.host.ProcListener.Stream stream, byte[] chunk) {}

    @Override
    public void sessionComplete(Effect.ReportSessionComplete report) {}
  }

  /** An agent with {@code running} processes that end once {@link #mayEnd} opens. */
  private static final class FakeAgent implements NodeAgent {
    final String name;
    final int running;
    final CountDownLatch terminating = new CountDownLatch(1);
    final CountDownLatch mayEnd = new CountDownLatch(1);
    final List<String> closedBy = new CopyOnWriteArrayList<>();

    FakeAgent(String name, int running) {
      this.name = name;
      this.running = running;
    }

    @Override
    public String node() {
      return name;
    }

    @Override
    public long launch(String nspace, int rank, LaunchRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void signalJob(String nspace, int signal) {}

    @Override
    public void signalProc(String nspace, int rank, int signal) {}

    @Override
    public CompletableFuture<Void> writeStdin(
        String nspace, int rank, byte[] chunk, long maxWaitMs) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public String registerCleanup(String nspace, Cleanup.Registration registration) {
      return "no";
    }

    @Override
    public int runningProcs() {
      return running;
    }

    @Override
    public boolean closesAtOnce() {
      return running == 0;
    }

    @Override
    public void terminateAll(long graceMillis) {
      if (running > 0) {
        terminating.countDown();
        try {
          mayEnd.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void close() {
      closedBy.add(Thread.currentThread().getName());
    }
  }
}
