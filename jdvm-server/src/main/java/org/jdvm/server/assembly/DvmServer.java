package org.jdvm.server.assembly;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.jdvm.core.NodeSpec;
import org.jdvm.endpoint.PmixEndpoint;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.server.Dvm;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.AgentRelays;
import org.jdvm.server.agents.AgentRoster;
import org.jdvm.server.agents.AgentStarter;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.HostStart;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.agents.RemoteNodeAgent;
import org.jdvm.server.agents.SrunAgentStarter;
import org.jdvm.server.home.DvmHome;
import org.jdvm.server.home.ToolRendezvous;
import org.jdvm.server.journal.FsyncPolicy;
import org.jdvm.server.journal.RecoveredJournal;
import org.jdvm.server.shell.LaunchEnvironment;
import org.jdvm.server.upstream.ControllerUpstream;

/**
 * A DVM as {@code jdvm start} runs it: its directory, the PMIx endpoint in front, the DVM behind.
 *
 * <p>Start order: claim the directory (lock, secrets), bind the endpoint (its URI goes into every
 * launched process's environment), start the DVM, serve, and only then publish the contact file —
 * so a client that finds the file finds a DVM that answers. Stop order is the reverse: the DVM
 * tears down first (every session ends, scheduler nodes go back, every process is ended, pending
 * requests are answered), then the endpoint closes its connections, then the contact file goes.
 */
