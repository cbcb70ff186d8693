package org.jdvm.server.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.agent.link.LinkMessage.Running;
import org.jdvm.agent.link.RelayPort;
import org.jdvm.core.ProcEnd;
import org.jdvm.host.Cleanup;
import org.jdvm.host.LaunchException;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.NodeAgent;
import org.jdvm.host.NodeEvents;
import org.jdvm.host.ProcListener;
import org.jdvm.host.StdinPipe;
import org.jdvm.pmix.Signal;

/**
 * The controller's side of a node whose agent runs on another host ({@link AgentDaemon}): each
 * {@link NodeAgent} call becomes a message on the agent's link, answered ones wait (bounded) for
 * their answer, and what the agent reports comes back to the shell as {@link NodeEvents}. The link
 * may be replaced when the agent joins again after a broken link; a node that went {@link
 * NodeState#DOWN} never gets one again.
 */
public final class RemoteNodeAgent implements NodeAgent {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /** How long a launch, cleanup or stdin answer may take before the call fails. */
  static final long ANSWER_TIMEOUT_MILLIS = 60_000;

  private final String node;
  private final AtomicLong requestIds = new AtomicLong();
  private final Map<Long, CompletableFuture<LinkMessage>> waiting = new ConcurrentHashMap<>();
  private final Map<String, Long> running = new ConcurrentHashMap<>();

  /**
   * Processes whose exit arrived before their launch's answer: the agent reports exits on another
   * thread than its launch answers, and a process that ends at once may overtake its answer.
   */
  private final java.util.Set<String> exitedEarly = ConcurrentHashMap.newKeySet();

  private final RelayPort relay = new RelayPort();
  private volatile NodeEvents events;
  private volatile Link link;
  private volatile OutputCredits credits;
  private volatile NodeState state = NodeState.JOINING;
  private volatile long lastHeartbeatMillis = -1;
  private volatile String host = "";
  private volatile int slots;
  private volatile Map<String, String> resources = Map.of();
  private volatile org.jdvm.host.topology.Topology topology;

  RemoteNodeAgent(String node) {
    this.node = node;
  }

  /** Where this node's process reports go (the shell); set once the DVM is built. */
  public void bind(NodeEvents events) {
    this.events = events;
  }

  @Override
  public String node() {
    return node;
  }

  public NodeState state() {
    return state;
  }

  /** The wall-clock time of the last message from the agent, or -1 before it joined. */
  public long lastHeartbeatMillis() {
    return lastHeartbeatMillis;
  }

  /** The host name the agent reported. */
  public String host() {
    return host;
  }

  /** The slots the agent offered (0: it left it to the host list). */
  public int offeredSlots() {
    return slots;
  }

  @Override
  public org.jdvm.host.topology.Topology topology() {
    return topology; // as its hello said: the agent's host, within the agent's own affinity
  }

  public Map<String, String> resources() {
    return resources;
  }

  /** The current link; {@code null} while none is up. */
  public Link link() {
    return link;
  }

  /** The relay's channel to this node's agent, across rejoins. */
  public RelayPort relay() {
    return relay;
  }

  // ---- joining and leaving (the hub) ------------------------------------------------------------

  /** What the agent still runs that the DVM still counts: the rest the agent ends. */
  synchronized List<Running> keep(List<Running> reported) {
    List<Running> keep = new ArrayList<>();
    for (Running r : reported) {
      Long pid = running.get(key(r.nspace(), r.rank()));
      if (pid != null && pid == r.pid()) {
        keep.add(r);
      }
    }
    return keep;
  }

  /** What a hello says of the agent's host. */
  private void facts(LinkMessage.Hello hello) {
    this.host = hello.host();
    this.slots = hello.slots();
    this.resources = hello.resources();
    this.topology = org.jdvm.host.topology.Topology.decodeOrNull(hello.topology());
  }

