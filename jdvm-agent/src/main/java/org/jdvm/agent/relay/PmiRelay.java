package org.jdvm.agent.relay;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.jdvm.agent.link.RelayChannel;
import org.jdvm.host.LineReader;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.PeerProof;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;

/**
 * A node agent's simple PMI server for the MPICH-family processes it launches (docs/protocol.md
 * "Simple PMI", "Node agents"): a loopback TCP listener ({@code PMI_PORT} on this host) whose peers
 * are proved here as the controller proves its own (the kernel must show the socket held by the
 * process launched under the {@code PMI_ID} claimed in {@code cmd=initack}, or a descendant: {@link
 * PeerProof#heldBy}), then carried line by line over the agent's {@link RelayChannel} to the
 * controller's simple PMI engine, which answers them over the job's one modex and fence.
 *
 * <p>Two things only the relay knows go up with the lines: the peer's working directory on this
 * host ({@code jdvm_cwd=<hex>} on its {@code initack}: where the children it spawns run), and the
 * node's barrier entries gathered: each {@code cmd=barrier_in} is held until every live local rank
 * of the job entered (a rank that ended is not waited for), then one {@code cmd=barrier_in
 * jdvm_for=<the others>} goes up on the last entrant's line and its {@code barrier_out} answers
 * them all, so the controller reads one entry per node and barrier, as with PMIx fences ({@link
 * FenceAggregator}).
 *
 * <p>Bounds: {@link #MAX_PEERS} peers; a line of {@link #MAX_LINE} bytes (past it the peer is
 * closed); other users' connections are refused by a {@link RelayDoor} before a byte is read; a
 * connection that has not proved its claim in {@link #IDENTIFY_MS} is closed.
 */
