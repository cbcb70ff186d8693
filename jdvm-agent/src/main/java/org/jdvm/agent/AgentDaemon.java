package org.jdvm.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.jdvm.agent.link.Handshake;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.agent.link.LinkMessage.Running;
import org.jdvm.agent.link.RelayPort;
import org.jdvm.host.Cleanup;
import org.jdvm.host.LaunchException;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.LocalNodeAgent;
import org.jdvm.host.NodeEvents;
import org.jdvm.host.ProcListener;
import org.jdvm.host.ProcessHost;
import org.jdvm.host.Rusage;
import org.jdvm.host.identity.Credentials;

/**
 * {@code jdvm agent}: the node agent of one host (architecture.md §5). It connects to the
 * controller, proves it holds the DVM's secret (read from its standard input, never from its
 * command line or environment), registers its node, host, slots and resources, and then runs the
 * controller's processes through a {@link LocalNodeAgent} on this host's {@link ProcessHost} — the
 * same code that runs a virtual node — reporting their output and exits back.
 *
 * <p>When the link breaks (the controller silent for {@code missed} heartbeats, or the connection
 * lost, or the controller killed), the processes keep running and the agent connects again, to the
 * same address, for up to {@code reconnect} milliseconds, holding their exit reports and a bounded
 * amount of output meanwhile. Joining again — the same controller, or one restarted on the DVM's
 * directory that recovered its journal (docs/journal.md "Agents that outlive the controller") — it
 * lists what it still runs and what ended meanwhile with its exit status; the controller names what
 * it still counts and the agent ends the rest. A controller that refuses it (the node was declared
 * down: docs/cli.md "Host faults"), says goodbye, or stays unreachable makes it end every process
 * and exit: an agent never outlives its DVM.
 */
public final class AgentDaemon {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /** Output bytes held while the link is down; past it, output is dropped (exits never are). */
  public static final int MAX_HELD_OUTPUT_BYTES = 4 << 20;

  /**
   * Exit reports held while the link is down; they travel in the next {@link LinkMessage.Hello}.
   */
  public static final int MAX_HELD_EXITS = 1 << 16;

  /**
   * How an agent runs.
   *
   * @param controller where the controller listens for agents
   * @param node the node name it joins as ("" to join under its host name)
   * @param host its host name
   * @param slots the slots it offers (0: the controller's host list decides, else its cpus)
   * @param reconnectMillis how long it tries to join again after its link broke
   * @param relay the PMIx relay's hook: given the agent's {@link RelayPort} once, it returns what
   *     the relay makes of each launch (for instance the PMIx server URI of the agent's own
   *     endpoint); {@link #NO_RELAY} leaves launches as the controller sent them
   */
  public record Options(
      InetSocketAddress controller,
      String node,
      String host,
      int slots,
      long reconnectMillis,
      Function<RelayPort, UnaryOperator<LaunchRequest>> relay) {}

  /** No relay: launches run as the controller sent them. */
  public static final Function<RelayPort, UnaryOperator<LaunchRequest>> NO_RELAY =
      port -> UnaryOperator.identity();

  /** How {@link #run} ended, as the agent's exit status. */
  public enum Exit {
    /** The controller said goodbye (the DVM stopped). */
    BYE(0),
    /** The controller could not be reached, at first or again within the reconnect time. */
    UNREACHABLE(1),
    /** The controller refused the agent. */
    REFUSED(3);

    public final int code;

    Exit(int code) {
      this.code = code;
    }
  }

  private final Options options;
  private final Credentials credentials;
  private final LongSupplier clockNs;
  private final ProcessHost host = new ProcessHost();
  private final LocalNodeAgent procs;
  private final Map<String, Long> running = new ConcurrentHashMap<>();

  /** Processes this agent ended because the controller no longer counts them. */
  private final Set<String> disowned = ConcurrentHashMap.newKeySet();

  private final Outbox outbox = new Outbox();
  private final RelayPort relayPort = new RelayPort();
  private final UnaryOperator<LaunchRequest> prepare;

  /** The Slurm step this agent runs as, whose variables its processes see ({@link SlurmStep}). */
  private final SlurmStep step = SlurmStep.of(System.getenv());