  synchronized void attach(Link l, LinkMessage.Hello hello, List<Running> kept) {
    if (state == NodeState.DOWN) {
      l.close(); // declared down while it joined: its next join is refused
      return;
    }
    Link old = link;
    this.link = l;
    this.credits = new OutputCredits(node, l);
    relay.attach(l);
    facts(hello);
    this.state = NodeState.UP;
    this.lastHeartbeatMillis = System.currentTimeMillis();
    if (old != null && old != l) {
      old.close();
    }
    // What the DVM counted but the agent no longer runs ended while the link was down: with the
    // exit code or signal the agent held for it, else (its report lost) as killed.
    Map<String, ProcEnd> endedStatus = new java.util.HashMap<>();
    hello
        .ended()
        .forEach(
            x ->
                endedStatus.put(
                    key(x.nspace(), x.rank()), ProcEnd.exited(x.exitCode(), x.signal())));
    List<String> gone = new ArrayList<>();
    running.forEach(
        (k, pid) -> {
          if (endedStatus.containsKey(k)
              || kept.stream().noneMatch(r -> key(r.nspace(), r.rank()).equals(k))) {
            gone.add(k);
          }
        });
    Rejoin r = rejoin;
    rejoin = null;
    for (String k : gone) {
      running.remove(k);
      int dot = k.lastIndexOf('.');
      String nspace = k.substring(0, dot);
      int rank = Integer.parseInt(k.substring(dot + 1));
      ProcEnd status = endedStatus.get(k);
      if (r != null) {
        // A restarted controller: the reconciliation reports these, once, with the rest.
        if (status != null) {
          r.ended().put(new Running(nspace, rank, 0), status);
        }
        continue;
      }
      NodeEvents e = events;
      if (e != null) {
        ProcEnd end = status != null ? status : ProcEnd.exited(0, Signal.KILL.number());
        e.exited(node, nspace, rank, end.exitCode(), end.signal());
      }
    }
    if (r != null) {
      r.kept().addAll(kept.stream().filter(x -> !endedStatus.containsKey(key(x))).toList());
      r.joined().complete(null);
    }
  }

  /**
   * What the agent of this node said when it rejoined a restarted controller.
   *
   * @param kept what it still runs that the recovered state counts (pids are the agent's)
   * @param ended what the recovered state counted that ended meanwhile, and how
   * @param joined completes when the agent has rejoined
   */
  record Rejoin(List<Running> kept, Map<Running, ProcEnd> ended, CompletableFuture<Void> joined) {}

  private volatile Rejoin rejoin;

  /**
   * A restarted controller expects this node's agent back, still running {@code counted}
   * (nspace.rank → pid, as the recovered state has them); returns what it will say.
   */
  synchronized Rejoin expectRejoin(Map<String, Long> counted) {
    running.clear();
    running.putAll(counted);
    Rejoin r =
        new Rejoin(
            java.util.Collections.synchronizedList(new ArrayList<>()),
            new ConcurrentHashMap<>(),
            new CompletableFuture<>());
    rejoin = r;
    return r;
  }

  private static String key(Running r) {
    return key(r.nspace(), r.rank());
  }

  /** Called by the hub for every message but the relay's. */
  void receive(LinkMessage m) {
    lastHeartbeatMillis = System.currentTimeMillis();
    if (state == NodeState.DOWN) {
      return;
    }
    NodeEvents e = events;
    switch (m) {
      case LinkMessage.Heartbeat h -> {}
      case LinkMessage.Launched l -> answer(l.requestId(), m);
      case LinkMessage.LaunchFailed f -> answer(f.requestId(), m);
      case LinkMessage.Done d -> answer(d.requestId(), m);
      case LinkMessage.Output o -> {
        if (e != null) {
          e.output(
              node,
              o.nspace(),
              o.rank(),
              o.stderr() ? ProcListener.Stream.STDERR : ProcListener.Stream.STDOUT,
              o.chunk());
        }
        OutputCredits c = credits;
        if (c != null) {
          c.received(o.nspace(), o.chunk().length, e);
        }
      }
      case LinkMessage.Exited x -> {
        String k = key(x.nspace(), x.rank());
        if (running.remove(k) == null) {
          exitedEarly.add(k);
        }
        if (e != null) {
          e.exited(node, x.nspace(), x.rank(), x.exitCode(), x.signal(), x.usage());
        }
      }
      default ->
          LOG.log(
              System.Logger.Level.WARNING,
              "node " + node + " sent an unexpected " + m.getClass().getSimpleName());
    }
  }

  void suspect() {
    if (state == NodeState.UP) {
      state = NodeState.SUSPECT;
    }
  }

  void heard() {
    if (state == NodeState.SUSPECT && link != null && link.isOpen()) {
      state = NodeState.UP;
    }
  }

  /** The node is down for good: every call fails from now on, and what waits is answered. */
  void down() {
    Link l;
    synchronized (this) {
      state = NodeState.DOWN;
      l = link;
      link = null;
      running.clear();
    }
    if (l != null) {
      relay.detach(l);
    }
    if (l != null) {
      l.close();
    }
    failWaiting();
  }

  void linkLost(Link l) {
    synchronized (this) {
      if (link != l) {
        return;
      }
      link = null;
      relay.detach(l);
      if (state == NodeState.UP) {
        state = NodeState.SUSPECT;
      }
    }
    failWaiting();
  }

  private void failWaiting() {
    for (Long id : List.copyOf(waiting.keySet())) {
      CompletableFuture<LinkMessage> f = waiting.remove(id);
      if (f != null) {
        f.completeExceptionally(new java.io.IOException("the link to node " + node + " broke"));
      }
    }
  }

