package org.jdvm.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.CoreView;
import org.jdvm.endpoint.PeerGateway;
import org.jdvm.host.Cleanup;
import org.jdvm.host.LocalNodeAgent;
import org.jdvm.host.NodeAgent;
import org.jdvm.host.ProcessHost;
import org.jdvm.host.StdinPipe;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.RemoteNodeAgent;
import org.jdvm.server.controller.Controller;
import org.jdvm.server.journal.FsyncPolicy;
import org.jdvm.server.journal.Journal;
import org.jdvm.server.journal.RecoveredJournal;
import org.jdvm.server.journal.Recovering;
import org.jdvm.server.shell.LaunchEnvironment;
import org.jdvm.server.shell.NodeRegistry;
import org.jdvm.server.shell.SchedulerBridge;
import org.jdvm.server.shell.Shell;

/**
 * One running DVM on this host: the core owned by the controller thread, the shell executing its
 * effects, an in-process agent per node, and the scheduler port (architecture.md §1, §5). The PMIx
 * endpoint sits in front of it: it submits commands, reads views, and receives what is addressed to
 * peers through its {@link PeerGateway}.
 */
public final class Dvm implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server");

  private final DvmConfig config;
  private final LongSupplier clockNs;
  private final RecoveredJournal recovered;
  private final Journal journal;
  private final Set<String> awaitingReattach = ConcurrentHashMap.newKeySet();
  private final ProcessHost host;
  private final SchedulerPort scheduler;
  private final NodeRegistry nodes;
  private final Shell shell;
  private final Controller controller;
  private final LaunchEnvironment environment;
  private final AgentHub hub;
  private final Cleanup cleanup;
  private volatile GrantedNodes granted;
  private volatile boolean closed;
  private final org.jdvm.host.topology.Topology hostTopology =
      org.jdvm.host.topology.TopologyReader.hostOrNull();
  private final java.util.concurrent.atomic.AtomicInteger localNodes =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Starts the agents of nodes a scheduler granted (docs/cli.md "jdvm start", Slurm). */
  public interface GrantedNodes {
    /**
     * Starts and awaits their agents; returns the nodes whose agent did not join, with why. Blocks.
     */
    Map<String, String> startAgents(List<org.jdvm.core.NodeSpec> nodes);
  }

  private Dvm(DvmConfig config, PeerGateway gateway, LaunchEnvironment environment, AgentHub hub)
      throws IOException {
    this.hub = hub;
    this.host = new ProcessHost(config.home());
    this.config = config;
    this.environment = environment;
    this.cleanup =
        Cleanup.forThisHost(environment.tmpDir() == null ? null : Path.of(environment.tmpDir()));
    boolean journaling = config.fsync() != FsyncPolicy.OFF;
    this.recovered = recovered(config, journaling);
    long offsetNs = clockOffsetNs(recovered);
    this.clockNs = () -> System.nanoTime() + offsetNs;
    this.scheduler = config.scheduler().open(config.spareNodes(), clockNs);
    scheduler.restore(recovered.notes());
    // The agents are bound to the shell, the shell submits to the controller, the controller
    // executes through the shell: the first two reach the later parts through methods of this.
    this.nodes = new NodeRegistry(this::agentFor);
    this.shell =
        new Shell(
            nodes,
            scheduler,
            gateway,
            environment,
            this::submitFromShell,
            config.shrinkGraceMillis());
    Core core = recovered.core();
    this.controller = new Controller(core, clockNs, shell, this::fatal);
    this.journal =
        journaling
            ? new Journal(
                journalDir(config),
                config.fsync(),
                Journal.DEFAULT_SNAPSHOT_EVERY,
                core,
                core.config(),
                recovered)
            : null;
    if (journal != null) {
      controller.journal(journal);
      scheduler.journalTo(journal);
    }
  }

  /** What the journal left, or a fresh core when the DVM does not journal. */
  private static RecoveredJournal recovered(DvmConfig config, boolean journaling)
      throws IOException {
    CoreConfig coreConfig =
        CoreConfig.of(config.name(), config.startupNodes())
            .without(config.disabledFeatures())
            .limitedBy(config.limits());
    RecoveredJournal recovered =
        journaling
            ? RecoveredJournal.read(journalDir(config), coreConfig, config.discardJournalAfter())
            : RecoveredJournal.fresh(coreConfig);
    if (recovered.found() && !recovered.core().config().equals(coreConfig)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "journal: recovering with the configuration the journal was written under ("
              + recovered.core().config().startupPool().size()
              + " start-up nodes), not this start's options");
    }
    return recovered;
  }

  /** A node's agent: the remote one that joined for it, else one in this process. */
  private NodeAgent agentFor(String name) {
    RemoteNodeAgent remote = hub == null ? null : hub.get(name);
    if (remote != null) {
      remote.bind(shell);
      return remote;
    }
    return new LocalNodeAgent(name, host, shell, cleanup)
        .withTopology(virtualShare(localNodes.getAndIncrement()));
  }

  /**
   * The share of this host's cpus the {@code index}th virtual node gets ({@code Topology.share}:
   * contiguous blocks of whole cores among the start-up nodes when they are no more than the cores,
   * else one core each round-robin; nodes joining later wrap round).
   */
  private org.jdvm.host.topology.Topology virtualShare(int index) {
    return hostTopology == null
        ? null
        : hostTopology.share(index, Math.max(1, config.startupNodes().size()));
  }

  /** Where launched processes were bound (their job data says it). */
  public org.jdvm.server.shell.ProcPlaces places() {
    return shell.places();
  }

  /** What the shell hands the controller (reports of what it executed). */
  private void submitFromShell(Command command) {
    controller.submit(command);
  }

  /** Where the journal lies: {@code journal/} in the DVM's directory (docs/journal.md). */
  public static Path journalDir(DvmConfig config) {
    return config.home().resolve("journal");
  }

  /**
   * Carries the DVM's clock across the outage: it resumes where the journal left it, plus the wall
   * time that passed meanwhile, so time limits go on counting while the controller is away.
   */
  private static long clockOffsetNs(RecoveredJournal r) {
    if (!r.found() || r.nowNs() == Long.MIN_VALUE) {
      return 0;
    }
    long awayMs = Math.max(0, System.currentTimeMillis() - r.wallMillis());
    return r.nowNs() + awayMs * 1_000_000L - System.nanoTime();
  }

  /** Starts a DVM: agents of the start-up nodes, the scheduler, the controller thread. */
  public static Dvm start(DvmConfig config, PeerGateway gateway, LaunchEnvironment environment) {
    return start(config, gateway, environment, null);
  }

  /**
   * Starts a DVM whose nodes named in {@code hub} run on other hosts: their agents have joined, and
   * a node the hub declares down is reported lost to the core.
   */
  public static Dvm start(
      DvmConfig config, PeerGateway gateway, LaunchEnvironment environment, AgentHub hub) {
    Dvm dvm;
    try {
      dvm = new Dvm(config, gateway, environment, hub);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot open the journal: " + e.getMessage(), e);
    }
    if (hub != null) {
      hub.onLost(n -> dvm.controller.submit(new Report.NodeLost(n)));
    }
    config.startupNodes().forEach(n -> dvm.nodes.add(n.name()));
    SchedulerBridge bridge =
        new SchedulerBridge(dvm.controller::submit, dvm.clockNs, dvm::endProcessesOn);
    dvm.scheduler.start(e -> dvm.schedulerEvent(bridge, e));
    Recovering.AgentInventory inventory = Recovering.AgentInventory.EMBEDDED;
    List<String> missing = List.of();
    if (hub != null && hub.rejoining()) {
      AgentHub.Rejoined back = Rejoining.await(dvm.hub, dvm.recovered);
      inventory = Rejoining.inventory(back);
      missing = back.missing();
    }
    List<Command> reconcile = List.of();
    if (dvm.recovered.found()) {
      reconcile =
          Recovering.resume(
              dvm.recovered, dvm.nodes, dvm.shell, dvm.scheduler, dvm.awaitingReattach, inventory);
    }
    dvm.controller.start();
    reconcile.forEach(dvm.controller::submit);
    missing.forEach(n -> dvm.controller.submit(new Report.NodeLost(n)));
    if (!dvm.awaitingReattach.isEmpty()) {
      Recovering.departUnlessReattached(dvm.awaitingReattach, dvm.controller::submit);
    }
    LOG.log(
        System.Logger.Level.INFO,
        "dvm="
            + config.name()
            + " nodes="
            + config.startupNodes().size()
            + " scheduler="
            + dvm.scheduler.describe().replace(' ', '_')
            + " "
            + dvm.host.isolation()
            + " maxProcs="
            + dvm.host.maxProcs()
            + " maxMergedProcs="
            + dvm.host.maxMergedProcs());
    return dvm;
  }

  /**
   * From now on, nodes the scheduler grants get agents before the core hears of the grant; a node
   * whose agent did not join is then reported lost.
   */
  public void onGranted(GrantedNodes agents) {
    this.granted = agents;
  }

  private void schedulerEvent(SchedulerBridge bridge, SchedulerEvent e) {
    GrantedNodes g = granted;
    if (g == null || !(e instanceof SchedulerEvent.Granted grant)) {
      bridge.accept(e);
      return;
    }
    Thread.ofVirtual()
        .name("jdvm-grant-agents")
        .start(
            () -> {
              List<org.jdvm.core.NodeSpec> nodes =
                  grant.nodes().stream()
                      .map(n -> new org.jdvm.core.NodeSpec(n.name(), n.slots()))
                      .toList();
              Map<String, String> failed;
              try {
                failed = g.startAgents(nodes);
              } catch (RuntimeException x) {
                // the grant still reaches the core, or its requester would wait for ever
                failed = new java.util.LinkedHashMap<>();
                for (org.jdvm.core.NodeSpec n : nodes) {
                  failed.put(n.name(), String.valueOf(x.getMessage()));
                }
              }
              bridge.accept(e);
              failed.forEach(
                  (node, why) -> {
                    LOG.log(System.Logger.Level.WARNING, "granted node " + node + " lost: " + why);
                    controller.submit(new Report.NodeLost(node));
                  });
            });
  }

  private void endProcessesOn(List<String> nodeNames) {
    for (String n : nodeNames) {
      NodeAgent a = nodes.remove(n);
      if (a != null) {
        a.close();
      }
    }
  }

  /** What every launched process's environment holds, and where jobs' directories are. */
  public LaunchEnvironment environment() {
    return environment;
  }

  public DvmConfig config() {
    return config;
  }

  /** Hands a command to the controller. */
  public CompletableFuture<Outcome> submit(Command command) {
    return controller.submit(command);
  }

  /** How many commands and reads wait for the controller thread now, for tests and the bench. */
  public int queued() {
    return controller.queued();
  }

  /** Runs a read-only query on the controller thread. */
  public <T> CompletableFuture<T> read(Function<CoreView, T> query) {
    return controller.read(query);
  }

  /**
   * Tells {@code observer} of every outcome that changed the state (see {@link
   * Controller#observe}).
   */
  public void observe(java.util.function.Consumer<Outcome> observer) {
    controller.observe(observer);
  }

  /**
   * Forwards a chunk of stdin to a process on {@code node} (see {@link NodeAgent#writeStdin}); a
   * node that is not in the DVM fails it with {@link StdinPipe.Closed}. May block the caller up to
   * {@code maxWaitMs} while the process's pipe is full.
   */
  public CompletableFuture<Void> writeStdin(
      String node, String nspace, int rank, byte[] chunk, long maxWaitMs) {
    NodeAgent agent = nodes.get(node);
    if (agent == null) {
      return CompletableFuture.failedFuture(new StdinPipe.Closed("node " + node + " has left"));
    }
    return agent.writeStdin(nspace, rank, chunk, maxWaitMs);
  }

  /**
   * Registers a path a job wants removed when its processes on {@code node} have ended (see {@link
   * NodeAgent#registerCleanup}); returns why it was refused, or {@code null}.
   */
  public String registerCleanup(String node, String nspace, Cleanup.Registration registration) {
    NodeAgent agent = nodes.get(node);
    return agent == null
        ? "node " + node + " has left"
        : agent.registerCleanup(nspace, registration);
  }

  /**
   * How a node's agent is doing, for {@code jdvm nodes}.
   *
   * @param host the host its processes run on
   * @param state {@code local} (in the controller), or a {@link org.jdvm.server.agents.NodeState}
   *     label
   * @param lastHeartbeatMillis when its agent was last heard (wall clock), or {@code null}
   */
  public record AgentFacts(String host, String state, Long lastHeartbeatMillis) {}

  /**
   * Every node's agent facts, by node name; start-up nodes that went down stay listed, but a node a
   * scheduler granted has left the DVM with its agent (its Slurm job ended, or it was lost).
   */
  public java.util.Map<String, AgentFacts> agentFacts() {
    java.util.Map<String, AgentFacts> out = new java.util.LinkedHashMap<>();
    String self = org.jdvm.server.agents.RemoteHosts.thisHost();
    for (NodeAgent a : nodes.all()) {
      if (!(a instanceof RemoteNodeAgent)) {
        out.put(a.node(), new AgentFacts(self, "local", null));
      }
    }
    if (hub != null) {
      java.util.Set<String> startup = new java.util.HashSet<>();
      config.startupNodes().forEach(n -> startup.add(n.name()));
      for (RemoteNodeAgent r : hub.all()) {
        if (r.state() == org.jdvm.server.agents.NodeState.DOWN && !startup.contains(r.node())) {
          continue;
        }
        long heard = r.lastHeartbeatMillis();
        out.put(
            r.node(),
            new AgentFacts(
                r.host().isEmpty() ? r.node() : r.host(),
                r.state().label(),
                heard < 0 ? null : heard));
      }
    }
    return out;
  }

  /** The agents on other hosts, or {@code null} for a DVM on this host only. */
  public AgentHub hub() {
    return hub;
  }

  /**
   * After a restart, a tool or scheduler namespace whose client has not connected again yet: a
   * client that connects asking for it gets it back (and nothing else does) until the grace period
   * ends. Returns whether {@code namespace} was waiting and is now taken.
   */
  public boolean reattach(String namespace) {
    return awaitingReattach.remove(namespace);
  }

  /** The first request id the endpoint may mint: above every id the journal knows. */
  public long firstRequestId() {
    return journal == null ? 1 : journal.lastRequestId() + 1;
  }

  /** What the start found in the journal. */
  public RecoveredJournal recovered() {
    return recovered;
  }

  /** The DVM's monotonic clock. */
  public LongSupplier clock() {
    return clockNs;
  }

  public SchedulerPort scheduler() {
    return scheduler;
  }

  private void fatal(Throwable t) {
    LOG.log(System.Logger.Level.ERROR, "the controller failed (" + t + "); the DVM stops");
    fatalListener.accept(t);
    Thread.ofVirtual().start(this::close);
  }

  private volatile java.util.function.Consumer<Throwable> fatalListener = t -> {};

  /**
   * Who hears, after the DVM began to close itself, that a failure stopped it (the server around
   * it, which must then stop too rather than serve a dead DVM).
   */
  public void onFatal(java.util.function.Consumer<Throwable> listener) {
    this.fatalListener = listener;
  }

  /**
   * Tears the DVM down (spec §8.2.1.9.1 trigger 2): every session ends, scheduler nodes go back,
   * every process is ended. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Outcome teardown = controller.teardown(10_000);
    if (journal != null) {
      journal.close(teardown != null);
    }
    shell.close();
    if (hub != null) {
      hub.close();
    }
    scheduler.close();
    host.close();
  }
}
