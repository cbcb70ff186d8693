package org.jdvm.server.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.jdvm.core.Command;
import org.jdvm.core.Effect;
import org.jdvm.core.Effect.AddNodes;
import org.jdvm.core.Effect.AskScheduler;
import org.jdvm.core.Effect.CancelAsk;
import org.jdvm.core.Effect.HandBackNodes;
import org.jdvm.core.Effect.KillProcs;
import org.jdvm.core.Effect.LaunchProcs;
import org.jdvm.core.Effect.NotifyProc;
import org.jdvm.core.Effect.ProcLaunch;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.Effect.ReportSessionComplete;
import org.jdvm.core.Effect.ShrinkNodes;
import org.jdvm.core.Effect.SignalProcs;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.Report;
import org.jdvm.endpoint.PeerGateway;
import org.jdvm.host.LaunchException;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.NodeAgent;
import org.jdvm.host.NodeEvents;
import org.jdvm.host.ProcListener;
import org.jdvm.host.Rusage;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Signal;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.server.controller.EffectSink;

/**
 * Executes the core's effects (the "thin shell" of architecture.md §1), and turns what agents
 * observe into reports. On the controller thread it only dispatches: replies and events are queued
 * on connections, asks go to the scheduler port's own thread, and everything that blocks (starting,
 * signalling and ending processes) runs on virtual threads whose findings come back as reports.
 *
 * <p>Ordering obligations of the core (jdvm-core README): effects of one outcome are dispatched in
 * order; {@code AddNodes} is immediate, so the launches that follow find their agents; a {@code
 * HandBackNodes} waits until the {@code ShrinkNodes} of the same nodes has ended every process — at
 * once, on the controller thread, for a node that runs none, so the scheduler has it back before
 * the next command is taken.
 */
