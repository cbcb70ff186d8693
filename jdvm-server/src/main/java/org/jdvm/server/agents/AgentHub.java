package org.jdvm.server.agents;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jdvm.agent.link.Handshake;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.agent.link.LinkMessage.Running;
import org.jdvm.core.ProcEnd;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.LoopbackPeers;

/**
 * The controller's side of the node agents (architecture.md §5): it listens for agents, checks each
 * one's proof and version, attaches it to the {@link RemoteNodeAgent} of its node, and watches
 * their heartbeats. A node is {@link NodeState#SUSPECT} once nothing was heard for one and a half
 * heartbeat intervals or its link broke, and {@link NodeState#DOWN} once nothing was heard for
 * {@code missed} intervals: then it is reported lost (the core ends its processes and, unless they
 * are recoverable, their jobs; takes it out of its allocation, telling the requester; never maps
 * onto it again) and an agent that comes back for it is refused, so it ends what it still runs. An
 * agent that joins again before that keeps the processes the DVM still counts (docs/cli.md "Host
 * faults").
 */
public final class AgentHub implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /**
   * How agents are watched.
   *
   * @param heartbeatMillis how often each side sends a heartbeat
   * @param missedHeartbeats silent intervals after which a node is down
   */
  public record Settings(long heartbeatMillis, int missedHeartbeats) {
    public static final Settings DEFAULT = new Settings(1000, 5);

    public Settings {
      if (heartbeatMillis < 10 || missedHeartbeats < 2) {
        throw new IllegalArgumentException(
            "heartbeats need an interval of at least 10 ms and at least 2 misses before down");
      }
    }

    /** How long a node may stay silent before it is down. */
    public long downAfterMillis() {
      return heartbeatMillis * missedHeartbeats;
    }
  }

  /**
   * How long a connection has to send its hello once challenged: a short deadline, so that what
   * proves nothing does not hold its slot long ({@link HelloSlots}).
   */
  static final int HELLO_MILLIS = 5_000;

  private final HelloSlots slots =
      new HelloSlots(HelloSlots.PER_PEER, HelloSlots.TOTAL, "uid:" + LoopbackPeers.ownUid());

  /** Connections closed to make room for newer ones since an agent last joined. */
  private final java.util.concurrent.atomic.AtomicLong crowdedOut =
      new java.util.concurrent.atomic.AtomicLong();

  private final Credentials credentials;
  private final Settings settings;
  private final LongSupplier clockNs;
  private final ServerSocket server;
  private final Map<String, RemoteNodeAgent> nodes = new ConcurrentHashMap<>();
  private final Map<String, Long> lastHeardNs = new ConcurrentHashMap<>();
  private final List<Consumer<String>> lost = new CopyOnWriteArrayList<>();
  private final List<Consumer<RemoteNodeAgent>> joined = new CopyOnWriteArrayList<>();
  private final List<AgentStarter.Handle> launchers = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  /** Connections refused for no proof of the secret since an agent last joined. */
  private final java.util.concurrent.atomic.AtomicLong unproven =
      new java.util.concurrent.atomic.AtomicLong();

  private Thread monitor;

  /**
   * Closed while a restarted controller reads its journal: agents that rejoin wait here (bounded)
   * until it knows what it counts on their nodes.
   */
  private final java.util.concurrent.CountDownLatch gate =
      new java.util.concurrent.CountDownLatch(1);

  private volatile boolean rejoining;
  private volatile long rejoinMillis;

  private AgentHub(
      Credentials credentials, Settings settings, LongSupplier clockNs, ServerSocket server) {
    this.credentials = credentials;
    this.settings = settings;
    this.clockNs = clockNs;
    this.server = server;
  }

  /** Listens for agents on {@code address} (port 0: any free port). */
  public static AgentHub open(
      Credentials credentials, Settings settings, InetSocketAddress address, LongSupplier clockNs)
      throws IOException {
    AgentHub hub =
        new AgentHub(credentials, settings, clockNs, listen(address, "cannot listen for agents"));
    hub.gate.countDown();
    return hub.started();
  }

  /** A listening socket on {@code address}; one that cannot bind says {@code why} and where. */
  private static ServerSocket listen(InetSocketAddress address, String why) throws IOException {
    ServerSocket server = new ServerSocket();
    try {
      server.setReuseAddress(true);
      server.bind(address, 4096);
    } catch (IOException e) {
      server.close();
      throw new IOException(why + " on " + address + ": " + e.getMessage(), e);
    }
    return server;
  }

  /** Starts accepting agents and watching their heartbeats. */
  private AgentHub started() {
    Thread.ofPlatform().daemon().name("jdvm-agent-accept").start(this::acceptLoop);
    monitor = Thread.ofPlatform().daemon().name("jdvm-agent-heartbeats").start(this::watch);
    return this;
  }

  /**
   * Listens where the agents of a controller that died connect again ({@link AgentRoster}), for a
   * controller that recovers its journal: it expects {@code nodes}, and holds each agent's join
   * until {@link #rejoin} says what the recovered state counts on its node.
   */
  public static AgentHub openRejoining(
      Credentials credentials,
      Settings settings,
      InetSocketAddress address,
      List<String> nodes,
      long rejoinMillis,
      LongSupplier clockNs)
      throws IOException {
    AgentHub hub =
        new AgentHub(
            credentials, settings, clockNs, listen(address, "cannot listen for the agents again"));
    hub.rejoining = true;
    hub.rejoinMillis = rejoinMillis;
    nodes.forEach(hub::expect);
    return hub.started();
  }

  /** Whether this hub waits for the agents of a controller that died. */
  public boolean rejoining() {
    return rejoining;
  }

  /**
   * What a restarted controller learned from the agents that rejoined it.
   *
   * @param stillRunning per node, what its agent still runs that the recovered state counts
   * @param ended what the state counted that ended meanwhile, and how (exit code or signal)
   * @param missing the nodes whose agent did not rejoin in time: now down (a late agent is refused
   *     and ends what it runs)
   */
  public record Rejoined(
      Map<String, List<Running>> stillRunning, Map<Running, ProcEnd> ended, List<String> missing) {}

  /**
   * Opens the gate of {@link #openRejoining}: each expected node's agent may rejoin and keeps what
   * {@code counted} holds for its node (node → nspace.rank → pid); a node {@code counted} does not
   * name left the DVM before the controller died and is down. Waits up to the rejoin time of {@link
   * #openRejoining} for every agent, then declares the rest down.
   */
  public Rejoined rejoin(Map<String, Map<String, Long>> counted) throws InterruptedException {
    long waitMillis = rejoinMillis;
    Map<String, RemoteNodeAgent.Rejoin> waiting = new LinkedHashMap<>();
    for (RemoteNodeAgent a : nodes.values()) {
      Map<String, Long> procs = counted.get(a.node());
      if (procs == null) {
        a.down();
      } else {
        waiting.put(a.node(), a.expectRejoin(procs));
      }
    }
    gate.countDown();
    long deadline = System.nanoTime() + waitMillis * 1_000_000;
    Map<String, List<Running>> still = new LinkedHashMap<>();
    Map<Running, ProcEnd> ended = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, RemoteNodeAgent.Rejoin> e : waiting.entrySet()) {
      RemoteNodeAgent.Rejoin r = e.getValue();
      try {
        r.joined().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        still.put(e.getKey(), List.copyOf(r.kept()));
        ended.putAll(r.ended());
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException x) {
        RemoteNodeAgent a = nodes.get(e.getKey());
        synchronized (a) {
          if (r.joined().isDone()) { // joined just now
            still.put(e.getKey(), List.copyOf(r.kept()));
            ended.putAll(r.ended());
            continue;
          }
          a.down();
        }
        missing.add(e.getKey());
        LOG.log(
            System.Logger.Level.WARNING,
            "node="
                + e.getKey()
                + " down: its agent did not rejoin within "
                + waitMillis
                + " ms of the restart");
      }
    }
    rejoining = false;
    return new Rejoined(still, ended, missing);
  }

  /** Where agents connect to. */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  public Settings settings() {
    return settings;
  }

  /** Expects the agent of {@code node}; returns its controller-side agent. */
  public RemoteNodeAgent expect(String node) {
    return nodes.computeIfAbsent(node, RemoteNodeAgent::new);
  }

  /**
   * Expects agents of nodes that join the DVM again (a scheduler granted them anew): a node that
   * had left ({@link NodeState#DOWN}) gets a new controller-side agent, which its new agent may
   * join.
   */
  public void expectAgain(List<String> names) {
    for (String node : names) {
      nodes.compute(
          node,
          (n, old) -> old == null || old.state() == NodeState.DOWN ? new RemoteNodeAgent(n) : old);
    }
  }

  /** The agent of a node this hub expects, or {@code null}. */
  public RemoteNodeAgent get(String node) {
    return nodes.get(node);
  }

  /** Every node this hub expects, in no order. */
  public Collection<RemoteNodeAgent> all() {
    return List.copyOf(nodes.values());
  }

  /** A launcher (ssh, srun) that carries an agent: stopped when the hub closes, if still alive. */
  public void adopt(AgentStarter.Handle launcher) {
    launchers.add(launcher);
  }

  /**
   * Adds what runs when a node goes down (the DVM reports it lost to the core, the relay's peers of
   * that node are closed).
   */
  public void onLost(Consumer<String> action) {
    lost.add(action);
  }

  /**
   * Adds what runs when an agent joins or joins again (start-up progress, the relay).
   *
   * @return what removes it again (each scheduler grant's join adds one while it waits)
   */
  public Runnable onJoined(Consumer<RemoteNodeAgent> action) {
    joined.add(action);
    return () -> joined.remove(action);
  }

  /** How many join actions are registered (tests: a grant's join leaves none behind). */
  public int joinActions() {
    return joined.size();
  }

  // ---- accepting ------------------------------------------------------------------------------

  private void acceptLoop() {
    long failures = 0;
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        if (closed || server.isClosed()) {
          return;
        }
        // Out of file descriptors, say: back off and accept again, or no agent could ever join.
        if (failures++ == 0) {
          LOG.log(
              System.Logger.Level.WARNING,
              "accepting agents failed: " + e.getMessage() + "; trying again");
        }
        pause(Math.min(1000, failures * 10));
        continue;
      }
      if (failures > 0) {
        LOG.log(System.Logger.Level.WARNING, "accepting agents works again: " + failures);
        failures = 0;
      }
      // Never waits: a flood of connections that prove nothing holds a bounded number of slots,
      // and a hello is never queued behind them (HelloSlots).
      HelloSlots.Entered entered = slots.enter(slots.peerOf(s), s);
      if (entered.evicted() && crowdedOut.getAndIncrement() == 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "peer="
                + entered.slot().peer()
                + " agent-link connections without a hello past the bound ("
                + HelloSlots.PER_PEER
                + " per peer, "
                + HelloSlots.TOTAL
                + " in all): the oldest are closed (logged once until an agent joins again)");
      }
      Thread.ofVirtual().name("jdvm-agent-join").start(() -> handshake(s, entered.slot()));
    }
  }

  /**
   * Waits (bounded, in its slot) while a restarted controller reads its journal, then challenges; a
   * hello that proves the secret leaves its slot and joins its node. The challenge comes only once
   * the gate is open, so the hello says what ran and ended as of then: the state the reconciliation
   * compares it with.
   */
  private void handshake(Socket s, HelloSlots.Slot slot) {
    String from = s.getInetAddress().getHostAddress();
    try {
      if (!gate.await(Handshake.TIMEOUT_MILLIS / 2, TimeUnit.MILLISECONDS)) {
        close(s); // the agent tries again
        return;
      }
      s.setTcpNoDelay(true);
      s.setSoTimeout(HELLO_MILLIS);
      Link l = new Link(s, clockNs, from);
      byte[] nonce = Handshake.nonce();
      l.send(new LinkMessage.Challenge(LinkMessage.VERSION, nonce));
      LinkMessage first = l.readNow();
      if (!proved(l, first, nonce, from) || closed) {
        close(s); // a closed (or abandoned, as if killed) hub completes no handshake
        return;
      }
      slot.release();
      RemoteNodeAgent agent = admit(l, (LinkMessage.Hello) first);
      if (agent != null) {
        s.setSoTimeout(0);
        join(l, (LinkMessage.Hello) first, agent, from);
      }
    } catch (SocketTimeoutException e) {
      close(s);
    } catch (InterruptedException e) {
      close(s);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "agent from " + from + " dropped: " + e);
      close(s);
    } finally {
      slot.release();
    }
  }

  /**
   * Whether an agent's first message is a hello of this version with the proof of the DVM's secret;
   * otherwise the agent is refused (the link closes).
   */
  private boolean proved(Link l, LinkMessage first, byte[] nonce, String from) {
    if (!(first instanceof LinkMessage.Hello hello)) {
      refuse(l, "an agent opens with a hello");
      return false;
    }
    if (hello.version() != LinkMessage.VERSION) {
      refuse(
          l, "link version " + hello.version() + "; this controller speaks " + LinkMessage.VERSION);
      return false;
    }
    if (!Handshake.isAgentProof(credentials, nonce, hello.node(), hello.host(), hello.proof())) {
      refuse(l, "no proof of the DVM's secret");
      // One line per episode, not per attempt: a flood of bad hellos must not flood the log.
      if (unproven.getAndIncrement() == 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "an agent from "
                + from
                + " failed to prove the secret (logged once until an agent joins again)");
      }
      return false;
    }
    return true;
  }

  /**
   * The node agent a proved hello joins: a node this hub expects and has not declared down.
   * Otherwise the agent is refused (the link closes) and this is {@code null}.
   */
  private RemoteNodeAgent admit(Link l, LinkMessage.Hello hello) {
    String node = node(hello);
    RemoteNodeAgent agent = nodes.get(node);
    if (agent == null) {
      return refused(l, "no node " + node + " in this DVM");
    }
    if (agent.state() == NodeState.DOWN) {
      return refused(l, "node " + node + " was declared down and has left the DVM");
    }
    return agent;
  }

  /** Welcomes an admitted agent: what it keeps running, then its link is read and watched. */
  private void join(Link l, LinkMessage.Hello hello, RemoteNodeAgent agent, String from) {
    String node = node(hello);
    long unprovenBefore = unproven.getAndSet(0);
    if (unprovenBefore > 1) {
      LOG.log(
          System.Logger.Level.WARNING,
          "agent connections that failed to prove the secret: " + unprovenBefore);
    }
    long crowdedBefore = crowdedOut.getAndSet(0);
    if (crowdedBefore > 1) {
      LOG.log(
          System.Logger.Level.WARNING,
          "agent-link connections closed without a hello to make room: " + crowdedBefore);
    }
    List<Running> keep = agent.keep(hello.running());
    l.send(
        new LinkMessage.Welcome(
            node,
            settings.heartbeatMillis(),
            settings.missedHeartbeats(),
            keep,
            Handshake.controllerProof(credentials, hello.nonce())));
    lastHeardNs.put(node, clockNs.getAsLong());
    agent.attach(l, hello, keep);
    l.start(
        m -> {
          lastHeardNs.put(node, clockNs.getAsLong());
          agent.receive(m);
        },
        () -> agent.linkLost(l));
    LOG.log(
        System.Logger.Level.INFO,
        "node=" + node + " host=" + hello.host() + " from=" + from + " joined kept=" + keep.size());
    joined.forEach(j -> j.accept(agent));
  }

  /** The node an agent joins as: the one it was started as, else its host's name. */
  private static String node(LinkMessage.Hello hello) {
    return hello.node().isEmpty() ? hello.host() : hello.node();
  }

  private static RemoteNodeAgent refused(Link l, String reason) {
    refuse(l, reason);
    return null;
  }

  private static void refuse(Link l, String reason) {
    l.send(new LinkMessage.Refused(reason));
    l.close();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void close(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // Dropping it anyway.
    }
  }

  // ---- heartbeats ------------------------------------------------------------------------------

  private void watch() {
    long sequence = 0;
    long tickMillis = Math.max(5, settings.heartbeatMillis() / 2);
    long lastBeatNs = 0;
    long lastTickNs = clockNs.getAsLong();
    while (!closed) {
      try {
        Thread.sleep(tickMillis); // the monitor's own period, not a wait for a condition
      } catch (InterruptedException e) {
        return;
      }
      long now = clockNs.getAsLong();
      long stalledNs = now - lastTickNs - 2 * tickMillis * 1_000_000;
      lastTickNs = now;
      if (stalledNs > 0) {
        // This process was not running (a pause, an overloaded host): its readers could not hear
        // anyone meanwhile either, so nobody's silence during the stall counts against them.
        LOG.log(
            System.Logger.Level.WARNING,
            "the controller stalled for " + stalledNs / 1_000_000 + " ms; heartbeats rearmed");
        lastHeardNs.replaceAll((n, heard) -> heard + stalledNs);
      }
      boolean beat = now - lastBeatNs >= settings.heartbeatMillis() * 1_000_000;
      if (beat) {
        lastBeatNs = now;
        sequence++;
      }
      for (RemoteNodeAgent a : nodes.values()) {
        check(a, now, beat ? sequence : -1);
      }
    }
  }

  private void check(RemoteNodeAgent a, long now, long sequence) {
    NodeState s = a.state();
    if (s == NodeState.DOWN || s == NodeState.JOINING) {
      return;
    }
    Long heard = lastHeardNs.get(a.node());
    long silentMillis = heard == null ? 0 : (now - heard) / 1_000_000;
    if (silentMillis >= settings.downAfterMillis()) {
      LOG.log(
          System.Logger.Level.WARNING,
          "node=" + a.node() + " down: nothing heard for " + silentMillis + " ms");
      a.down();
      lost.forEach(l -> l.accept(a.node()));
      return;
    }
    Link l = a.link();
    if (silentMillis * 2 >= settings.heartbeatMillis() * 3 || l == null || !l.isOpen()) {
      a.suspect();
    } else {
      a.heard();
    }
    if (sequence >= 0 && l != null) {
      // Off the monitor's thread: a write to a host that is cut off may block.
      Thread.ofVirtual().start(() -> l.send(new LinkMessage.Heartbeat(sequence)));
    }
  }

  /** A snapshot for listings: node → state, host, last heartbeat. */
  public Map<String, RemoteNodeAgent> snapshot() {
    return new LinkedHashMap<>(nodes);
  }

  /**
   * Drops the listener and every link without a goodbye, as a controller killed with SIGKILL does:
   * the agents keep their processes and try to join again (tests).
   */
  public void abandon() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // Dropping it anyway.
    }
    for (RemoteNodeAgent a : nodes.values()) {
      Link l = a.link();
      if (l != null) {
        l.close();
      }
    }
    if (monitor != null) {
      monitor.interrupt();
    }
  }

  /**
   * Ends every agent: each ends its processes and exits ({@link RemoteNodeAgent#close}), then the
   * listener closes.
   */
  @Override
  public void close() {
    closed = true;
    List<Thread> closing = new ArrayList<>();
    for (RemoteNodeAgent a : nodes.values()) {
      if (a.link() != null) {
        closing.add(Thread.ofVirtual().start(a::close));
      }
    }
    for (Thread t : closing) {
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    try {
      server.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    // The launchers end with their agents, which were told goodbye: give them together 2 s.
    long deadline = System.nanoTime() + 2_000_000_000L;
    for (AgentStarter.Handle h : launchers) {
      try {
        h.onExit()
            .get(
                Math.max(0, deadline - System.nanoTime()),
                java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.stop();
      }
    }
    if (monitor != null) {
      monitor.interrupt();
    }
  }
}
