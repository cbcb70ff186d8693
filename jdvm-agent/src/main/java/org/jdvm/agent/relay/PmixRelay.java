package org.jdvm.agent.relay;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jdvm.agent.link.RelayChannel;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * A node agent's PMIx server for the processes it launches (architecture.md §5, docs/protocol.md
 * "Node agents"): a loopback TCP listener (and a Unix socket, if asked for) on the agent's host
 * that does the connect handshake and authenticates each peer locally, as the controller's endpoint
 * does ({@link LocalAdmission}), then carries its frames over the agent's {@link RelayChannel} and
 * writes back what comes for it. What the agent can answer itself it answers ({@link JobDataCache}:
 * the job data a process asks for at {@code PMIx_Init}; {@link LocalModex}: gets of this node's
 * committed data), and it enters each fence once for its node's participants ({@link
 * FenceAggregator}).
 *
 * <p>{@code AgentRelay} in jdvm-agent opens one at an agent's first launch and points every process
 * at it.
 *
 * <p>Other users are kept out by its {@link RelayDoor} before a byte is read.
 *
 * <p>Bounds: {@link #MAX_PEERS} peers at once (one more is refused by closing its socket); a frame
 * as {@link FrameHeader#MAX_MESSAGE_BYTES} allows; {@link RelayedSocket#MAX_QUEUED_BYTES} waiting
 * for one peer to read (past it the peer is cut off); the job-data cache by {@link
 * JobDataCache#MAX_BYTES}; fences gathering by {@link FenceAggregator#MAX_OPEN}.
 *
 * <p>Threads: one platform thread accepts on each listener; each peer has a virtual thread that
 * reads it and one that writes it; the link's reader only queues.
 */
public final class PmixRelay implements RelayChannel.RelayListener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /** The most local peers the relay serves at once. */
  public static final int MAX_PEERS = 4_096;

  /** How long a peer has to complete its handshake. */
  static final long HANDSHAKE_MS = 30_000;

  /**
   * What the relay needs from its agent.
   *
   * @param dvmName the DVM's name: the relay's URI names the server {@code <dvmName>@0}, rank 0, as
   *     the controller's does
   * @param credentials the DVM's secret: checks the credentials launched processes present
   * @param pids the pids of the processes the agent launched, which prove a libpmix client
   * @param prepare makes a process's job directories on this host when it gets its job data; may be
   *     {@code null}
   * @param unixSocket where to bind a Unix socket too, or {@code null} for loopback TCP only
   * @param answerLocally whether the relay also enters each fence once for this node's participants
   *     ({@link FenceAggregator}) and answers gets of this node's committed data ({@link
   *     LocalModex}); job data is answered here either way
   */
  public record Config(
      String dvmName,
      Credentials credentials,
      RelayHooks.Pids pids,
      Consumer<Proc> prepare,
      Path unixSocket,
      boolean answerLocally) {
    public Config {
      Objects.requireNonNull(dvmName, "dvmName");
      Objects.requireNonNull(credentials, "credentials");
      Objects.requireNonNull(pids, "pids");
      prepare = prepare == null ? p -> {} : prepare;
    }
  }

  private final Config config;
  private final int maxPeers;
  private final RelayChannel channel;
  private final RelayHooks.Opener opener;
  private final ServerSocketChannel tcp;
  private final ServerSocketChannel unix;
  private final LocalAdmission admission;
  private final ScheduledThreadPoolExecutor timer = timer();
  private final JobDataCache jobData = new JobDataCache();
  private final FenceAggregator fences;
  private final LocalModex modex = new LocalModex();
  private final GetCache gets = new GetCache();
  private final Map<Long, RelayedSocket> peers = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong();
  private final AtomicInteger admitting = new AtomicInteger();
  private final RelayDoor door = new RelayDoor();

  private volatile boolean closed;
  private PmiRelay pmi;

  private PmixRelay(
      Config config,
      RelayChannel channel,
      RelayHooks.Opener opener,
      ServerSocketChannel tcp,
      ServerSocketChannel unix,
      int maxPeers) {
    this.maxPeers = maxPeers;
    this.config = config;
    this.channel = channel;
    this.opener = opener;
    this.tcp = tcp;
    this.unix = unix;
    this.admission = new LocalAdmission(config.credentials(), config.pids());
    this.fences =
        new FenceAggregator(jobData, timer, (carrier, frame) -> channel.send(carrier.id(), frame));
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().daemon().name("jdvm-relay-timer").factory());
    t.setRemoveOnCancelPolicy(true);
    return t;
  }

  /**
   * Binds the relay's listeners, starts accepting and listens to {@code channel}.
   *
   * @param opener announces each admitted peer on the same link, before its first frame
   */
  public static PmixRelay open(Config config, RelayChannel channel, RelayHooks.Opener opener)
      throws IOException {
    return open(config, channel, opener, MAX_PEERS);
  }

  /**
   * As {@link #open(Config, RelayChannel, RelayHooks.Opener)}, with another bound on peers, for
   * tests.
   */
  static PmixRelay open(Config config, RelayChannel channel, RelayHooks.Opener opener, int maxPeers)
      throws IOException {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(opener, "opener");
    ServerSocketChannel tcp = ServerSocketChannel.open(StandardProtocolFamily.INET);
    ServerSocketChannel unix = null;
    try {
      tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
      if (config.unixSocket() != null) {
        Files.deleteIfExists(config.unixSocket());
        unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        unix.bind(UnixDomainSocketAddress.of(config.unixSocket()), 128);
      }
    } catch (IOException | RuntimeException e) {
      closeAll(tcp, unix);
      throw e;
    }
    PmixRelay relay = new PmixRelay(config, channel, opener, tcp, unix, maxPeers);
    try {
      relay.pmi =
          PmiRelay.open(
              channel, opener, relay.nextId::incrementAndGet, config.credentials(), config.pids());
    } catch (IOException | RuntimeException e) {
      closeAll(tcp, unix);
      throw e;
    }
    channel.onReceive(relay);
    relay.accept(tcp, false);
    if (unix != null) {
      relay.accept(unix, true);
    }
    return relay;
  }

  private static void closeAll(ServerSocketChannel tcp, ServerSocketChannel unix)
      throws IOException {
    tcp.close();
    if (unix != null) {
      unix.close();
    }
  }

  /** The PMIx server URI of the processes this agent launches. */
  public String uri() {
    InetSocketAddress a = tcpAddress();
    return config.dvmName() + "@0.0;tcp4://" + a.getAddress().getHostAddress() + ":" + a.getPort();
  }

  public InetSocketAddress tcpAddress() {
    try {
      return (InetSocketAddress) tcp.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("a bound listener has an address", e);
    }
  }

  /** The {@code PMI_PORT} of the processes this agent launches ({@link PmiRelay}). */
  public String pmiPort() {
    return pmi.port();
  }

  /** {@code proc} is launched here under {@code pmiId} (docs/protocol.md "Simple PMI"). */
  public void pmiLaunched(Proc proc, int pmiId) {
    pmi.launched(proc, pmiId);
  }

  /** How many local peers are open. */
  public int peers() {
    return peers.size();
  }

  /** Connections of other users not yet admitted, for tests. */
  public int pendingOthers() {
    return door.pendingOthers();
  }

  /** The job data the relay holds, for tests and statistics. */
  JobDataCache jobData() {
    return jobData;
  }

  /** Processes this agent ran ended: no fence gathering here waits for them. */
  public void procsEnded(String nspace, List<Integer> ranks) {
    fences.procsEnded(nspace, ranks);
    pmi.procsEnded(nspace, ranks);
  }

  /** A job ended: its job data and fence records are forgotten here. */
  public void jobEnded(String nspace) {
    pmi.jobEnded(nspace);
    jobData.forget(nspace);
    modex.forget(nspace);
    gets.forget(nspace);
    for (RelayedSocket carrier : fences.jobEnded(nspace)) {
      if (carrier.isClosed()) {
        peerEnded(carrier);
      }
    }
  }

  /** Fences gathered here, and node entries sent to the controller for them. */
  public long[] fenceCounts() {
    return fences.counts();
  }

  /** Gets answered here from this node's committed data. */
  public long getsAnswered() {
    return modex.answered();
  }

  /** Gets of other ranks answered here from what earlier gets brought ({@link GetCache}). */
  public long getsAnsweredFromCache() {
    return gets.answered();
  }

  private void accept(ServerSocketChannel server, boolean overUnix) {
    door.acceptLoop(
        server,
        overUnix,
        overUnix ? "jdvm-relay-accept-unix" : "jdvm-relay-accept-tcp",
        () -> closed,
        (s, ticket) -> admit(s, overUnix, ticket));
  }

  /** Reads the peer's handshake, authenticates it here and announces it to the controller. */
  private void admit(SocketChannel s, boolean overUnix, ConnectionGate.Ticket ticket) {
    // handshakes under way count too: a flood of silent sockets cannot pass the bound either
    if (admitting.incrementAndGet() + peers.size() > maxPeers) {
      admitting.decrementAndGet();
      refuse(s, "more than " + maxPeers + " peers");
      ticket.release();
      return;
    }
    RelayedSocket peer;
    try {
      peer = handshake(s, overUnix, ticket);
    } finally {
      admitting.decrementAndGet();
    }
    if (peer != null) {
      peer.run();
    } else {
      ticket.release();
    }
  }

  /** The peer, announced to the controller; {@code null} when refused (its socket closed). */
  private RelayedSocket handshake(SocketChannel s, boolean overUnix, ConnectionGate.Ticket ticket) {
    try {
      if (!overUnix) {
        s.setOption(StandardSocketOptions.TCP_NODELAY, true);
      }
      if (closed) {
        refuse(s, "the relay is closed");
        return null;
      }
      ScheduledFuture<?> deadline =
          timer.schedule(
              () -> closeQuietly(s), HANDSHAKE_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
      ConnectRequest request = readConnect(s);
      deadline.cancel(false);
      if (!ticket.admit()) {
        refuse(s, "too many admitted connections of " + ticket.user());
        return null;
      }
      LocalAdmission.Verdict v = admission.admit(s, overUnix, request);
      if (v.identity() == null) {
        refuse(s, "flag=" + request.flag() + " " + v.refusal());
        return null;
      }
      long id = nextId.incrementAndGet();
      RelayedSocket peer = new RelayedSocket(id, s, v.identity(), this, ticket);
      peers.put(id, peer);
      door.admitted();
      opener.opened(id, v.identity().encode());
      return peer;
    } catch (EOFException e) {
      closeQuietly(s);
    } catch (IOException | WireException e) {
      refuse(s, "bad handshake: " + e.getMessage());
    } catch (RejectedExecutionException e) {
      refuse(s, "the relay is closed");
    }
    return null;
  }

  private static ConnectRequest readConnect(SocketChannel s) throws IOException {
    FrameHeader header =
        FrameHeader.decodeConnect(RelayedSocket.readFully(s, FrameHeader.BYTES), 0);
    byte[] payload = RelayedSocket.readFully(s, header.nbytes());
    return ConnectRequest.decodePayload(payload, 0, payload.length);
  }

  private void refuse(SocketChannel s, String why) {
    door.refuse(s, why);
  }

  static void closeQuietly(SocketChannel s) {
    RelayDoor.closeQuietly(s);
  }

  // ---- what RelayedSocket asks of the relay ------------------------------------------------

  /** A frame a peer sent: answered here if the relay holds the answer, else sent on. */
  void fromPeer(RelayedSocket peer, int tag, byte[] frame) {
    if (!answeredHere(peer, tag, frame)) {
      channel.send(peer.id(), frame);
    }
  }

  private boolean answeredHere(RelayedSocket peer, int tag, byte[] frame) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT) {
      return false;
    }
    switch (Frames.command(who.format(), frame)) {
      case Commands.REQ_CMD -> {
        byte[] answer = jobData.answer(peer, tag, frame);
        if (answer != null) {
          peer.write(answer);
          config.prepare().accept(who.proc());
          return true;
        }
      }
      case Commands.FENCENB_CMD -> {
        boolean gathered = config.answerLocally() && fences.enter(peer, tag, frame);
        if (config.answerLocally()) {
          gets.fenceEntered(peer, tag, !gathered);
        }
        return gathered;
      }
      case Commands.GETNB_CMD -> {
        byte[] got =
            config.answerLocally()
                ? modex.answer(peer, tag, frame, jobData.localRanks(who.nspace()))
                : null;
        if (got == null && config.answerLocally()) {
          got = gets.answer(peer, tag, frame);
        }
        if (got != null) {
          peer.write(got);
          return true;
        }
      }
      case Commands.COMMIT_CMD -> {
        if (config.answerLocally()) {
          modex.commitSent(peer, tag, frame);
        }
      }
      default -> {}
    }
    return false;
  }

  /**
   * The peer's socket ended here. A peer that carries its node's fence entry stays open at the
   * controller until the answer came, so that the other local entrants get it.
   */
  void peerEnded(RelayedSocket peer) {
    modex.closed(peer);
    gets.closed(peer);
    fences.closed(peer);
    if (fences.carries(peer)) {
      return;
    }
    if (peers.remove(peer.id(), peer)) {
      channel.closed(peer.id());
    }
  }

  // ---- what comes from the controller ----------------------------------------------------------

  @Override
  public void opened(long id, byte[] peerIdentity) {
    // Peers open from this side only: the controller has nothing to open here.
    channel.closed(id);
  }

  @Override
  public void frame(long id, byte[] frame) {
    if (pmi.carries(id)) {
      pmi.frame(id, frame);
      return;
    }
    RelayedSocket peer = peers.get(id);
    if (peer == null) {
      return;
    }
    if (peer.handshakeReply()) {
      peer.write(frame);
      return;
    }
    modex.reply(peer, frame); // before the peer sees its commit answered
    gets.reply(peer, frame);
    if (fences.reply(peer, frame)) {
      gets.forget(peer.identity().proc().nspace()); // the node's fence completed
      if (peer.isClosed() && !fences.carries(peer)) {
        peerEnded(peer);
      }
      return;
    }
    if (jobData.reply(peer, frame)) {
      config.prepare().accept(peer.identity().proc());
    }
    peer.write(frame);
  }

  @Override
  public void closed(long id) {
    if (pmi.carries(id)) {
      pmi.closed(id);
      return;
    }
    RelayedSocket peer = peers.remove(id);
    if (peer != null) {
      fences.carrierLost(peer);
      modex.closed(peer);
      gets.closed(peer);
      peer.closeAfterFlush();
    }
  }

  /** Stops accepting and closes every peer (their closes go to the controller, if it is there). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      tcp.close();
      if (unix != null) {
        unix.close();
        Files.deleteIfExists(config.unixSocket());
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "closing the relay's listeners: " + e);
    }
    for (RelayedSocket p : List.copyOf(peers.values())) {
      p.close("the relay closed");
    }
    pmi.close();
    timer.shutdownNow();
  }
}
