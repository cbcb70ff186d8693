package org.jdvm.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.jdvm.agent.link.Handshake;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.agent.relay.PmixRelay;
import org.jdvm.host.identity.Credentials;

/**
 * A node agent that starts no process, for the scale benchmark (docs/cli.md "jdvm bench"): it joins
 * over a real socket with the real handshake, sends heartbeats, and answers each launch with a
 * made-up pid; what the "process" does is the benchmark's ({@code onLaunch}), which reports its end
 * with {@link #exited}. Thousands fit in one JVM: each is two virtual threads and a socket (and,
 * once asked for, a PMIx relay: a listener and two platform threads).
 */
public final class SimulatedAgent implements AutoCloseable {
  private static final AtomicLong PIDS = new AtomicLong(1_000_000);

  private final String node;
  private final Link link;
  private final BiConsumer<SimulatedAgent, LinkMessage.Launch> onLaunch;
  private volatile boolean closed;
  private final java.util.concurrent.CompletableFuture<Void> ended =
      new java.util.concurrent.CompletableFuture<>();

  private SimulatedAgent(
      String node, Link link, BiConsumer<SimulatedAgent, LinkMessage.Launch> onLaunch) {
    this.node = node;
    this.link = link;
    this.onLaunch = onLaunch;
  }

  /** Joins the controller at {@code controller} as {@code node}. */
  public static SimulatedAgent join(
      InetSocketAddress controller,
      String node,
      Credentials credentials,
      BiConsumer<SimulatedAgent, LinkMessage.Launch> onLaunch)
      throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(controller, Handshake.TIMEOUT_MILLIS);
      s.setSoTimeout(Handshake.TIMEOUT_MILLIS);
      Link l = new Link(s, System::nanoTime, "controller");
      LinkMessage.Challenge c = (LinkMessage.Challenge) l.readNow();
      l.send(
          new LinkMessage.Hello(
              LinkMessage.VERSION,
              node,
              node,
              1,
              Map.of("cpus", "1"),
              List.of(),
              List.of(),
              Handshake.nonce(),
              Handshake.agentProof(credentials, c.nonce(), node, node),
              ""));
      if (!(l.readNow() instanceof LinkMessage.Welcome w)) {
        throw new IOException(node + " was refused");
      }
      s.setSoTimeout(0);
      SimulatedAgent a = new SimulatedAgent(node, l, onLaunch);
      l.start(
          a::handle,
          () -> {
            a.closed = true;
            a.ended.complete(null);
          });
      Thread.ofVirtual().start(() -> a.beat(w.heartbeatMillis()));
      return a;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e instanceof IOException io ? io : new IOException(e);
    }
  }

  private void handle(LinkMessage m) {
    switch (m) {
      case LinkMessage.Launch l -> {
        link.send(new LinkMessage.Launched(l.requestId(), PIDS.incrementAndGet()));
        onLaunch.accept(this, l);
      }
      case LinkMessage.TerminateAll t -> link.send(new LinkMessage.Done(t.requestId(), ""));
      case LinkMessage.Stdin s -> link.send(new LinkMessage.Done(s.requestId(), "no stdin here"));
      case LinkMessage.Cleanup c -> link.send(new LinkMessage.Done(c.requestId(), ""));
      case LinkMessage.Bye b -> link.close();
      default -> {}
    }
  }

  private void beat(long millis) {
    long sequence = 0;
    while (!closed) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        return;
      }
      link.send(new LinkMessage.Heartbeat(++sequence));
    }
  }

  private PmixRelay relay;

  /**
   * This agent's PMIx relay, opened on its link at the first call, as {@code jdvm agent} opens it
   * at its first launch ({@link AgentRelay}); {@code null} when {@code launchEnvironment} names no
   * controller URI. Its peers prove themselves with their credential.
   */
  public synchronized PmixRelay relay(Map<String, String> launchEnvironment, Credentials secret)
      throws IOException {
    if (relay == null) {
      String dvm = AgentRelay.dvmName(launchEnvironment.get("PMIX_SERVER_URI41"));
      if (dvm == null) {
        return null;
      }
      relay =
          PmixRelay.open(
              new PmixRelay.Config(dvm, secret, (proc, ms) -> -1, null, null, true),
              link,
              link::opened);
    }
    return relay;
  }

  /** Reports that the "process" {@code nspace.rank} ended with {@code status}. */
  public void exited(String nspace, int rank, int status) {
    link.send(new LinkMessage.Exited(nspace, rank, status, 0));
  }

  public String node() {
    return node;
  }

  /** Completes when this agent's link has closed (told goodbye, or the controller went). */
  public java.util.concurrent.CompletableFuture<Void> ended() {
    return ended;
  }

  @Override
  public void close() {
    PmixRelay r;
    synchronized (this) {
      r = relay;
    }
    if (r != null) {
      r.close();
    }
    link.close();
  }
}
