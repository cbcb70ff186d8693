package org.jdvm.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.jdvm.core.NodeSpec;
import org.jdvm.server.home.DvmHome;
import org.jdvm.server.journal.FsyncPolicy;
import org.jdvm.server.journal.RecoveredJournal;
import org.jdvm.server.pmix.PmixEndpoint;
import org.jdvm.server.remote.AgentHub;
import org.jdvm.server.remote.AgentRoster;
import org.jdvm.server.remote.HostList;
import org.jdvm.server.remote.HostStart;
import org.jdvm.server.remote.RemoteHosts;
import org.jdvm.server.remote.RemoteNodeAgent;
import org.jdvm.server.shell.LaunchEnvironment;

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
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean closing;

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
      AgentRoster roster = journaled != null ? AgentRoster.read(config.home()) : null;
      if (roster != null) {
        if (remote != null) {
          LOG.log(
              System.Logger.Level.WARNING,
              "recovering: the agents of the DVM that died rejoin; the hosts given are ignored");
        }
        hub =
            AgentHub.openRejoining(
                home.credentials(),
                roster.settings(),
                roster.listen(),
                roster.agents(),
                rejoinMillis,
                System::nanoTime);
        config =
            config
                .withStartupNodes(roster.pool())
                .withScheduler(
                    DvmConfig.SchedulerKind.valueOf(roster.scheduler().toUpperCase(Locale.ROOT)));
      } else if (remote != null) {
        hub =
            AgentHub.open(home.credentials(), remote.settings(), remote.listen(), System::nanoTime);
        config = acrossHosts(config, remote, hub, home);
        if (config.fsync() != FsyncPolicy.OFF) {
          new AgentRoster(
                  new InetSocketAddress(remote.listen().getAddress(), hub.address().getPort()),
                  remote.settings(),
                  config.scheduler().name().toLowerCase(Locale.ROOT),
                  config.startupNodes(),
                  hub.all().stream().map(RemoteNodeAgent::node).toList())
              .write(config.home());
        }
      }
      endpoint = PmixEndpoint.open(config.name(), home.socket(), 0, home.credentials());
      LaunchEnvironment environment =
          new LaunchEnvironment(
              System.getenv(),
              endpoint.uri(),
              home.dir().resolve(DvmHome.CONTACT).toString(),
              home.tmp().toString(),
              home.credentials());
      Dvm dvm;
      try {
        dvm = Dvm.start(config, endpoint, environment, hub);
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause(); // the journal's directory: a start that cannot journal does not start
      }
      DvmServer server = new DvmServer(home, endpoint, dvm);
      endpoint.serve(dvm, () -> Thread.ofPlatform().start(server::close));
      String tcp =
          endpoint.tcpAddress().getAddress().getHostAddress()
              + ":"
              + endpoint.tcpAddress().getPort();
      home.publish(config.name(), endpoint.uri(), tcp);
      LOG.log(
          System.Logger.Level.INFO, "dvm=" + config.name() + " uri=" + endpoint.uri() + " ready");
      return server;
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
      endpoint.close();
      home.close();
      LOG.log(System.Logger.Level.INFO, "dvm=" + dvm.config().name() + " stopped");
      stopped.countDown();
    }
  }
}