public final class PmiRelay implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.agent.relay");

  /** MPICH's client buffer, as the controller's engine bounds a line. */
  static final int MAX_LINE = 1024;

  /** The most simple PMI peers at once. */
  static final int MAX_PEERS = 4_096;

  /** How long a peer may take to prove its claim. */
  static final long IDENTIFY_MS = PeerProof.PID_WAIT_MS + 5_000;

  /** One proved peer, carried under {@code id}. */
  private static final class Peer {
    final long id;
    final SocketChannel socket;
    final Proc proc;

    /** Whether it speaks PMI-2 (commands in frames) rather than PMI-1 (lines). */
    final boolean v2;

    volatile boolean closed;

    Peer(long id, SocketChannel socket, Proc proc, boolean v2) {
      this.id = id;
      this.socket = socket;
      this.proc = proc;
      this.v2 = v2;
    }
  }

  /** A job's barrier gathering on this node. */
  private static final class Gather {
    final Map<Integer, Peer> entered = new LinkedHashMap<>();
    Peer carrier;
  }

  private final RelayChannel channel;
  private final RelayHooks.Opener opener;
  private final LongSupplier nextId;
  private final PeerProof proof;
  private final RelayHooks.Pids pids;
  private final ServerSocketChannel server;
  private final RelayDoor door = new RelayDoor();
  private final Map<Long, Peer> peers = new ConcurrentHashMap<>();
  private final Map<Integer, Proc> claims = new HashMap<>();
  private final Map<String, Set<Integer>> live = new HashMap<>();
  private final Map<String, Gather> gathers = new HashMap<>();
  private volatile boolean closed;

  private PmiRelay(
      RelayChannel channel,
      RelayHooks.Opener opener,
      LongSupplier nextId,
      Credentials credentials,
      RelayHooks.Pids pids,
      ServerSocketChannel server) {
    this.channel = channel;
    this.opener = opener;
    this.nextId = nextId;
    this.proof = new PeerProof(credentials, "this agent");
    this.pids = pids;
    this.server = server;
  }

  /** Binds a loopback port and starts accepting. */
  static PmiRelay open(
      RelayChannel channel,
      RelayHooks.Opener opener,
      LongSupplier nextId,
      Credentials credentials,
      RelayHooks.Pids pids)
      throws IOException {
    ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.INET);
    try {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    PmiRelay relay = new PmiRelay(channel, opener, nextId, credentials, pids, s);
    relay.door.acceptLoop(s, false, "jdvm-relay-accept-pmi", () -> relay.closed, relay::serve);
    return relay;
  }

  /** {@code host:port}: the {@code PMI_PORT} of the processes this agent launches. */
  String port() {
    try {
      InetSocketAddress a = (InetSocketAddress) server.getLocalAddress();
      return a.getAddress().getHostAddress() + ":" + a.getPort();
    } catch (IOException e) {
      throw new IllegalStateException("a bound listener has an address", e);
    }
  }

  /**
   * {@code proc} is launched here under {@code pmiId}: it may claim it, and barriers wait for it.
   */
  synchronized void launched(Proc proc, int pmiId) {
    claims.put(pmiId, proc);
    live.computeIfAbsent(proc.nspace(), k -> new HashSet<>()).add(proc.rank());
  }

  /** Processes of {@code nspace} ended here: no barrier waits for them. */
  void procsEnded(String nspace, List<Integer> ranks) {
    List<Runnable> sends = new ArrayList<>();
    synchronized (this) {
      Set<Integer> l = live.get(nspace);
      if (l != null) {
        l.removeAll(ranks);
      }
      goUp(nspace, sends);
    }
    sends.forEach(Runnable::run);
  }

  /** {@code nspace} ended here: its claims and barrier records go. */
  synchronized void jobEnded(String nspace) {
    live.remove(nspace);
    gathers.remove(nspace);
    claims.values().removeIf(p -> p.nspace().equals(nspace));
  }

  /** Whether {@code id} is one of this relay's peers. */
  boolean carries(long id) {
    return peers.containsKey(id);
  }

  private void serve(SocketChannel s, ConnectionGate.Ticket ticket) {
    Peer peer = null;
    try {
      s.setOption(StandardSocketOptions.TCP_NODELAY, true);
      LineReader in = new LineReader(s, MAX_LINE, RelayWire.MAX_COMMAND);
      peer = identify(s, in, ticket);
      if (peer == null) {
        return;
      }
      while (!closed) {
        String line = peer.v2 ? RelayWire.command(in) : in.next();
        if (line == null) {
          return;
        }
        if (line.equals(peer.v2 ? "cmd=kvs-fence;" : "cmd=barrier_in")) {
          barrierIn(peer);
        } else {
          channel.send(peer.id, line.getBytes(StandardCharsets.UTF_8));
        }
      }
    } catch (IOException | RuntimeException e) {
      // the peer went away, or sent a line too long: it ends
    } finally {
      ticket.release();
      if (peer == null) {
        RelayDoor.closeQuietly(s);
      } else {
        ended(peer);
      }
    }
  }

  /** Reads the peer's {@code initack} and proves its claim; the peer, announced, or null. */
  private Peer identify(SocketChannel s, LineReader in, ConnectionGate.Ticket ticket)
      throws IOException {
    PeerProof.Transport t = proof.transport(s);
    if (t.refused()) {
      door.refuse(s, t.refusal());
      return null;
    }
    Thread deadline = closeAfter(s, IDENTIFY_MS);
    String first = in.next();
    boolean v2 = first != null && RelayWire.PMI2_INIT.matcher(first).matches();
    if (v2) {
      // a PMI-2 client: answered here, then it names its PMI_ID as srcid in fullinit
      write(s, "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n");
      first = RelayWire.command(in);
    }
    deadline.interrupt();
    Integer id = first == null ? null : v2 ? RelayWire.srcid(first) : RelayWire.pmiid(first);
    Proc proc;
    synchronized (this) {
      proc = id == null ? null : claims.get(id);
    }
    PeerProof.Proof p = proc == null ? null : proof.heldBy(proc, t, pids::awaitPid);
    if (p == null || !p.proved() || peers.size() >= MAX_PEERS || !ticket.admit()) {
      String why =
          p == null || !p.proved()
              ? "pmiid_not_proved_by_the_process_holding_the_socket"
              : "too_many_peers";
      write(
          s,
          v2
              ? RelayWire.framed("cmd=fullinit-response;rc=1;errmsg=" + why + ";")
              : "cmd=initack rc=-1 msg=" + why + "\n");
      door.refuse(s, "pmi claim pmiid=" + id + " not proved or over the bound");
      return null;
    }
    Peer peer = new Peer(nextId.getAsLong(), s, proc, v2);
    peers.put(peer.id, peer);
    door.admitted();
    opener.opened(
        peer.id,
        new PeerIdentity(PeerIdentity.Kind.PMI, proc, t.uid(), -1, p.pid(), WireFormat.V41)
            .encode());
    if (v2) {
      channel.send(peer.id, first.getBytes(StandardCharsets.UTF_8));
      return peer;
    }
    String cwd = PeerProof.cwdOf(p.pid());
    String initack = "cmd=initack pmiid=" + id;
    if (cwd != null && initack.length() + 10 + 2 * cwd.length() < MAX_LINE) {
      initack += " jdvm_cwd=" + HexFormat.of().formatHex(cwd.getBytes(StandardCharsets.UTF_8));
    }
    channel.send(peer.id, initack.getBytes(StandardCharsets.UTF_8));
    return peer;
  }

  /** Closes {@code s} after {@code ms} unless the returned thread is interrupted first. */
  private static Thread closeAfter(SocketChannel s, long ms) {
    return Thread.ofVirtual()
        .start(
            () -> {
              try {
                Thread.sleep(ms);
                RelayDoor.closeQuietly(s);
              } catch (InterruptedException e) {
                // in time
              }
            });
  }

  // ---- barriers --------------------------------------------------------------------------------

  private void barrierIn(Peer peer) {
    List<Runnable> sends = new ArrayList<>();
    synchronized (this) {
      Gather g = gathers.computeIfAbsent(peer.proc.nspace(), k -> new Gather());
      g.entered.put(peer.proc.rank(), peer);
      goUp(peer.proc.nspace(), sends);
    }
    sends.forEach(Runnable::run);
  }

  /** Sends the node's entry once every live local rank of {@code nspace} entered. */
  private void goUp(String nspace, List<Runnable> sends) {
    Gather g = gathers.get(nspace);
    if (g == null || g.carrier != null || g.entered.isEmpty()) {
      return;
    }
    if (!g.entered.keySet().containsAll(live.getOrDefault(nspace, Set.of()))) {
      return;
    }
    Peer carrier = null;
    for (Peer p : g.entered.values()) {
      if (!p.closed) {
        carrier = p;
      }
    }
    if (carrier == null) {
      gathers.remove(nspace);
      return;
    }
    g.carrier = carrier;
    Peer c = carrier;
    String others =
        g.entered.keySet().stream()
            .filter(r -> r != c.proc.rank())
            .map(String::valueOf)
            .collect(Collectors.joining(","));
    String line =
        c.v2
            ? "cmd=kvs-fence;" + (others.isEmpty() ? "" : "jdvm_for=" + others + ";")
            : others.isEmpty() ? "cmd=barrier_in" : "cmd=barrier_in jdvm_for=" + others;
    sends.add(() -> channel.send(c.id, line.getBytes(StandardCharsets.UTF_8)));
  }

  // ---- what comes from the controller ----------------------------------------------------------

  /** The controller's answer for peer {@code id}: to it, or to every entrant of its barrier. */
  void frame(long id, byte[] frame) {
    Peer peer = peers.get(id);
    if (peer == null) {
      return;
    }
    List<Peer> to = List.of(peer);
    if (startsWith(frame, peer.v2 ? "cmd=kvs-fence-response" : "cmd=barrier_out")) {
      synchronized (this) {
        Gather g = gathers.get(peer.proc.nspace());
        if (g != null && g.carrier == peer) {
          gathers.remove(peer.proc.nspace());
          to = List.copyOf(g.entered.values());
        }
      }
    }
    for (Peer p : to) {
      if (!p.closed) {
        try {
          String text = new String(frame, StandardCharsets.UTF_8);
          write(p.socket, p.v2 ? RelayWire.framed(text) : text);
        } catch (IOException e) {
          RelayDoor.closeQuietly(p.socket);
        }
      }
    }
    if (peer.closed && !carriesBarrier(peer)) {
      release(peer);
    }
  }

  /** The controller ended peer {@code id}. */
  void closed(long id) {
    Peer peer = peers.remove(id);
    if (peer != null) {
      RelayDoor.closeQuietly(peer.socket);
    }
  }

  private static boolean startsWith(byte[] frame, String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
    if (frame.length < p.length) {
      return false;
    }
    for (int i = 0; i < p.length; i++) {
      if (frame[i] != p[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The peer's socket ended here. A peer that carries its node's barrier entry stays open at the
   * controller until the answer came, so that the other entrants get it.
   */
  private void ended(Peer peer) {
    peer.closed = true;
    RelayDoor.closeQuietly(peer.socket);
    List<Runnable> sends = new ArrayList<>();
    synchronized (this) {
      Gather g = gathers.get(peer.proc.nspace());
      if (g != null && g.carrier != peer) {
        g.entered.remove(peer.proc.rank(), peer);
        goUp(peer.proc.nspace(), sends);
      }
    }
    sends.forEach(Runnable::run);
    if (!carriesBarrier(peer)) {
      release(peer);
    }
  }

  private synchronized boolean carriesBarrier(Peer peer) {
    Gather g = gathers.get(peer.proc.nspace());
    return g != null && g.carrier == peer;
  }

  private void release(Peer peer) {
    if (peers.remove(peer.id, peer)) {
      channel.closed(peer.id);
    }
  }

  private static void write(SocketChannel s, String text) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    synchronized (s) {
      while (b.hasRemaining()) {
        s.write(b);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Peer p : List.copyOf(peers.values())) {
      RelayDoor.closeQuietly(p.socket);
    }
  }
}
