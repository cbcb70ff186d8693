package org.jdvm.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jdvm.core.AskKind;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.Limits;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.SessionOp;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * A seeded random walk through everything the DVM can be asked or told: tools coming and going,
 * allocation requests with every directive and random attributes, spawns with random targets, job
 * and session control, scheduler grants, refusals, queueing, cancellations, reclaims and warnings,
 * agents launching, failing and reaping processes, nodes lost, time passing. The same seed always
 * produces the same run.
 */
final class Simulation {
  static final int STARTUP_NODES = 100;
  static final int SCHEDULER_NODES = 200;

  /**
   * Limits low enough that every one of them is met now and then (run with {@code
   * -Djdvm.sim.stats=true} to see how often), so refusals and grants handed back for a limit are
   * checked against the invariants like everything else.
   */
  static final Limits LIMITS =
      Limits.DEFAULT
          .withProcsPerSpawn(5)
          .withLiveProcs(20)
          .withAppsPerSpawn(2)
          .withNodesInDvm(110)
          .withNodesPerRequest(2)
          .withLiveAllocations(6)
          .withPendingAsksPerRequester(1);

  final long seed;
  final Random rnd;
  final SimShell shell;
  private long nextRequest = 1;
  private long nextSession = 1000;
  private long nextPid = 10_000;
  private String schedulerNs = "sched0";
  private int schedulers;
  final List<Command> history = new ArrayList<>();

  /** Runs after every random step when set (a test's own check between steps). */
  Runnable afterStep;

  Simulation(long seed) {
    this.seed = seed;
    this.rnd = new Random(seed);
    List<NodeSpec> startup = new ArrayList<>();
    for (int i = 0; i < STARTUP_NODES; i++) {
      startup.add(new NodeSpec("n" + i, 1 + rnd.nextInt(8)));
    }
    List<NodeSpec> spare = new ArrayList<>();
    for (int i = 0; i < SCHEDULER_NODES; i++) {
      spare.add(new NodeSpec("x" + i, 1 + rnd.nextInt(8)));
    }
    CoreConfig config = CoreConfig.of("sim", startup).retaining(50).limitedBy(LIMITS);
    this.shell = new SimShell(new Core(config), spare);
  }

  /**
   * The same run with a journal, crashing the controller before about {@code crashPercent} in a
   * hundred journaled commands. Crash decisions come from their own generator, so the commands are
   * exactly those of the run without crashes.
   */
  Simulation(long seed, int crashPercent) {
    this(seed);
    shell.durable = new SimJournal(shell.core);
    shell.crashRnd = new Random(seed * 31 + 7);
    shell.crashPercent = crashPercent;
  }

  /** Runs {@code steps} random steps, then drains and tears down. */
  void run(int steps) {
    runSteps(steps);
    finish();
  }

  /** The random steps, without the drain. */
  void runSteps(int steps) {
    send(new Request.RegisterScheduler(rid(), schedulerNs));
    for (int i = 0; i < 4; i++) {
      send(new Request.RegisterTool(rid(), null));
    }
    for (int i = 0; i < steps; i++) {
      step();
      if (afterStep != null) {
        afterStep.run();
      }
    }
  }

  /** The drain and the teardown. */
  void finish() {
    drain();
  }

  void send(Command c) {
    history.add(c);
    shell.run(c);
  }

  private void step() {
    int roll = rnd.nextInt(100);
    if (roll < 3) {
      send(new Request.RegisterTool(rid(), rnd.nextInt(4) == 0 ? "t" + rnd.nextInt(20) : null));
    } else if (roll < 5) {
      depart();
    } else if (roll < 20) {
      Requests.allocate(this);
    } else if (roll < 32) {
      Requests.spawn(this);
    } else if (roll < 34) {
      Requests.jobControl(this);
    } else if (roll < 38) {
      Requests.session(this);
    } else if (roll < 50) {
      answerAsk(false);
    } else if (roll < 65) {
      launch();
    } else if (roll < 78) {
      exitOne();
    } else if (roll < 88) {
      reapKill();
    } else if (roll < 90) {
      loseNode();
    } else if (roll < 93) {
      warnOrReclaim();
    } else {
      shell.nowNs += rnd.nextInt(120) * 1_000_000_000L;
      send(new Report.Tick());
    }
  }

