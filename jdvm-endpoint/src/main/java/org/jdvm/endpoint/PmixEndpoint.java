package org.jdvm.endpoint;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.deliver.EventRouter;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.endpoint.deliver.OutputRouter;
import org.jdvm.endpoint.pmi.PmiServer;
import org.jdvm.endpoint.serve.Admission;
import org.jdvm.endpoint.serve.AllocationOps;
import org.jdvm.endpoint.serve.ConnectOps;
import org.jdvm.endpoint.serve.DataOps;
import org.jdvm.endpoint.serve.Departures;
import org.jdvm.endpoint.serve.EndpointLimits;
import org.jdvm.endpoint.serve.EventOps;
import org.jdvm.endpoint.serve.JobOps;
import org.jdvm.endpoint.serve.LogOps;
import org.jdvm.endpoint.serve.MessageServer;
import org.jdvm.endpoint.serve.OperationTable;
import org.jdvm.endpoint.serve.PeerOps;
import org.jdvm.endpoint.serve.QueryOps;
import org.jdvm.endpoint.serve.WireupOps;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.wireup.Connects;
import org.jdvm.endpoint.wireup.Endings;
import org.jdvm.endpoint.wireup.Fences;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.endpoint.wireup.PublishedData;
import org.jdvm.endpoint.wireup.Timer;
import org.jdvm.host.ProcListener;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.PeerProof;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/**
 * The DVM's PMIx server endpoint (architecture.md §3–§4, docs/protocol.md): a Unix socket and a
 * loopback TCP listener speaking the PMIx client/server protocol as libpmix 4.2 does, so that a C
 * program linked against libpmix and jdvm's Java client are interchangeable peers.
 *
 * <p>Life cycle: {@link #open} binds both listeners before the DVM starts (the URI goes into the
 * environment of every launched process); the DVM takes the endpoint as its {@link PeerGateway};
 * {@link #serve} starts accepting; {@link #close} stops accepting and closes every connection after
 * flushing what was queued for it.
 *
 * <pre>{@code
 * PmixEndpoint endpoint = PmixEndpoint.open("jdvm-4711", dir.resolve("dvm.sock"), 0, credentials);
 * Dvm dvm = Dvm.start(config, endpoint, env);                   // the endpoint is its gateway
 * endpoint.serve(parts -> new ControllerUpstream(parts, dvm),   // jdvm-server's backend
 *     dvm::observe, () -> stopEverything());
 * }</pre>
 *
 * <p>Threads: one virtual thread reads each connection and one writes it; the controller thread
 * only queues replies, events and output on a connection, so it never blocks on a slow peer. A peer
 * whose queue exceeds {@link Connection#MAX_QUEUED_BYTES} is cut off.
 */