  private volatile Link link;
  private volatile Exit ending;
  private final CountDownLatch ended = new CountDownLatch(1);
  private long heartbeatMillis = 1000;
  private int missedHeartbeats = 5;

  public AgentDaemon(Options options, Credentials credentials, LongSupplier clockNs) {
    this.options = options;
    this.credentials = credentials;
    this.clockNs = clockNs;
    this.procs =
        new LocalNodeAgent(
            options.node().isEmpty() ? options.host() : options.node(),
            host,
            new Events(),
            Cleanup.forThisHost(null));
    this.prepare = options.relay().apply(relayPort);
  }

  /** The relay's channel to the controller, across rejoins. */
  public RelayPort relay() {
    return relayPort;
  }

  /** Joins, serves until the DVM says goodbye, refuses the agent or cannot be reached. */
  public Exit run() {
    long lostAtNs = clockNs.getAsLong();
    boolean joinedOnce = false;
    try {
      while (ending == null) {
        Link l;
        try {
          l = join();
        } catch (Refusal r) {
          LOG.log(
              System.Logger.Level.WARNING, "the controller refused this agent: " + r.getMessage());
          return finish(Exit.REFUSED);
        } catch (IOException e) {
          long lostMillis = (clockNs.getAsLong() - lostAtNs) / 1_000_000;
          if (!joinedOnce || lostMillis >= options.reconnectMillis()) {
            LOG.log(
                System.Logger.Level.WARNING,
                "cannot reach the controller at " + options.controller() + ": " + e.getMessage());
            return finish(Exit.UNREACHABLE);
          }
          pause(Math.min(heartbeatMillis, 500));
          continue;
        }
        joinedOnce = true;
        serve(l);
        lostAtNs = clockNs.getAsLong();
      }
      return finish(ending);
    } finally {
      ended.countDown();
    }
  }

  /**
   * Ends the agent: every process it still runs is ended here, by the agent itself, so that none
   * outlives a controller that no longer counts it (one that refused this agent, declared its node
   * down, or could not be reached within the reconnect time) — and the log says how many.
   */
  private Exit finish(Exit how) {
    int still = running.size();
    if (still > 0 && how != Exit.BYE) {
      LOG.log(
          System.Logger.Level.WARNING,
          "ending the "
              + still
              + " processes this agent still runs: the controller "
              + (how == Exit.REFUSED ? "refused it" : "could not be reached in time"));
    }
    procs.close();
    host.close();
    if (prepare instanceof LaunchWatcher w) {
      w.close();
    }
    Link l = link;
    if (l != null) {
      l.close();
    }
    return how;
  }

  /** The agent's side of the relay while it is joined, or {@code null}. */
  public Link link() {
    return link;
  }

  /** Stops the agent as if the controller had said goodbye (tests, a signal). */
  public void stop() {
    ending = Exit.BYE;
    Link l = link;
    if (l != null) {
      l.close();
    }
  }

  /** The exit reports held for the next link (tests). */
  public List<LinkMessage.Exited> heldExits() {
    return outbox.heldExits();
  }

  /** Waits until {@link #run} has returned. */
  public boolean awaitEnd(long millis) throws InterruptedException {
    return ended.await(millis, TimeUnit.MILLISECONDS);
  }

  // ---- joining ---------------------------------------------------------------------------------

  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;

