package org.jdvm.server;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jdvm.core.Command;
import org.jdvm.core.Core;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Outcome;
import org.jdvm.core.query.CoreView;
import org.jdvm.server.controller.Controller;
import org.jdvm.server.node.Cleanup;
import org.jdvm.server.node.LocalNodeAgent;
import org.jdvm.server.node.NodeAgent;
import org.jdvm.server.node.ProcessHost;
import org.jdvm.server.node.StdinPipe;
import org.jdvm.server.scheduler.EmbeddedSchedulerPort;
import org.jdvm.server.scheduler.NoSchedulerPort;
import org.jdvm.server.scheduler.SchedulerPort;
import org.jdvm.server.shell.LaunchEnvironment;
import org.jdvm.server.shell.NodeRegistry;
import org.jdvm.server.shell.PeerGateway;
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
  private final LongSupplier clockNs = System::nanoTime;
  private final ProcessHost host = new ProcessHost();
  private final SchedulerPort scheduler;
  private final NodeRegistry nodes;
  private final Shell shell;
  private final Controller controller;
  private final LaunchEnvironment environment;
  private volatile boolean closed;

  private Dvm(DvmConfig config, PeerGateway gateway, LaunchEnvironment environment) {
    this.config = config;
    this.environment = environment;
    this.scheduler =
        config.scheduler() == DvmConfig.SchedulerKind.EMBEDDED
            ? new EmbeddedSchedulerPort(config.spareNodes(), clockNs)
            : new NoSchedulerPort();
    Shell[] shellRef = new Shell[1];
    Cleanup cleanup =
        Cleanup.forThisHost(environment.tmpDir() == null ? null : Path.of(environment.tmpDir()));
    this.nodes = new NodeRegistry(name -> new LocalNodeAgent(name, host, shellRef[0], cleanup));
    CoreConfig coreConfig =
        CoreConfig.of(config.name(), config.startupNodes())
            .without(config.disabledFeatures())
            .limitedBy(config.limits());
    Controller[] controllerRef = new Controller[1];
    this.shell =
        new Shell(
            nodes,
            scheduler,
            gateway,
            environment,
            c -> controllerRef[0].submit(c),
            config.shrinkGraceMillis());
    shellRef[0] = shell;
    this.controller = new Controller(new Core(coreConfig), clockNs, shell, this::fatal);
    controllerRef[0] = controller;
  }

  /** Starts a DVM: agents of the start-up nodes, the scheduler, the controller thread. */
  public static Dvm start(DvmConfig config, PeerGateway gateway, LaunchEnvironment environment) {
    Dvm dvm = new Dvm(config, gateway, environment);
    config.startupNodes().forEach(n -> dvm.nodes.add(n.name()));
    dvm.scheduler.start(
        new SchedulerBridge(dvm.controller::submit, dvm.clockNs, dvm::endProcessesOn));
    dvm.controller.start();
    LOG.log(
        System.Logger.Level.INFO,
        "dvm="
            + config.name()
            + " nodes="
            + config.startupNodes().size()
            + " scheduler="
            + dvm.scheduler.describe().replace(' ', '_')
            + " "
            + dvm.host.isolation());
    return dvm;
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
    controller.teardown(10_000);
    shell.close();
    scheduler.close();
    host.close();
  }
}