  /** Ends the run: every ask answered, every launch and kill reported, every job ended. */
  private void drain() {
    for (int round = 0; round < 10_000; round++) {
      if (!shell.asks.isEmpty()) {
        answerAsk(true);
      } else if (!shell.launches.isEmpty()) {
        launch();
      } else if (!shell.kills.isEmpty()) {
        reapKill();
      } else if (!exitOne()) {
        break;
      }
    }
    send(new Report.Teardown());
    shell.checkEveryRequestAnswered();
  }

  RequestId rid() {
    return new RequestId(nextRequest++);
  }

  long nextSessionId() {
    return nextSession++;
  }

  <T> T pick(List<T> list) {
    return list.isEmpty() ? null : list.get(rnd.nextInt(list.size()));
  }

  /**
   * A requester: often an owner of some allocation (so requests get past the ownership checks and
   * reach the deeper rules), otherwise any live namespace, sometimes a dead or unknown one.
   */
  Proc requester() {
    List<String> live = new ArrayList<>();
    List<String> dead = new ArrayList<>();
    for (JobView j : shell.core.view().jobs()) {
      (j.state() == JobView.State.TERMINATED ? dead : live).add(j.namespace());
    }
    int r = rnd.nextInt(20);
    String ns;
    if (r == 0) {
      ns = "ghost";
    } else if (r == 1 && !dead.isEmpty()) {
      ns = pick(dead);
    } else if (r < 11) {
      AllocationView a = pick(new ArrayList<>(shell.core.view().allocations()));
      ns = a == null || a.owners().isEmpty() ? pick(live) : pick(new ArrayList<>(a.owners()));
    } else {
      ns = pick(live);
    }
    return new Proc(ns == null ? "ghost" : ns, 0);
  }

  /** The scheduler's namespace (it may have departed and registered again). */
  Proc scheduler() {
    return new Proc(schedulerNs, 0);
  }

  List<String> allocationIds() {
    List<String> ids = new ArrayList<>(shell.core.view().allocationIds());
    ids.add("nope");
    return ids;
  }

  List<App> apps() {
    List<App> apps = new ArrayList<>();
    for (int i = 0, n = rnd.nextInt(10) == 0 ? 3 : 1 + rnd.nextInt(2); i < n; i++) {
      apps.add(new App("a" + i, List.of("a" + i), List.of(), null, 1 + rnd.nextInt(3), List.of()));
    }
    return apps;
  }

  MapBy mapBy() {
    return rnd.nextBoolean() ? MapBy.SLOT : MapBy.NODE;
  }

  private void depart() {
    List<String> tools = new ArrayList<>();
    for (JobView j : shell.core.view().jobs()) {
      if (j.state() != JobView.State.TERMINATED && j.kind() != org.jdvm.core.JobKind.APPLICATION) {
        tools.add(j.namespace());
      }
    }
    String ns = pick(tools);
    if (ns != null) {
      send(new Report.ToolDeparted(ns, rnd.nextBoolean()));
      if (ns.equals(schedulerNs)) {
        schedulerNs = "sched" + ++schedulers;
        send(new Request.RegisterScheduler(rid(), schedulerNs));
      }
    }
  }

  private void answerAsk(boolean draining) {
    Effect.AskScheduler ask = pick(shell.asks);
    if (ask == null) {
      return;
    }
    Command answer = draining ? refusal(ask) : SchedulerModel.answer(this, ask);
    if (!(answer instanceof Report.SchedulerQueued)) {
      shell.asks.remove(ask);
    }
    send(answer);
  }