public final class PmixEndpoint implements PeerGateway, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final String dvmName;
  private final Proc serverProc;
  private final Credentials credentials;
  private final Path unixPath;
  private final ServerSocketChannel unixServer;
  private final ServerSocketChannel tcpServer;
  private final InetSocketAddress tcpAddress;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  private final AtomicInteger nextIndex = new AtomicInteger();
  private final List<Consumer<Outcome>> observers = new CopyOnWriteArrayList<>();
  private final EventRouter events;
  private final OutputRouter output = new OutputRouter();
  private final OutcomeWatcher outcomes;
  private final EndpointLimits limits;
  private final Timer wireupTimer;
  private final PublishedData published = new PublishedData(PublishedData.Limits.DEFAULT);
  private final Connects connects;
  private final ScheduledThreadPoolExecutor timer = timer();
  private final Endings endings;
  private volatile Serving serving;
  private final Doors doors;
  private final PmiServer pmi;
  private volatile Connection.Fatal fatalHook = t -> {};
  private final Connection.Fatal fatal = t -> fatalHook.failed(t);
  private volatile Runnable stopHook = () -> {};
  private volatile boolean closed;

  private PmixEndpoint(
      String dvmName,
      Credentials credentials,
      EndpointLimits limits,
      Path unixPath,
      ServerSocketChannel unixServer,
      ServerSocketChannel tcpServer,
      PmiServer pmi) {
    this.dvmName = dvmName;
    this.pmi = pmi;
    this.serverProc = new Proc(dvmName + "@0", 0);
    this.credentials = credentials;
    this.unixPath = unixPath;
    this.unixServer = unixServer;
    this.tcpServer = tcpServer;
    this.tcpAddress = localAddress(tcpServer);
    this.doors = new Doors(() -> closed, fatal, this::enter);
    this.events = new EventRouter(serverProc);
    events.beforeJobEnd(output::jobEnded);
    this.limits = limits;
    this.wireupTimer =
        (delayMs, task) -> {
          try {
            ScheduledFuture<?> f = timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
            return () -> f.cancel(false);
          } catch (RejectedExecutionException e) {
            return () -> {}; // closed: its connections are closed too, nobody waits
          }
        };
    this.outcomes = new OutcomeWatcher(events, output, new WireupLife());
    this.connects = new Connects(limits.pendingRequests() * 4);
    this.endings = new Endings(published, connects);
  }

  /** What serving needs of the backend: built once, by {@link #serve}. */
  private record Serving(Backend upstream, OperationTable table, MessageServer server) {}

  /** The operation table and the message server over {@code upstream}, the endpoint's parts. */
  private Serving serving(Backend upstream) {
    Departures departures = new Departures(upstream);
    OperationTable table =
        OperationTable.of(
            new PeerOps(upstream, departures),
            new AllocationOps(),
            new JobOps(outcomes),
            new QueryOps(),
            new EventOps(events, output),
            new OperationTable.Wireup(
                new WireupOps(),
                new DataOps(published, timer),
                new ConnectOps(connects, timer),
                new LogOps(output)));
    MessageServer server =
        new MessageServer(
            new MessageServer.Parts(
                table,
                new Admission(upstream, events, serverProc, credentials),
                upstream,
                limits,
                departures,
                this::forget));
    return new Serving(upstream, table, server);
  }

  /**
   * Binds the endpoint's listeners; nothing is accepted before {@link #serve}.
   *
   * @param dvmName the DVM's name; the server's own process is {@code <dvmName>@0}, rank 0
   * @param unixSocket where to bind the Unix socket (a stale file there is replaced), or {@code
   *     null} for TCP only
   * @param tcpPort the loopback port, 0 for any free one
   */
  public static PmixEndpoint open(
      String dvmName, Path unixSocket, int tcpPort, Credentials credentials) throws IOException {
    return open(dvmName, unixSocket, tcpPort, credentials, EndpointLimits.DEFAULT);
  }

  /** As {@link #open(String, Path, int, Credentials)}, with what one peer may make it hold. */
  public static PmixEndpoint open(
      String dvmName, Path unixSocket, int tcpPort, Credentials credentials, EndpointLimits limits)
      throws IOException {
    Objects.requireNonNull(dvmName, "dvmName");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(credentials, "credentials");
    ServerSocketChannel tcp = ServerSocketChannel.open(StandardProtocolFamily.INET);
    ServerSocketChannel unix = null;
    PmiServer pmi;
    try {
      tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), tcpPort), 128);
      if (unixSocket != null) {
        Files.deleteIfExists(unixSocket);
        unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        unix.bind(UnixDomainSocketAddress.of(unixSocket), 128);
        // Its owner's only, like every file of the DVM's directory (the directory is 0700 too).
        Files.setPosixFilePermissions(
            unixSocket, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      }
      pmi = PmiServer.open(new PeerProof(credentials, "the DVM"));
    } catch (IOException | RuntimeException e) {
      tcp.close();
      if (unix != null) {
        unix.close();
      }
      throw e;
    }
    return new PmixEndpoint(dvmName, credentials, limits, unixSocket, unix, tcp, pmi);
  }

  /**
   * The endpoint's timer (handshake deadlines, the timeouts of lookups and connects): one daemon
   * thread; a cancelled wait leaves the queue at once rather than at its deadline.
   */
  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().daemon().name("jdvm-endpoint-timer").factory());
    t.setRemoveOnCancelPolicy(true);
    return t;
  }

  /** From now on, keeps jobs' output within {@code bounds} ({@code jdvm output}). */
  public void keepOutput(org.jdvm.endpoint.deliver.OutputStore.Bounds bounds) {
    output.keep(bounds);
  }

  /** The operation table the endpoint serves with, for tests. */
  OperationTable table() {
    return serving.table();
  }

  private static InetSocketAddress localAddress(ServerSocketChannel server) {
    try {
      return (InetSocketAddress) server.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("a bound listener has an address", e);
    }
  }

  /** The PMIx server URI: {@code <dvm-name>@0.0;tcp4://127.0.0.1:<port>}. */
  public String uri() {
    return serverProc.nspace()
        + ".0;tcp4://"
        + tcpAddress.getAddress().getHostAddress()
        + ":"
        + tcpAddress.getPort();
  }

  /** The loopback address TCP peers connect to. */
  public InetSocketAddress tcpAddress() {
    return tcpAddress;
  }

  /**
   * The simple PMI server (docs/protocol.md "Simple PMI"), beside the PMIx listeners and over the
   * same wire-up state: its {@code PMI_PORT} and the {@code PMI_ID}s launched processes claim.
   */
  public PmiServer pmi() {
    return pmi;
  }

  /** The Unix socket's path, or {@code null} when there is none. */
  public Path unixSocket() {
    return unixPath;
  }

  /** The server's own process, the source of every event the DVM emits: {@code <dvm>@0.0}. */
  public Proc serverProc() {
    return serverProc;
  }

  public String dvmName() {
    return dvmName;
  }

  /**
   * Starts serving: from now on peers are admitted and their requests go to the backend. The
   * endpoint observes the DVM's outcomes (operator feed, output routing), registering itself
   * through {@code outcomes}; others who want them use {@link #observe}, since a DVM has one
   * observer.
   *
   * @param stopHook run once, on its own thread, after a JDVM_STOP request was answered
   */
  public void serve(
      Backend.Factory backend, Consumer<Consumer<Outcome>> outcomes, Runnable stopHook) {
    Objects.requireNonNull(backend, "backend");
    this.stopHook = Objects.requireNonNull(stopHook, "stopHook");
    this.serving =
        serving(
            backend.create(
                new Backend.Parts(
                    this.outcomes,
                    this::requestStop,
                    new ModexStore(
                        limits.modexBytesPerRank(), limits.modexBytesPerJob(), wireupTimer),
                    new Fences(limits.fencesPerNamespace(), wireupTimer))));
    outcomes.accept(this::observed);
    pmi.serve(serving.upstream(), published, this.outcomes);
    doors.open(tcpServer, false);
    if (unixServer != null) {
      doors.open(unixServer, true);
    }
  }

  /** Adds an observer of the DVM's state-changing outcomes (on the controller thread). */
  public void observe(Consumer<Outcome> observer) {
    observers.add(Objects.requireNonNull(observer, "observer"));
  }

  /** A connection its user may hold: served from now on, on its own virtual thread. */
  private void enter(SocketChannel channel, boolean unix, ConnectionGate.Ticket ticket) {
    if (!unix) {
      // Replies are small and go out as header then body: without this, Nagle's algorithm holds
      // the body back until the peer's delayed ACK, some 40 ms per request on loopback.
      try {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot set TCP_NODELAY: " + e);
      }
    }
    Connection c =
        new Connection(
            serving.server(),
            timer,
            new Connection.Link(channel, unix, nextIndex.incrementAndGet()),
            ticket,
            fatal);
    connections.add(c);
    if (closed) {
      c.close("the endpoint is closed");
      return;
    }
    Thread.ofVirtual().name("jdvm-peer-" + c.index()).start(c::run);
  }

  /**
   * Serves the peers that the node agent of {@code node} admitted on its host and carries over its
   * link, through {@code carrier} (architecture.md §5; {@link RelayedPeers}).
   */
  public RelayedPeers relayedPeers(String node, RelayedPeers.Carrier carrier) {
    return relayedPeers(node, carrier, RelayedPeers.MAX_PEERS);
  }

  /** As {@link #relayedPeers(String, RelayedPeers.Carrier)}, with another bound, for tests. */
  RelayedPeers relayedPeers(String node, RelayedPeers.Carrier carrier, int maxPeers) {
    return new RelayedPeers(
        node,
        carrier,
        new RelayedPeers.Parts(
            serving.server(),
            nextIndex::incrementAndGet,
            connections::add,
            () -> closed,
            maxPeers));
  }

  /**
   * Who hears of an {@link Error} on a connection's reader or a listener's thread, after which the
   * DVM cannot be trusted to go on (its owner stops it).
   */
  public void onFatal(Connection.Fatal hook) {
    this.fatalHook = Objects.requireNonNull(hook, "hook");
  }

  /** The per-user bounds on connections, for tests. */
  public ConnectionGate gate() {
    return doors.gate();
  }

  /** The connections being served, for tests. */
  public Set<Connection> connections() {
    return connections;
  }

  /** Runs the stop hook once, on its own thread, so the JDVM_STOP reply goes out first. */
  private void requestStop() {
    Runnable hook = stopHook;
    stopHook = () -> {};
    Thread.ofPlatform().name("jdvm-stop").start(hook);
  }

  /** A connection ended: forget it everywhere. */
  private void forget(Connection c) {
    connections.remove(c);
    events.remove(c);
    output.connectionClosed(c);
    endings.connectionClosed(c);
  }

  // ---- what the DVM observes -----------------------------------------------------------------

  /** Jobs' lives, as the wire-up state needs them, to the upstream that holds it. */
  private final class WireupLife implements OutcomeWatcher.JobLife {
    @Override
    public void spawned(String nspace, Proc spawner) {
      serving.upstream().spawned(nspace, spawner);
    }

    @Override
    public void procsEnded(String nspace, List<Integer> ranks) {
      serving.upstream().procsEnded(nspace, ranks);
    }

    @Override
    public void ended(String nspace) {
      serving.upstream().ended(nspace);
      pmi.forget(nspace);
    }
  }

  private void observed(Outcome outcome) {
    outcomes.observed(outcome);
    endings.observed(outcome.changes());
    for (Consumer<Outcome> o : observers) {
      try {
        o.accept(outcome);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "an outcome observer failed", e);
      }
    }
  }

  // ---- PeerGateway: called on the controller thread (output: on agent threads) ----------------

  @Override
  public void reply(RequestId requestId, int status, List<Info> infos) {
    Serving s = serving;
    if (s != null) { // before serve, nothing was submitted that could be answered
      s.upstream().reply(requestId, status, infos);
    }
  }

  @Override
  public void notify(Proc target, int status, Proc source, List<Info> infos) {
    events.directed(target, status, source, infos);
  }

  @Override
  public void output(String nspace, int rank, ProcListener.Stream stream, byte[] chunk) {
    output.output(nspace, rank, stream, chunk);
  }

  @Override
  public boolean holdOutput(String nspace, Runnable resume) {
    return output.holdOutput(nspace, resume);
  }

  @Override
  public void sessionComplete(Effect.ReportSessionComplete report) {
    events.sessionComplete(report);
  }

  /**
   * Stops accepting, flushes what is queued for each connection (bounded) and closes it, and
   * removes the Unix socket file. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeQuietly(tcpServer);
    pmi.close();
    if (unixServer != null) {
      closeQuietly(unixServer);
      try {
        Files.deleteIfExists(unixPath);
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot remove " + unixPath + ": " + e);
      }
    }
    List<Connection> open = new ArrayList<>(connections);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    for (Connection c : open) {
      c.closeAfterFlush(Math.max(0, deadline - System.nanoTime()));
    }
    timer.shutdownNow();
  }

  private static void closeQuietly(ServerSocketChannel s) {
    try {
      s.close();
    } catch (IOException e) {
      // Closing a listener has nothing to tell us.
    }
  }
}