public final class DvmServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server");

  private final DvmHome home;
  private final PmixEndpoint endpoint;
  private final Dvm dvm;
  private volatile AgentRelays relays;
  private volatile ToolRendezvous rendezvous;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean closing;
  private volatile Throwable failure;

  private DvmServer(DvmHome home, PmixEndpoint endpoint, Dvm dvm) {
    this.home = home;
    this.endpoint = endpoint;
    this.dvm = dvm;
  }

  /**
   * Starts a DVM in {@code config.home()}.
   *
   * @throws IllegalStateException if another DVM runs in that directory
   * @throws IOException if the directory or the listeners cannot be set up
   */
  public static DvmServer start(DvmConfig config) throws IOException {
    return start(config, null);
  }

  /**
   * Starts a DVM whose nodes are {@code remote}'s hosts (docs/cli.md "jdvm start"): agents are
   * started on them and joined before the DVM is ready; the controller's own node is the start-up
   * pool's first, with the slots the host list gives this host, else none.
   *
   * @throws IOException also when an agent could not be started or did not join; the message names
   *     the hosts
   */
  public static DvmServer start(DvmConfig config, RemoteHosts remote) throws IOException {
    return start(config, remote, DEFAULT_REJOIN_MILLIS);
  }

  /**
   * How long a controller restarted on the directory of one that died waits for its agents to
   * rejoin before their nodes are down (docs/journal.md "Agents that outlive the controller").
   */
  public static final long DEFAULT_REJOIN_MILLIS = 10_000;

  /**
   * As {@link #start(DvmConfig, RemoteHosts)}; on a directory whose controller died with agents on
   * other hosts ({@link AgentRoster} next to a journal), it listens where they connect back instead
   * of starting agents, and waits up to {@code rejoinMillis} for them.
   */
  public static DvmServer start(DvmConfig config, RemoteHosts remote, long rejoinMillis)
      throws IOException {
    // A journal left behind: keep the secret the agents that outlived the controller hold.
    boolean rejoin =
        Files.isRegularFile(config.home().resolve(AgentRoster.FILE))
            && RecoveredJournal.journaledName(Dvm.journalDir(config)) != null;
    DvmHome home = DvmHome.claim(config.home(), rejoin);
    String journaled = RecoveredJournal.journaledName(Dvm.journalDir(config));
    if (journaled != null && !journaled.equals(config.name())) {
      // A DVM recovered from its journal keeps the name its namespaces were minted under.
      LOG.log(
          System.Logger.Level.INFO, "dvm=" + journaled + " recovering (not " + config.name() + ")");
      config = config.withName(journaled);
    }
    PmixEndpoint endpoint = null;
    AgentHub hub = null;
    try {
      Agents agents = agents(config, remote, rejoinMillis, home, journaled != null);
      hub = agents.hub();
      config = agents.config();
      endpoint = PmixEndpoint.open(config.name(), home.socket(), 0, home.credentials());
      return serve(config, remote, home, hub, endpoint);
    } catch (IOException | RuntimeException e) {
      if (endpoint != null) {
        endpoint.close();
      }
      if (hub != null) {
        hub.close();
      }
      home.close();
      throw e;
    }
  }

  /** The agents on other hosts, or none: their hub, and the configuration they make. */
  private record Agents(AgentHub hub, DvmConfig config) {}

  /**
   * On a directory whose controller died with agents on other hosts, they rejoin (the roster says
   * where, with which pool and scheduler); else agents are started on {@code remote}'s hosts, and
   * the roster written if the DVM journals; else none. A hub opened here is closed if this fails.
   */
  private static Agents agents(
      DvmConfig config, RemoteHosts remote, long rejoinMillis, DvmHome home, boolean recovering)
      throws IOException {
    AgentRoster roster = recovering ? AgentRoster.read(config.home()) : null;
    if (roster != null) {
      if (remote != null && !remote.hosts().isEmpty()) {
        LOG.log(
            System.Logger.Level.WARNING,
            "recovering: the agents of the DVM that died rejoin; the hosts given are ignored");
      }
      AgentHub hub =
          AgentHub.openRejoining(
              home.credentials(),
              roster.settings(),
              roster.listen(),
              roster.rejoining(),
              rejoinMillis,
              System::nanoTime);
      try {
        return new Agents(
            hub,
            config
                .withStartupNodes(roster.pool())
                .withScheduler(
                    DvmConfig.SchedulerKind.valueOf(roster.scheduler().toUpperCase(Locale.ROOT))));
      } catch (RuntimeException e) {
        hub.close();
        throw e;
      }
    }
    if (remote == null) {
      return new Agents(null, config);
    }
    AgentHub hub =
        AgentHub.open(home.credentials(), remote.settings(), remote.listen(), System::nanoTime);
    try {
      return new Agents(hub, startedAgents(config, remote, hub, home));
    } catch (IOException | RuntimeException e) {
      hub.close();
      throw e;
    }
  }

  /**
   * The configuration across {@code remote}'s hosts, written to the roster if the DVM journals.
   * With no hosts (Slurm outside an allocation: only granted nodes get agents) the start-up nodes
   * stay this host's virtual nodes.
   */
  private static DvmConfig startedAgents(
      DvmConfig config, RemoteHosts remote, AgentHub hub, DvmHome home) throws IOException {
    if (!remote.hosts().isEmpty()) {
      config = acrossHosts(config, remote, hub, home);
    }
    if (config.fsync() != FsyncPolicy.OFF) {
      new AgentRoster(
              new InetSocketAddress(remote.listen().getAddress(), hub.address().getPort()),
              remote.settings(),
              config.scheduler().name().toLowerCase(Locale.ROOT),
              config.startupNodes(),
              hub.all().stream().map(RemoteNodeAgent::node).toList())
          .write(config.home());
    }
    return config;
  }

  /**
   * Starts the DVM behind the bound endpoint, serves, and only then publishes the contact file. A
   * DVM whose scheduler grants nodes in jobs starts the agents of granted nodes in them.
   */
  private static DvmServer serve(
      DvmConfig config, RemoteHosts remote, DvmHome home, AgentHub hub, PmixEndpoint endpoint)
      throws IOException {
    LaunchEnvironment environment =
        new LaunchEnvironment(
            System.getenv(),
            endpoint.uri(),
            home.dir().resolve(DvmHome.CONTACT).toString(),
            home.tmp().toString(),
            home.credentials());
    environment.pmi(
        endpoint.pmi().port(),
        (nspace, rank) -> endpoint.pmi().ids().idOf(new org.jdvm.pmix.Proc(nspace, rank)));
    Dvm dvm;
    try {
      dvm = Dvm.start(config, endpoint, environment, hub);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause(); // the journal's directory: a start that cannot journal does not start
    }
    if (hub != null && dvm.scheduler().grantsInJobs()) {
      dvm.onGranted(grantedAgents(hub, remote, dvm.scheduler(), home));
    }
    DvmServer server = new DvmServer(home, endpoint, dvm);
    dvm.onFatal(server::fail);
    endpoint.onFatal(server::fail);
    endpoint.serve(
        parts -> new ControllerUpstream(parts, dvm),
        dvm::observe,
        () -> Thread.ofPlatform().start(server::close));
    if (hub != null) {
      server.relays = AgentRelays.serve(endpoint, hub);
    }
    String tcp =
        endpoint.tcpAddress().getAddress().getHostAddress() + ":" + endpoint.tcpAddress().getPort();
    LOG.log(System.Logger.Level.INFO, "dvm=" + config.name() + " uri=" + endpoint.uri() + " ready");
    // Whoever waits for the contact file finds the start-up's lines (recovery) in the log.
    org.jdvm.server.home.DvmLogging.flush();
    try {
      server.rendezvous = toolRendezvous(config, endpoint.uri());
    } catch (IOException e) {
      server.close(); // asked to be the system server and cannot: it does not start half-way
      throw e;
    }
    ToolRendezvous r = server.rendezvous;
    home.publish(config.name(), endpoint.uri(), tcp, r == null ? null : r.dir());
    return server;
  }

  /**
   * The PMIx tool rendezvous files under {@code TMPDIR} (else {@code /tmp}), where libpmix tools
   * look: written once the endpoint serves, and named in the contact file.
   */
  private static ToolRendezvous toolRendezvous(DvmConfig config, String uri) throws IOException {
    String tmp = System.getenv("TMPDIR");
    String nspace = uri.substring(0, uri.lastIndexOf('.', uri.indexOf(';')));
    return ToolRendezvous.publish(
        config.rendezvous(), Path.of(tmp == null || tmp.isEmpty() ? "/tmp" : tmp), uri, nspace);
  }

  /** The PMIx tool rendezvous files this DVM wrote, or {@code null}. */
  public ToolRendezvous rendezvous() {
    return rendezvous;
  }

  /**
   * Nodes a scheduler grants in its jobs (Slurm) to a DVM across hosts get agents too, as srun
   * steps of the job that holds each ({@link SrunAgentStarter}); the port is asked only which job
   * that is ({@link SchedulerPort#jobOf}).
   */
  private static Dvm.GrantedNodes grantedAgents(
      AgentHub hub, RemoteHosts remote, SchedulerPort scheduler, DvmHome home) {
    AgentStarter srun = SrunAgentStarter.ofGrants(scheduler);
    return nodes -> {
      List<HostList.Host> hosts =
          nodes.stream()
              .filter(n -> !RemoteHosts.isThisHost(n.name()))
              .map(n -> new HostList.Host(n.name(), n.slots()))
              .toList();
      Map<String, String> failed =
          HostStart.joinLater(
              hub,
              new RemoteHosts(
                  hosts,
                  srun,
                  remote.listen(),
                  remote.agentCommand(),
                  remote.settings(),
                  remote.joinTimeoutMillis(),
                  line -> LOG.log(System.Logger.Level.INFO, line)),
              home.credentials());
      List<String> joined =
          hosts.stream().map(HostList.Host::name).filter(n -> !failed.containsKey(n)).toList();
      rosterAdds(home, joined);
      return failed;
    };
  }

  /**
   * Agents Slurm's grants brought rejoin a restarted controller too (docs/journal.md "Slurm"): they
   * join the roster, if the DVM keeps one (it journals).
   */
  private static void rosterAdds(DvmHome home, List<String> joined) {
    if (joined.isEmpty()) {
      return;
    }
    synchronized (AgentRoster.class) {
      try {
        if (!Files.isRegularFile(home.dir().resolve(AgentRoster.FILE))) {
          return;
        }
        AgentRoster r = AgentRoster.read(home.dir());
        java.util.LinkedHashSet<String> granted = new java.util.LinkedHashSet<>(r.granted());
        if (granted.addAll(joined)) {
          new AgentRoster(
                  r.listen(),
                  r.settings(),
                  r.scheduler(),
                  r.pool(),
                  r.agents(),
                  List.copyOf(granted))
              .write(home.dir());
        }
      } catch (IOException | RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "the agents of "
                + joined
                + " are not in DIR/agents ("
                + e.getMessage()
                + "): "
                + "they will not rejoin a restarted controller");
      }
    }
  }

  /** The start-up pool of a DVM across hosts, once their agents joined. */
  private static DvmConfig acrossHosts(
      DvmConfig config, RemoteHosts remote, AgentHub hub, DvmHome home) throws IOException {
    String self = RemoteHosts.thisHost();
    int selfSlots = 0;
    List<HostList.Host> others = new ArrayList<>();
    for (HostList.Host h : remote.hosts()) {
      if (RemoteHosts.isThisHost(h.name())) {
        selfSlots = h.slots() > 0 ? h.slots() : Runtime.getRuntime().availableProcessors();
      } else {
        others.add(h);
      }
    }
    List<NodeSpec> pool = new ArrayList<>();
    pool.add(new NodeSpec(self, selfSlots));
    if (!others.isEmpty()) {
      RemoteHosts rest =
          new RemoteHosts(
              others,
              remote.starter(),
              remote.listen(),
              remote.agentCommand(),
              remote.settings(),
              remote.joinTimeoutMillis(),
              remote.progress());
      pool.addAll(HostStart.run(hub, rest, home.credentials()));
    }
    return config.withStartupNodes(pool);
  }

  public Dvm dvm() {
    return dvm;
  }

  public PmixEndpoint endpoint() {
    return endpoint;
  }

  public DvmHome home() {
    return home;
  }

  /** Blocks until the DVM has stopped (by {@code jdvm stop}, a signal, or {@link #close}). */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** Waits at most {@code millis} for the DVM to stop; true if it has. */
  public boolean awaitStop(long millis) throws InterruptedException {
    return stopped.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * A failure no thread of the DVM can go on after (an {@link Error}, above all out of memory, or a
   * broken invariant): the DVM stops at once, visibly, as by {@code jdvm stop} — every job's
   * processes are ended, the contact file is removed, and the log's last line says why. Called from
   * the failing thread; the stop runs on a thread of its own. A process that runs the DVM should
   * also route uncaught throwables here ({@code Thread.setDefaultUncaughtExceptionHandler}) and
   * exit with a failure status once {@link #awaitStop} returns and {@link #failure} is set.
   */
  public void fail(Throwable t) {
    synchronized (this) {
      if (failure != null || closing) {
        return;
      }
      failure = t;
    }
    try {
      LOG.log(
          System.Logger.Level.ERROR,
          "dvm=" + dvm.config().name() + " failed=\"" + t + "\": the DVM stops");
    } catch (Throwable logging) {
      // Out of memory even for the line: stopping matters more.
    }
    Thread.ofPlatform().name("jdvm-fail-stop").start(this::close);
  }

  /** What stopped the DVM, or {@code null} while it runs or when it was stopped on request. */
  public Throwable failure() {
    return failure;
  }

  /** Stops the DVM: teardown, then the endpoint, then the directory. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
    }
    try {
      dvm.close();
      AgentRoster.remove(home.dir()); // stopped cleanly: nobody rejoins
    } finally {
      if (relays != null) {
        relays.close();
      }
      ToolRendezvous r = rendezvous;
      if (r != null) {
        r.close(); // first: a tool must not find a DVM that no longer answers
      }
      endpoint.close();
      home.close();
      Throwable f = failure;
      LOG.log(
          f == null ? System.Logger.Level.INFO : System.Logger.Level.ERROR,
          "dvm=" + dvm.config().name() + " stopped" + (f == null ? "" : " after a failure: " + f));
      stopped.countDown();
    }
  }
}