  private Command refusal(Effect.AskScheduler ask) {
    return ask.kind() == AskKind.LEND || rnd.nextBoolean()
        ? new Report.SchedulerRefused(ask.askId(), PmixStatus.ERR_OUT_OF_RESOURCE)
        : new Report.SchedulerCancelled(ask.askId());
  }

  private void launch() {
    Effect.LaunchProcs l = pick(shell.launches);
    if (l == null) {
      return;
    }
    shell.launches.remove(l);
    if (rnd.nextInt(12) == 0) {
      List<Integer> ranks = new ArrayList<>();
      l.procs().forEach(p -> ranks.add(p.rank()));
      send(
          new Report.LaunchFailed(
              l.node(), l.namespace(), ranks, PmixStatus.ERR_JOB_FAILED_TO_LAUNCH));
      return;
    }
    List<Report.LaunchedProc> procs = new ArrayList<>();
    l.procs().forEach(p -> procs.add(new Report.LaunchedProc(p.rank(), nextPid++)));
    send(new Report.ProcsLaunched(l.node(), l.namespace(), procs));
  }

  /** One running process exits; false if none runs. */
  private boolean exitOne() {
    List<ProcView> running = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    for (JobView j : shell.core.view().jobs()) {
      for (ProcView p : j.procs()) {
        if (p.state() == ProcView.State.RUNNING) {
          running.add(p);
          owners.add(j.namespace());
        }
      }
    }
    if (running.isEmpty()) {
      return false;
    }
    int i = rnd.nextInt(running.size());
    int code = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(3) : 0;
    int rank = running.get(i).rank();
    // What it used, made from what is at hand (no draw of its own: seeds replay as before).
    ProcUsage used = new ProcUsage(1000L * code + rank, rank, 1024 + rank, 5000L + i);
    send(new Report.ProcExited(owners.get(i), rank, code, 0, used));
    return true;
  }

  private void reapKill() {
    Effect.KillProcs k = pick(shell.kills);
    if (k == null) {
      return;
    }
    shell.kills.remove(k);
    for (int rank : k.ranks()) {
      send(new Report.ProcExited(k.namespace(), rank, 0, 9));
    }
  }

  private void loseNode() {
    String node = pick(shell.liveNodes(false));
    if (node != null && rnd.nextInt(3) == 0) {
      shell.lost.add(node);
      send(new Report.NodeLost(node));
    }
  }

  private void warnOrReclaim() {
    List<AllocationView> allocs = new ArrayList<>(shell.core.view().allocations());
    AllocationView a = pick(allocs);
    String id = a == null || rnd.nextInt(5) == 0 ? "nope" : a.allocId();
    if (rnd.nextBoolean()) {
      send(new Report.SchedulerTimeoutWarning(id, (long) rnd.nextInt(100)));
    } else {
      send(new Report.SchedulerReclaimed(id, Report.ReclaimReason.EXPIRED));
    }
  }

  /** Session control requests from the scheduler (or, sometimes, from someone else). */
  static SessionOp[] randomOps(Random rnd) {
    SessionOp[] ops = {
      SessionOp.TERMINATE,
      SessionOp.PAUSE,
      SessionOp.RESUME,
      SessionOp.PREEMPT,
      SessionOp.RESTORE,
      SessionOp.SIGNAL,
      SessionOp.EXTEND
    };
    return new SessionOp[] {ops[rnd.nextInt(ops.length)]};
  }

  static AllocDirective directive(Random rnd) {
    int r = rnd.nextInt(20);
    return r < 8
        ? AllocDirective.NEW
        : r < 12
            ? AllocDirective.EXTEND
            : r < 17
                ? AllocDirective.RELEASE
                : r < 18 ? AllocDirective.REAQUIRE : AllocDirective.REQ_CANCEL;
  }
}
