package org.jdvm.endpoint.pmi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.endpoint.serve.Upstream;
import org.jdvm.endpoint.wireup.PublishedData;
import org.jdvm.host.LineReader;
import org.jdvm.host.identity.PeerProof;
import org.jdvm.pmix.Proc;

/**
 * The simple PMI listener (docs/protocol.md "Simple PMI"): a loopback TCP port ({@code PMI_PORT})
 * whose connections each get a {@link PmiEngine} over one shared {@link UpstreamBackend}. A peer
 * names itself by its {@code PMI_ID} ({@link PmiIds}) and the kernel proves it, as for a PMIx peer
 * over TCP ({@link PeerProof#heldBy}): the socket must be held by the process launched under that
 * name, or a descendant of it.
 *
 * <p>Bounds: at most {@link #MAX_CONNECTIONS} connections at once (one more is closed at once); a
 * line longer than {@link PmiLine#MAX_LINE} bytes is refused and the connection closed, since its
 * end cannot be found; one request in flight per connection.
 */
public final class PmiServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmi");

  /** The most connections served at once: one per launched MPICH-family process. */
  public static final int MAX_CONNECTIONS = 4096;

  /**
   * How long a connection may take to prove who it is: the kernel's proof may wait up to {@link
   * PeerProof#PID_WAIT_MS} for the launch to be reported, and then some.
   */
  static final long IDENTIFY_MS = PeerProof.PID_WAIT_MS + 5_000;

  private final ServerSocketChannel server;
  private final InetSocketAddress address;
  private final PeerProof proof;
  private final PmiIds ids = new PmiIds();
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final Semaphore slots = new Semaphore(MAX_CONNECTIONS);
  private volatile UpstreamBackend backend;
  private volatile Upstream upstream;
  private volatile boolean closed;

  private PmiServer(ServerSocketChannel server, PeerProof proof) throws IOException {
    this.server = server;
    this.address = (InetSocketAddress) server.getLocalAddress();
    this.proof = proof;
  }

  /** Binds a loopback port; nothing is accepted before {@link #serve}. */
  public static PmiServer open(PeerProof proof) throws IOException {
    ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.INET);
    try {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
      return new PmiServer(s, proof);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** {@code host:port}, what {@code PMI_PORT} says. */
  public String port() {
    return address.getAddress().getHostAddress() + ":" + address.getPort();
  }

  /** The numbers launched processes claim. */
  public PmiIds ids() {
    return ids;
  }

  /**
   * Starts accepting; requests go to {@code upstream}, names to {@code published} (the store {@code
   * PMIx_Publish} uses), and {@code spawns} hears of the spawns ranks ask for, so that the
   * children's output goes where their parent job's goes.
   */
  public void serve(Upstream upstream, PublishedData published, OutcomeWatcher spawns) {
    this.upstream = upstream;
    this.backend = new UpstreamBackend(upstream, published, spawns);
    Thread.ofPlatform().daemon().name("jdvm-accept-pmi").start(this::acceptLoop);
  }

  /** A job ended: its numbers and its key index are dropped. */
  public void forget(String nspace) {
    ids.forget(nspace);
    UpstreamBackend b = backend;
    if (b != null) {
      b.forget(nspace);
    }
  }

  private void acceptLoop() {
    while (!closed) {
      SocketChannel c;
      try {
        c = server.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        LOG.log(System.Logger.Level.WARNING, "pmi accept failed: " + e.getMessage());
        try {
          Thread.sleep(100);
        } catch (InterruptedException ie) {
          return;
        }
        continue;
      }
      if (!slots.tryAcquire()) {
        closeQuietly(c);
        continue;
      }
      open.add(c);
      Thread.ofVirtual().name("jdvm-pmi-peer").start(() -> serveOne(c));
    }
  }

  private void serveOne(SocketChannel c) {
    try (c) {
      c.setOption(StandardSocketOptions.TCP_NODELAY, true);
      PeerProof.Transport transport = proof.transport(c);
      if (transport.refused()) {
        // another user's socket, or one the kernel does not name: not one of the DVM's processes
        return;
      }
      LineReader in = new LineReader(c, PmiLine.MAX_LINE, Pmi2Wire.MAX_COMMAND);
      String line = in.next();
      if (line != null && PMI2_INIT.matcher(line).matches()) {
        write(c, "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n");
        servePmi2(c, in, transport);
        return;
      }
      PmiEngine engine = new PmiEngine(backend, id -> identify(transport, id));
      Thread.ofVirtual().name("jdvm-pmi-deadline").start(() -> closeUnidentified(c, engine::self));
      for (; line != null && !closed; line = in.next()) {
        PmiEngine.Reply reply = engine.handle(line).join();
        for (String out : reply.lines()) {
          write(c, out);
        }
        if (reply.close()) {
          return;
        }
      }
    } catch (LineReader.TooLong e) {
      writeQuietly(c, PmiLine.error("error", "line longer than " + PmiLine.MAX_LINE + " bytes"));
    } catch (IOException | RuntimeException e) {
      // the peer went away, or the DVM could not answer: the connection ends
    } finally {
      open.remove(c);
      slots.release();
    }
  }

  /** The first line of a PMI-2 client (docs/protocol.md "Simple PMI"). */
  static final java.util.regex.Pattern PMI2_INIT =
      java.util.regex.Pattern.compile("cmd=init pmi_version=2 pmi_subversion=\\d+");

  /** A PMI-2 connection after its first line: commands in frames ({@link Pmi2Wire}). */
  private void servePmi2(SocketChannel c, LineReader in, PeerProof.Transport transport)
      throws IOException {
    Pmi2Engine engine = new Pmi2Engine(backend, id -> identify(transport, id), false);
    Thread.ofVirtual().name("jdvm-pmi-deadline").start(() -> closeUnidentified(c, engine::self));
    while (!closed) {
      byte[] prefix = in.read(Pmi2Wire.LENGTH_BYTES);
      int n = prefix == null ? -1 : Pmi2Wire.length(prefix);
      byte[] body = n < 0 ? null : in.read(n);
      if (body == null) {
        if (prefix != null) {
          c.write(
              ByteBuffer.wrap(
                  Pmi2Wire.frame(
                      Pmi2Wire.command(
                          "error-response", "rc", "1", "errmsg", "a_bad_command_length"))));
        }
        return;
      }
      PmiEngine.Reply reply = engine.handle(new String(body, StandardCharsets.UTF_8)).join();
      for (String out : reply.lines()) {
        ByteBuffer b = ByteBuffer.wrap(Pmi2Wire.frame(out));
        while (b.hasRemaining()) {
          c.write(b);
        }
      }
      if (reply.close()) {
        return;
      }
    }
  }

  /**
   * Closes {@code c} if its peer has not proved who it is within {@link #IDENTIFY_MS}: a connection
   * that never identifies must not hold one of the {@link #MAX_CONNECTIONS} slots.
   */
  private static void closeUnidentified(SocketChannel c, java.util.function.Supplier<Proc> self) {
    try {
      Thread.sleep(IDENTIFY_MS);
    } catch (InterruptedException e) {
      return;
    }
    if (self.get() == null) {
      closeQuietly(c);
    }
  }

  /**
   * A simple PMI peer that a node agent's relay proved on its host and carries over the agent's
   * link (docs/protocol.md "Simple PMI"): each frame one line without its newline, each answer the
   * reply lines of one line.
   */
  public interface Tunnel {
    /** A line from the relay. */
    void line(byte[] frame);

    /** The relay closed the peer. */
    void closed();
  }

  /**
   * Carried peers served, the barrier entries their relays sent, and the ranks those entries were
   * for beside their carrier's own, since the server opened: a relay that gathers its node's
   * barrier sends one entry for all of its ranks there.
   */
  private final java.util.concurrent.atomic.AtomicLongArray carriedCounts =
      new java.util.concurrent.atomic.AtomicLongArray(3);

  /** {@code [carried peers, their barrier entries, ranks represented in them]}, for tests. */
  public long[] carriedCounts() {
    return new long[] {carriedCounts.get(0), carriedCounts.get(1), carriedCounts.get(2)};
  }

  /** The most lines a carried peer may have waiting for the one being answered. */
  static final int MAX_CARRIED_BACKLOG = PmiSpawn.MAX_LINES + 16;

  /**
   * Serves a peer that the relay of {@code node} proved to be {@code proc}: it must still claim
   * {@code proc}'s {@code PMI_ID} in its {@code initack}, and {@code proc} must run on {@code
   * node}. Answers go to {@code send}; {@code close} ends the peer at the relay.
   *
   * @return the tunnel, or {@code null} past {@link #MAX_CONNECTIONS} (then {@code close} ran)
   */
  public Tunnel carried(String node, Proc proc, Consumer<byte[]> send, Runnable close) {
    if (!slots.tryAcquire()) {
      close.run();
      return null;
    }
    carriedCounts.incrementAndGet(0);
    return new Carried(
        new PmiEngine(backend, id -> identifyCarried(node, proc, id), true),
        new Pmi2Engine(backend, id -> identifyCarried(node, proc, id), true),
        send,
        close);
  }

  /** A carried peer's lines, answered one at a time in order. */
  private final class Carried implements Tunnel {
    private final PmiEngine engine;
    private final Pmi2Engine engine2;
    private final Consumer<byte[]> send;
    private final Runnable close;

    /** Whether the peer speaks PMI-2: its first frame is a {@code fullinit}. */
    private Boolean v2;

    Carried(PmiEngine engine, Pmi2Engine engine2, Consumer<byte[]> send, Runnable close) {
      this.engine = engine;
      this.engine2 = engine2;
      this.send = send;
      this.close = close;
    }

    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
    private int backlog;
    private boolean ended;

    @Override
    public synchronized void line(byte[] frame) {
      if (ended) {
        return;
      }
      if (v2 == null) {
        v2 =
            new String(frame, 0, Math.min(frame.length, 13), StandardCharsets.UTF_8)
                .equals("cmd=fullinit;");
      }
      int most = v2 ? Pmi2Wire.MAX_COMMAND : PmiLine.MAX_LINE - 1;
      if (frame.length > most || ++backlog > MAX_CARRIED_BACKLOG) {
        send.accept(
            PmiLine.error("error", "a line too long, or too many unanswered")
                .getBytes(StandardCharsets.UTF_8));
        end();
        return;
      }
      String line = new String(frame, StandardCharsets.UTF_8);
      if (line.startsWith("cmd=barrier_in") || line.startsWith("cmd=kvs-fence;")) {
        carriedCounts.incrementAndGet(1);
        int at = line.indexOf("jdvm_for=");
        if (at > 0) {
          carriedCounts.addAndGet(2, line.substring(at).split(",", -1).length);
        }
      }
      tail = tail.thenRunAsync(() -> answer(line), CARRIED);
    }

    private void answer(String line) {
      PmiEngine.Reply reply;
      try {
        reply = (v2 ? engine2.handle(line) : engine.handle(line)).join();
      } catch (RuntimeException e) {
        reply = new PmiEngine.Reply(List.of(), true);
      }
      String out = String.join("", reply.lines());
      synchronized (this) {
        backlog--;
        if (ended) {
          return;
        }
        if (!out.isEmpty()) {
          send.accept(out.getBytes(StandardCharsets.UTF_8));
        }
        if (reply.close()) {
          end();
        }
      }
    }

    private void end() {
      ended = true;
      slots.release();
      close.run();
    }

    @Override
    public synchronized void closed() {
      if (!ended) {
        ended = true;
        slots.release();
      }
    }
  }

  /** Where carried peers' lines are answered: a virtual thread each, in order per peer. */
  private static final java.util.concurrent.Executor CARRIED =
      command -> Thread.ofVirtual().name("jdvm-pmi-carried").start(command);

  /**
   * {@code proc}, vouched for by the relay of {@code node}, if {@code id} is its and it runs there.
   */
  private Optional<PmiEngine.Identified> identifyCarried(String node, Proc proc, int id) {
    Optional<Proc> claimed = ids.procOf(id);
    boolean there =
        claimed.equals(Optional.of(proc))
            && upstream.member(proc).join().map(m -> node.equals(m.node())).orElse(false);
    if (!there) {
      LOG.log(
          System.Logger.Level.WARNING,
          "pmi peer refused: node="
              + node
              + " vouched for "
              + proc
              + ", which pmiid="
              + id
              + " does not name or which does not run there");
      return Optional.empty();
    }
    return Optional.of(new PmiEngine.Identified(proc, null));
  }

  /** The launched process {@code id} names, if the kernel shows it (or a descendant) holding c. */
  private Optional<PmiEngine.Identified> identify(PeerProof.Transport t, int id) {
    Optional<Proc> claimed = ids.procOf(id);
    PeerProof.Proof proved =
        claimed.isEmpty()
            ? null
            : proof.heldBy(claimed.get(), t, (p, ms) -> upstream.awaitPid(p, ms));
    if (proved == null || !proved.proved()) {
      LOG.log(
          System.Logger.Level.WARNING,
          "pmi peer refused: pmiid="
              + id
              + " is not proved as "
              + claimed.map(Proc::toString).orElse("a live process"));
      return Optional.empty();
    }
    return Optional.of(new PmiEngine.Identified(claimed.get(), PeerProof.cwdOf(proved.pid())));
  }

  private static void write(SocketChannel c, String line) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) {
      c.write(b);
    }
  }

  private static void writeQuietly(SocketChannel c, String line) {
    try {
      write(c, line);
    } catch (IOException e) {
      // closing anyway
    }
  }

  private static void closeQuietly(SocketChannel c) {
    try {
      c.close();
    } catch (IOException e) {
      // refused: nothing to learn
    }
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly0();
    for (SocketChannel c : open) {
      closeQuietly(c);
    }
  }

  private void closeQuietly0() {
    try {
      server.close();
    } catch (IOException e) {
      // closing
    }
  }
}