  private void answer(long requestId, LinkMessage m) {
    CompletableFuture<LinkMessage> f = waiting.remove(requestId);
    if (f != null) {
      f.complete(m);
    }
  }

  // ---- NodeAgent -------------------------------------------------------------------------------

  private CompletableFuture<LinkMessage> ask(java.util.function.LongFunction<LinkMessage> message) {
    long id = requestIds.incrementAndGet();
    CompletableFuture<LinkMessage> f = new CompletableFuture<>();
    waiting.put(id, f);
    Link l = link;
    if (l == null || state == NodeState.DOWN || !l.send(message.apply(id))) {
      waiting.remove(id);
      f.completeExceptionally(new java.io.IOException("node " + node + " has no agent link"));
    }
    return f;
  }

  private LinkMessage await(CompletableFuture<LinkMessage> f, long millis) throws Exception {
    try {
      return f.get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : e;
    } catch (TimeoutException e) {
      f.cancel(false);
      throw new java.io.IOException("node " + node + " did not answer within " + millis + " ms");
    }
  }

  @Override
  public long launch(String nspace, int rank, LaunchRequest request) throws LaunchException {
    LinkMessage answer;
    try {
      answer =
          await(
              ask(
                  id ->
                      new LinkMessage.Launch(
                          id,
                          nspace,
                          rank,
                          request.argv(),
                          request.environment(),
                          request.workingDirectory() == null
                              ? ""
                              : request.workingDirectory().toString(),
                          request.stdin(),
                          request.mergeStderr(),
                          request.cpus() == null
                              ? ""
                              : org.jdvm.host.topology.CpuList.format(request.cpus()))),
              ANSWER_TIMEOUT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException(LaunchException.Kind.INTERRUPTED, "interrupted", e);
    } catch (Exception e) {
      throw new LaunchException(LaunchException.Kind.NODE_GONE, e.getMessage(), e);
    }
    if (answer instanceof LinkMessage.Launched l) {
      String k = key(nspace, rank);
      running.put(k, l.pid());
      if (exitedEarly.remove(k)) {
        running.remove(k);
      }
      return l.pid();
    }
    LinkMessage.LaunchFailed f = (LinkMessage.LaunchFailed) answer;
    throw new LaunchException(f.kind(), f.message(), null);
  }

  @Override
  public void signalJob(String nspace, int signal) {
    Link l = link;
    if (l != null) {
      l.send(new LinkMessage.Signal(nspace, -1, signal));
    }
  }

  @Override
  public void signalProc(String nspace, int rank, int signal) {
    Link l = link;
    if (l != null) {
      l.send(new LinkMessage.Signal(nspace, rank, signal));
    }
  }

  @Override
  public CompletableFuture<Void> writeStdin(String nspace, int rank, byte[] chunk, long maxWaitMs) {
    return ask(id -> new LinkMessage.Stdin(id, nspace, rank, chunk, maxWaitMs))
        .handle(
            (m, t) -> {
              String error =
                  t != null ? String.valueOf(t.getMessage()) : ((LinkMessage.Done) m).error();
              if (!error.isEmpty()) {
                throw new java.util.concurrent.CompletionException(new StdinPipe.Closed(error));
              }
              return null;
            });
  }

  @Override
  public String registerCleanup(String nspace, Cleanup.Registration r) {
    try {
      LinkMessage.Done d =
          (LinkMessage.Done)
              await(
                  ask(
                      id ->
                          new LinkMessage.Cleanup(
                              id,
                              nspace,
                              r.path().toString(),
                              r.directory(),
                              r.recursive(),
                              r.leaveTop(),
                              r.emptyOnly(),
                              r.ignore(),
                              r.keep())),
                  ANSWER_TIMEOUT_MILLIS);
      return d.error().isEmpty() ? null : d.error();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } catch (Exception e) {
      return e.getMessage();
    }
  }

  @Override
  public int runningProcs() {
    return running.size();
  }

  @Override
  public void terminateAll(long graceMillis) {
    try {
      await(ask(id -> new LinkMessage.TerminateAll(id, graceMillis)), graceMillis + 5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.log(System.Logger.Level.DEBUG, "node " + node + ": " + e.getMessage());
    }
  }

  /** Ends every process, says goodbye (the agent exits) and closes the link. */
  @Override
  public void close() {
    terminateAll(1000);
    Link l = link;
    if (l != null) {
      l.send(new LinkMessage.Bye("the node left the DVM"));
      l.close();
    }
    synchronized (this) {
      if (state != NodeState.DOWN) {
        state = NodeState.DOWN;
      }
    }
  }

  private static String key(String nspace, int rank) {
    return nspace + "." + rank;
  }

  /** For messages and tests. */
  @Override
  public String toString() {
    return "node " + node + " (" + state.label() + ")";
  }
}