public final class Shell implements EffectSink, NodeEvents, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.shell");

  /** How long processes get between TERM and KILL when jdvm ends them (killed, node departing). */
  private final long shrinkGraceMillis;

  private final NodeRegistry nodes;
  private final SchedulerPort scheduler;
  private final PeerGateway gateway;
  private final LaunchEnvironment environment;
  private final Consumer<Command> submit;
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, CompletableFuture<Void>> shrinking = new ConcurrentHashMap<>();
  private final Map<String, Integer> signalled = new ConcurrentHashMap<>();
  private final ProcPlaces places = new ProcPlaces();

  /**
   * @param submit hands a report to the controller
   */
  public Shell(
      NodeRegistry nodes,
      SchedulerPort scheduler,
      PeerGateway gateway,
      LaunchEnvironment environment,
      Consumer<Command> submit,
      long shrinkGraceMillis) {
    this.nodes = nodes;
    this.scheduler = scheduler;
    this.gateway = gateway;
    this.environment = environment;
    this.submit = submit;
    this.shrinkGraceMillis = shrinkGraceMillis;
  }

  /** Where launched processes were bound (their job data reads it). */
  public ProcPlaces places() {
    return places;
  }

  @Override
  public void execute(List<Effect> effects) {
    LaunchBindings.Plan plan = null; // made at the first launch: the AddNodes before it are done
    for (Effect e : effects) {
      switch (e) {
        case Reply r -> gateway.reply(r.requestId(), r.status(), r.infos());
        case NotifyProc n -> gateway.notify(n.target(), n.status(), n.source(), n.infos());
        case AskScheduler a -> ask(a);
        case CancelAsk c -> scheduler.cancel(askId(c.askId()));
        case HandBackNodes h -> handBack(h);
        case AddNodes a -> a.nodes().forEach(n -> nodes.add(n.name()));
        case ShrinkNodes s -> s.nodeNames().forEach(this::shrink);
        case LaunchProcs l -> {
          if (plan == null) {
            plan = LaunchBindings.plan(effects, this::topologyOf, this::neighboursOf);
          }
          launchBound(l, plan);
        }
        case SignalProcs s ->
            workers.execute(() -> signal(s.node(), s.namespace(), s.ranks(), s.signal()));
        case KillProcs k -> workers.execute(() -> terminate(k.node(), k.namespace(), k.ranks()));
        case ReportSessionComplete r -> gateway.sessionComplete(r);
      }
    }
  }

  // ---- the scheduler -------------------------------------------------------------------------

  /** The scheduler port names asks with strings; the core with numbers. */
  public static String askId(long id) {
    return Long.toString(id);
  }

  /**
   * Hands an ask to the scheduler port as it is: what to ask for, and whether a loan is accepted,
   * is decided by the core and the scheduler, not here.
   */
  private void ask(AskScheduler a) {
    Ask.Kind kind =
        switch (a.kind()) {
          case NEW -> Ask.Kind.NEW;
          case EXTEND -> Ask.Kind.EXTEND;
          case REAQUIRE -> Ask.Kind.REAQUIRE;
          case LEND -> Ask.Kind.LEND;
        };
    scheduler.ask(
        new Ask(
            askId(a.askId()),
            kind,
            kind == Ask.Kind.NEW ? null : a.schedulerAllocId(),
            a.nodeCount(),
            a.nodeNames(),
            a.timeLimitSeconds(),
            a.warnTimeoutSeconds(),
            a.required()));
  }

  private void handBack(HandBackNodes h) {
    if (h.schedulerAllocId() == null || h.nodeNames().isEmpty()) {
      return;
    }
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    for (String n : h.nodeNames()) {
      CompletableFuture<Void> f = shrinking.get(n);
      if (f != null) {
        pending.add(f);
      }
    }
    Runnable give =
        () -> {
          if (h.lendSeconds() != null) {
            scheduler.lend(h.schedulerAllocId(), h.nodeNames(), h.lendSeconds());
          } else {
            scheduler.release(h.schedulerAllocId(), h.nodeNames());
          }
        };
    if (pending.isEmpty()) {
      give.run();
    } else {
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).thenRun(give);
    }
  }

  // ---- nodes and processes -------------------------------------------------------------------

  private void shrink(String node) {
    NodeAgent agent = nodes.remove(node);
    if (agent == null) {
      return;
    }
    if (agent.closesAtOnce()) {
      // Nothing to end: the node goes back now, ahead of anything the release's reply prompts (a
      // required NEW sent right after it must find the node free, not refused).
      agent.close();
      return;
    }
    CompletableFuture<Void> done =
        CompletableFuture.runAsync(
            () -> {
              agent.terminateAll(shrinkGraceMillis);
              agent.close();
            },
            workers);
    shrinking.put(node, done);
    done.whenComplete((v, t) -> shrinking.remove(node, done));
  }

  /** The future of a node's shrink in progress, for tests and the orderly stop. */
  CompletableFuture<Void> shrinkOf(String node) {
    return shrinking.getOrDefault(node, CompletableFuture.completedFuture(null));
  }

  private org.jdvm.host.topology.Binder.Neighbours neighboursOf(String node) {
    NodeAgent agent = nodes.get(node);
    return agent == null
        ? org.jdvm.host.topology.Binder.Neighbours.NONE
        : new org.jdvm.host.topology.Binder.Neighbours(places.takenOn(node), agent.runningProcs());
  }

  private org.jdvm.host.topology.Topology topologyOf(String node) {
    NodeAgent agent = nodes.get(node);
    return agent == null ? null : agent.topology();
  }

  /**
   * Launches a node's processes bound as the plan says, or, when their job cannot be bound as it
   * asked on one of its nodes, starts none of them: the job's first rank's stderr says why, and the
   * launch fails with {@code PMIX_ERR_JOB_FAILED_TO_MAP}.
   */
  private void launchBound(LaunchProcs l, LaunchBindings.Plan plan) {
    String why = plan.refused().get(l.namespace());
    List<Integer> ranks = l.procs().stream().map(ProcLaunch::rank).toList();
    if (why == null) {
      Map<Integer, ProcPlaces.Place> bound = plan.places().getOrDefault(l.namespace(), Map.of());
      Map<Integer, ProcPlaces.Place> here = new java.util.HashMap<>();
      for (ProcLaunch p : l.procs()) {
        if (bound.containsKey(p.rank())) {
          here.put(p.rank(), bound.get(p.rank()));
        }
      }
      places.put(l.namespace(), l.node(), here);
      ProcPlaces.Policies policies = plan.policies().get(l.namespace());
      if (policies != null) {
        places.put(l.namespace(), policies);
      }
      if (plan.report().contains(l.namespace())) {
        BindingReport.report(gateway, l, places);
      }
      workers.execute(() -> launch(l, plan));
      return;
    }
    LOG.log(System.Logger.Level.WARNING, "job " + l.namespace() + " not launched: " + why);
    if (!plan.refusalSaid().contains(l.namespace())) {
      plan.refusalSaid().add(l.namespace());
      byte[] line = ("jdvm: " + why + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
      gateway.output(l.namespace(), ranks.get(0), ProcListener.Stream.STDERR, line);
    }
    submit.accept(
        new Report.LaunchFailed(l.node(), l.namespace(), ranks, PmixStatus.ERR_JOB_FAILED_TO_MAP));
  }

  private void launch(LaunchProcs l, LaunchBindings.Plan plan) {
    NodeAgent agent = nodes.get(l.node());
    List<Report.LaunchedProc> started = new ArrayList<>();
    List<Integer> failed = new ArrayList<>();
    int failure = PmixStatus.ERR_JOB_FAILED_TO_LAUNCH;
    for (ProcLaunch p : l.procs()) {
      if (agent == null) {
        failed.add(p.rank());
        continue;
      }
      try {
        long pid =
            agent.launch(
                l.namespace(), p.rank(), request(l, p).boundTo(plan.cpus(l.namespace(), p.rank())));
        started.add(new Report.LaunchedProc(p.rank(), pid));
      } catch (LaunchException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "launch of "
                + l.namespace()
                + "."
                + p.rank()
                + " on "
                + l.node()
                + " failed: kind="
                + e.kind()
                + " "
                + e.getMessage());
        failure = status(e.kind());
        failed.add(p.rank());
      }
    }
    if (!started.isEmpty()) {
      submit.accept(new Report.ProcsLaunched(l.node(), l.namespace(), started));
    }
    if (!failed.isEmpty()) {
      submit.accept(new Report.LaunchFailed(l.node(), l.namespace(), failed, failure));
    }
  }

  /** The PMIx status a launch failure of this kind is reported with. */
  static int status(LaunchException.Kind kind) {
    return switch (kind) {
      case EXE_NOT_FOUND -> PmixStatus.ERR_JOB_EXE_NOT_FOUND;
      case START_REFUSED, INTERRUPTED, NODE_GONE -> PmixStatus.ERR_JOB_FAILED_TO_LAUNCH;
      case OUT_OF_RESOURCE -> PmixStatus.ERR_OUT_OF_RESOURCE;
    };
  }

  private LaunchRequest request(LaunchProcs l, ProcLaunch p) {
    App app = p.app();
    List<String> argv = new ArrayList<>();
    if (app.argv().isEmpty()) {
      argv.add(app.cmd());
    } else {
      argv.addAll(app.argv());
      if (app.cmd() != null && !app.cmd().isEmpty()) {
        argv.set(0, app.cmd());
      }
    }
    return new LaunchRequest(
        argv,
        environment.of(l.namespace(), p.rank(), l.node(), app.env(), app.info(), p.env()),
        app.cwd() == null || app.cwd().isEmpty() ? null : java.nio.file.Path.of(app.cwd()),
        p.stdin(),
        mergesStderr(app));
  }

  /**
   * {@code PMIX_IOF_MERGE_STDERR_STDOUT} true in the app's info, where the PMIx endpoint puts it
   * for a spawn that asked for it in its job's info or the app's ({@code JobOps.mergeStderr}).
   */
  static boolean mergesStderr(App app) {
    for (Info i : app.info()) {
      if (i.key().equals(PmixKeys.IOF_MERGE_STDERR_STDOUT)
          && i.value().type() == DataType.BOOL
          && i.value().asBoolean()) {
        return true;
      }
    }
    return false;
  }

  private void signal(String node, String nspace, List<Integer> ranks, int signal) {
    NodeAgent agent = nodes.get(node);
    if (agent == null) {
      return;
    }
    for (int rank : ranks) {
      if (signal != Signal.CONT.number() && signal != Signal.STOP.number()) {
        signalled.put(nspace + "." + rank, signal);
      }
      agent.signalProc(nspace, rank, signal);
    }
  }

  /**
   * Ends processes as users expect (and as {@code mpirun} does): CONT and TERM, then KILL to
   * whatever is left after the grace period. One call per node; the core emits those of a job
   * together, so the job's processes on all its nodes get TERM at once.
   */
  private void terminate(String node, String nspace, List<Integer> ranks) {
    signal(node, nspace, ranks, Signal.TERM.number());
    signal(node, nspace, ranks, Signal.CONT.number());
    if (shrinkGraceMillis > 0) {
      try {
        Thread.sleep(shrinkGraceMillis); // a virtual thread: nothing is held meanwhile
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    // Ranks gone already are no longer the agent's: the KILL reaches only what is left. It is
    // recorded only for ranks whose TERM entry is still there (not yet reported ended), so no entry
    // is left behind for a rank that has ended.
    NodeAgent agent = nodes.get(node);
    if (agent != null) {
      for (int rank : ranks) {
        signalled.computeIfPresent(nspace + "." + rank, (k, v) -> Signal.KILL.number());
        agent.signalProc(nspace, rank, Signal.KILL.number());
      }
    }
  }

  // ---- what agents observe -------------------------------------------------------------------

  @Override
  public void output(String node, String nspace, int rank, ProcListener.Stream s, byte[] chunk) {
    gateway.output(nspace, rank, s, chunk);
  }

  @Override
  public boolean holdOutput(String node, String nspace, Runnable resume) {
    return gateway.holdOutput(nspace, resume);
  }

  @Override
  public void exited(String node, String nspace, int rank, int exitCode, int signal) {
    exited(node, nspace, rank, exitCode, signal, null);
  }

  @Override
  public void exited(String node, String nspace, int rank, int exitCode, int signal, Rusage usage) {
    signalled.remove(nspace + "." + rank);
    places.ended(node, nspace, rank);
    ProcUsage used =
        usage == null
            ? null
            : new ProcUsage(
                usage.userMicros(), usage.systemMicros(), usage.maxRssKiB(), usage.wallMicros());
    submit.accept(new Report.ProcExited(nspace, rank, signal > 0 ? 0 : exitCode, signal, used));
  }

  @Override
  public void exited(String node, String nspace, int rank, int exitStatus) {
    Integer sent = signalled.remove(nspace + "." + rank);
    places.ended(node, nspace, rank);
    boolean bySignal = sent != null && sent > 0 && exitStatus == Signal.shellExitStatus(sent);
    submit.accept(
        bySignal
            ? new Report.ProcExited(nspace, rank, 0, sent)
            : new Report.ProcExited(nspace, rank, exitStatus, 0));
  }

  /** Ends every process on every node (DVM teardown), bounded by the grace period. */
  public void endAllProcesses() {
    List<CompletableFuture<Void>> all = new ArrayList<>(shrinking.values());
    for (NodeAgent a : nodes.all()) {
      all.add(CompletableFuture.runAsync(() -> a.terminateAll(shrinkGraceMillis), workers));
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
  }

  /** The spec of a start-up node, for configuration. */
  public static NodeSpec node(String name, int slots) {
    return new NodeSpec(name, slots);
  }

  @Override
  public void close() {
    endAllProcesses();
    for (NodeAgent a : nodes.all()) {
      a.close();
    }
    workers.shutdown();
  }
}