    Refusal(String reason) {
      super(reason);
    }
  }

  private Link join() throws IOException, Refusal {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(options.controller(), Handshake.TIMEOUT_MILLIS);
      s.setSoTimeout(Handshake.TIMEOUT_MILLIS);
      Link l = new Link(s, clockNs, "controller");
      if (!(l.readNow() instanceof LinkMessage.Challenge c)) {
        throw new IOException("the controller did not open with a challenge");
      }
      if (c.version() != LinkMessage.VERSION) {
        throw new Refusal(
            "the controller speaks link version "
                + c.version()
                + ", this agent "
                + LinkMessage.VERSION);
      }
      byte[] nonce = Handshake.nonce();
      List<Running> still;
      List<LinkMessage.Exited> ended;
      synchronized (outbox) { // an exit is in one list or the other, never in neither
        still = stillRunning();
        ended = outbox.exitsForHello();
      }
      l.send(
          new LinkMessage.Hello(
              LinkMessage.VERSION,
              options.host(),
              options.node(),
              options.slots(),
              resources(),
              still,
              ended,
              nonce,
              Handshake.agentProof(credentials, c.nonce(), options.node(), options.host()),
              java.util.Optional.ofNullable(org.jdvm.host.topology.TopologyReader.hostOrNull())
                  .map(org.jdvm.host.topology.Topology::encode)
                  .orElse("")));
      LinkMessage answer = l.readNow();
      if (answer instanceof LinkMessage.Refused r) {
        throw new Refusal(r.reason());
      }
      if (!(answer instanceof LinkMessage.Welcome w)
          || !Handshake.isControllerProof(credentials, nonce, w.proof())) {
        throw new Refusal("the controller did not prove it holds the DVM's secret");
      }
      s.setSoTimeout(0);
      heartbeatMillis = Math.max(10, w.heartbeatMillis());
      missedHeartbeats = Math.max(1, w.missedHeartbeats());
      outbox.forget(ended); // the controller has them from the hello
      reconcile(still, w.keep());
      return l;
    } catch (IOException | Refusal | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private List<Running> stillRunning() {
    List<Running> out = new ArrayList<>();
    running.forEach(
        (key, pid) -> {
          int dot = key.lastIndexOf('.');
          out.add(
              new Running(key.substring(0, dot), Integer.parseInt(key.substring(dot + 1)), pid));
        });
    return out;
  }

  /** Ends what the controller no longer counts. */
  private void reconcile(List<Running> still, List<Running> keep) {
    Set<String> kept = new HashSet<>();
    keep.forEach(r -> kept.add(key(r.nspace(), r.rank())));
    for (Running r : still) {
      if (!kept.contains(key(r.nspace(), r.rank()))) {
        disowned.add(key(r.nspace(), r.rank()));
        procs.signalProc(r.nspace(), r.rank(), org.jdvm.pmix.Signal.KILL.number());
      }
    }
  }

  private static Map<String, String> resources() {
    return Map.of(
        "cpus", Integer.toString(Runtime.getRuntime().availableProcessors()),
        "pid", Long.toString(ProcessHandle.current().pid()));
  }

  private static String key(String nspace, int rank) {
    return nspace + "." + rank;
  }

  // ---- serving ---------------------------------------------------------------------------------

  /** Serves one link until it breaks or the DVM says goodbye. */
  private void serve(Link l) {
    CountDownLatch down = new CountDownLatch(1);
    link = l;
    relayPort.attach(l);
    l.start(m -> handle(l, m), down::countDown);
    outbox.attach(l);
    long sequence = 0;
    try {
      while (!down.await(heartbeatMillis, TimeUnit.MILLISECONDS)) {
        long silentMillis = (clockNs.getAsLong() - l.lastHeardNs()) / 1_000_000;
        if (silentMillis > heartbeatMillis * missedHeartbeats) {
          LOG.log(
              System.Logger.Level.WARNING,
              "the controller has been silent for " + silentMillis + " ms; joining again");
          l.close();
          break;
        }
        l.send(new LinkMessage.Heartbeat(++sequence));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ending = Exit.BYE;
    } finally {
      outbox.detach(l);
      relayPort.detach(l);
      l.close();
      link = null;
    }
  }

  private void handle(Link l, LinkMessage m) {
    switch (m) {
      case LinkMessage.Heartbeat h -> {}
      case LinkMessage.OutputCredit c -> outbox.credit(l, c);
      case LinkMessage.Launch launch -> Thread.ofVirtual().start(() -> launch(l, launch));
      case LinkMessage.Signal s -> {
        if (s.rank() < 0) {
          procs.signalJob(s.nspace(), s.signal());
        } else {
          procs.signalProc(s.nspace(), s.rank(), s.signal());
        }
      }
      case LinkMessage.Stdin s ->
          procs
              .writeStdin(s.nspace(), s.rank(), s.chunk(), s.maxWaitMillis())
              .whenComplete(
                  (v, t) ->
                      l.send(
                          new LinkMessage.Done(
                              s.requestId(), t == null ? "" : String.valueOf(t.getMessage()))));
      case LinkMessage.Cleanup c -> {
        String why =
            procs.registerCleanup(
                c.nspace(),
                new Cleanup.Registration(
                    Path.of(c.path()),
                    c.directory(),
                    c.recursive(),
                    c.leaveTop(),
                    c.emptyOnly(),
                    c.ignore(),
                    c.keep()));
        l.send(new LinkMessage.Done(c.requestId(), why == null ? "" : why));
      }
      case LinkMessage.TerminateAll t ->
          Thread.ofVirtual()
              .start(
                  () -> {
                    procs.terminateAll(t.graceMillis());
                    l.send(new LinkMessage.Done(t.requestId(), ""));
                  });
      case LinkMessage.Bye b -> {
        LOG.log(System.Logger.Level.INFO, "the controller said goodbye: " + b.reason());
        ending = Exit.BYE;
        l.close();
      }
      default -> LOG.log(System.Logger.Level.WARNING, "unexpected " + m.getClass().getSimpleName());
    }
  }

  private void launch(Link l, LinkMessage.Launch m) {
    LaunchRequest request =
        new LaunchRequest(
            m.argv(),
            m.environment(),
            m.workingDirectory().isEmpty() ? null : Path.of(m.workingDirectory()),
            m.stdin(),
            m.mergeStderr(),
            m.cpus().isEmpty() ? null : org.jdvm.host.topology.CpuList.parse(m.cpus()));
    request = step.over(request);
    LaunchWatcher watcher = prepare instanceof LaunchWatcher w ? w : null;
    long started = -1;
    try {
      if (watcher != null) {
        watcher.launching(m.nspace(), m.rank());
      }
      request =
          watcher != null ? watcher.prepare(m.nspace(), m.rank(), request) : prepare.apply(request);
      long pid = procs.launch(m.nspace(), m.rank(), request);
      started = pid;
      running.put(key(m.nspace(), m.rank()), pid);
      l.send(new LinkMessage.Launched(m.requestId(), pid));
      if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        running.remove(key(m.nspace(), m.rank()), pid); // its exit came before it was recorded
      }
    } catch (LaunchException e) {
      l.send(LinkMessage.LaunchFailed.of(m.requestId(), e.kind(), e.getMessage()));
    } catch (RuntimeException e) {
      l.send(
          LinkMessage.LaunchFailed.of(
              m.requestId(), LaunchException.Kind.START_REFUSED, String.valueOf(e)));
    } finally {
      if (watcher != null) {
        watcher.launched(m.nspace(), m.rank(), started);
      }
    }
  }

  /** Reports of the agent's processes, through the outbox. */
  private final class Events implements NodeEvents {
    @Override
    public void output(
        String node, String nspace, int rank, ProcListener.Stream stream, byte[] chunk) {
      outbox.send(
          new LinkMessage.Output(nspace, rank, stream == ProcListener.Stream.STDERR, chunk));
    }

    @Override
    public boolean holdOutput(String node, String nspace, Runnable resume) {
      return outbox.holdOutput(
          nspace, resume); // the job's window is spent: LinkMessage.OutputCredit
    }

    @Override
    public void exited(String node, String nspace, int rank, int exitCode, int signal) {
      exited(node, nspace, rank, exitCode, signal, null);
    }

    @Override
    public void exited(
        String node, String nspace, int rank, int exitCode, int signal, Rusage usage) {
      synchronized (outbox) {
        running.remove(key(nspace, rank));
        if (prepare instanceof LaunchWatcher w) {
          w.exited(nspace, rank);
        }
        if (disowned.remove(key(nspace, rank))) {
          return; // the controller does not count it: nobody to tell
        }
        outbox.send(LinkMessage.Exited.of(nspace, rank, exitCode, signal, usage));
      }
    }

    @Override
    public void exited(String node, String nspace, int rank, int exitStatus) {
      // Only agents that cannot tell a signal from an exit status call this; ProcessHost can.
      exited(node, nspace, rank, exitStatus, 0);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
