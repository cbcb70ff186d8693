package org.jdvm.core.engine;

import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.CommandFailed;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.JobKind;
import org.jdvm.core.Outcome;
import org.jdvm.core.Rejection;
import org.jdvm.core.Report;
import org.jdvm.core.Report.LaunchFailed;
import org.jdvm.core.Report.NodeLost;
import org.jdvm.core.Report.ProcExited;
import org.jdvm.core.Report.ProcsLaunched;
import org.jdvm.core.Report.SchedulerCancelled;
import org.jdvm.core.Report.SchedulerGranted;
import org.jdvm.core.Report.SchedulerQueued;
import org.jdvm.core.Report.SchedulerReclaimed;
import org.jdvm.core.Report.SchedulerRefused;
import org.jdvm.core.Report.SchedulerTimeoutWarning;
import org.jdvm.core.Report.Teardown;
import org.jdvm.core.Report.Tick;
import org.jdvm.core.Report.ToolDeparted;
import org.jdvm.core.Request;
import org.jdvm.core.Request.AbortJob;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.Request.RegisterScheduler;
import org.jdvm.core.Request.RegisterTool;
import org.jdvm.core.Request.SessionControl;
import org.jdvm.core.Request.SignalJob;
import org.jdvm.core.Request.Spawn;
import org.jdvm.core.Request.TerminateJob;
import org.jdvm.core.RequestId;
import org.jdvm.core.alloc.AllocationRequests;
import org.jdvm.core.alloc.Cancels;
import org.jdvm.core.alloc.Reacquires;
import org.jdvm.core.alloc.Releases;
import org.jdvm.core.alloc.SchedulerAnswers;
import org.jdvm.core.alloc.TimeoutWarnings;
import org.jdvm.core.job.JobControl;
import org.jdvm.core.job.Launches;
import org.jdvm.core.job.Registration;
import org.jdvm.core.job.RequesterRejection;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.lifecycle.Departures;
import org.jdvm.core.lifecycle.DvmTeardown;
import org.jdvm.core.lifecycle.Lifecycle;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.session.Deadlines;
import org.jdvm.core.session.SessionControls;
import org.jdvm.core.spawn.SpawnExplainer;
import org.jdvm.core.spawn.SpawnRule;
import org.jdvm.core.state.Check;
import org.jdvm.core.state.State;
import org.jdvm.core.state.StateDigest;
import org.jdvm.core.state.StateQueries;
import org.jdvm.core.state.StateSnapshot;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.record.Bytes;

/**
 * The reservation engine: the whole state of the DVM and every rule of the node-reservation spec,
 * as a pure, single-threaded, deterministic state machine. One entry point, {@link #handle}: the
 * command is decided (a refused request is a {@link Rejection} and changes nothing), its changes
 * are applied through the one mutator, and the effects for the shell come back in the {@link
 * Outcome} together with the next deadline. No I/O, threads, clocks, randomness or logging: time
 * comes in with each command. Not thread-safe by design; one controller thread owns it.
 */
public final class Core {
  private final State state;
  private final StateQueries queries;
  private long lastNowNs = Long.MIN_VALUE;

  public Core(CoreConfig config) {
    this(new State(config));
  }

  private Core(State state) {
    this.state = state;
    this.queries = new StateQueries(state, new SpawnExplainer(state));
  }

  /**
   * A core whose state is read from a {@link #snapshot()} (docs/journal.md). Replay the changes
   * journaled after it with {@link #replay}.
   *
   * @throws org.jdvm.pmix.record.Bytes.Corrupt if the bytes are not a snapshot of a state
   */
  public static Core restore(CoreConfig config, byte[] snapshot) {
    Bytes.In in = new Bytes.In(snapshot);
    Core core = new Core(StateSnapshot.read(config, in));
    core.lastNowNs = in.i64();
    in.expectEnd();
    return core;
  }

  /**
   * The whole state as bytes, with the last time the core saw, for {@link #restore}. Pure; costs
   * time and memory in proportion to the state, not to its history.
   */
  public byte[] snapshot() {
    Bytes.Out out = new Bytes.Out(1 << 16);
    StateSnapshot.write(state, out);
    out.i64(lastNowNs);
    return out.toByteArray();
  }

  /**
   * Replays journaled changes through the one mutator, as recovery does: the changes a {@link
   * #handle} at {@code nowNs} returned, in order. Nothing is decided and no effect is produced; a
   * change whose preconditions do not hold throws, and the state can no longer be trusted.
   */
  public void replay(List<Change> changes, long nowNs) {
    Check.state(nowNs >= lastNowNs, "time went backwards", nowNs + " < " + lastNowNs);
    lastNowNs = nowNs;
    for (Change c : changes) {
      state.apply(c);
    }
  }

  /**
   * The ask to the scheduler of every request still waiting for it, as it was first made: after a
   * restart the shell asks again, and the scheduler answers an ask it already answered with the
   * same answer (docs/journal.md "Recovery").
   */
  public List<Effect.AskScheduler> pendingAsks() {
    List<Effect.AskScheduler> out = new java.util.ArrayList<>();
    for (org.jdvm.core.state.Ask a : state.asks().all()) {
      AskTerms t = a.terms();
      var alloc = a.kind() == AskKind.NEW ? null : state.allocations().byAllocId(t.allocId());
      String schedulerAllocId = alloc == null ? null : alloc.schedulerAllocId();
      out.add(
          new Effect.AskScheduler(
              a.askId(),
              org.jdvm.core.alloc.Asking.askedAs(a.kind(), schedulerAllocId),
              t.allocId(),
              schedulerAllocId,
              t.nodeCount(),
              t.nodeNames(),
              t.timeLimitSeconds(),
              t.warnTimeoutSeconds(),
              t.required(),
              t.lendSeconds()));
    }
    return out;
  }

  /** The DVM time of the last command handled or replayed ({@code Long.MIN_VALUE} if none). */
  public long lastNowNs() {
    return lastNowNs;
  }

  /**
   * Handles one command at the shell's time {@code nowNs} (monotonic, never decreasing).
   *
   * @throws CommandFailed if the core failed on the command before changing anything (its cause an
   *     {@code IllegalArgumentException} for input that breaks the contract, anything else a bug in
   *     deciding): the state is intact, refuse the command and go on
   * @throws RuntimeException anything else, thrown after changes were applied (a broken invariant,
   *     an {@code IllegalStateException}): the state can no longer be trusted, stop the DVM
   */
  public Outcome handle(Command command, long nowNs) {
    Txn txn = new Txn(state, nowNs);
    try {
      Check.state(nowNs >= lastNowNs, "time went backwards", nowNs + " < " + lastNowNs);
      lastNowNs = nowNs;
      switch (command) {
        case Request r -> request(r, txn);
        case Report r -> report(r, txn);
      }
      if (!txn.rejected()) {
        Lifecycle.settle(txn);
      }
      Outcome outcome =
          txn.outcome(Math.min(Deadlines.next(state), org.jdvm.core.job.JobTimeouts.next(state)));
      if (command instanceof Request r) {
        checkAnsweredOrPending(r.requestId(), outcome);
      }
      return outcome;
    } catch (RuntimeException e) {
      if (txn.changedState()) {
        throw e;
      }
      throw new CommandFailed(command, e);
    }
  }

  /**
   * On the way out: a request is answered at most once in its outcome, and if not answered now it
   * waits in the state (for the scheduler, or for its job's launch), to be answered later.
   */
  private static void checkAnsweredOrPending(RequestId id, Outcome o) {
    int replies = 0;
    for (Effect e : o.effects()) {
      if (e instanceof Effect.Reply r && r.requestId().equals(id)) {
        replies++;
      }
    }
    boolean pending = false;
    for (Change c : o.changes()) {
      pending |=
          c instanceof Change.AskOpened a && id.equals(a.replyTo())
              || c instanceof Change.JobSpawned j && id.equals(j.replyTo());
    }
    Check.state(
        replies == 1 || replies == 0 && pending, "request answered " + replies + " times", id);
  }

  /** Read-only views for the shell's queries: live, not copies. */
  public CoreView view() {
    return queries;
  }

  /** A canonical rendering of the whole state; equal digests mean equal states. */
  public String digest() {
    return StateDigest.of(state);
  }

  public CoreConfig config() {
    return state.config();
  }

  /**
   * The state itself, for the core's own tests (the simulation's invariant checks, the replay
   * test). Package-private: outside the core, state changes only through {@link #handle}.
   */
  State state() {
    return state;
  }

  private void request(Request request, Txn txn) {
    switch (request) {
      case RegisterTool r -> Registration.register(r.requestId(), r.namespace(), JobKind.TOOL, txn);
      case RegisterScheduler r ->
          Registration.register(r.requestId(), r.namespace(), JobKind.SCHEDULER, txn);
      case Allocate r -> identified(r, r.requester(), txn);
      case Spawn r -> identified(r, r.requester(), txn);
      case SignalJob r -> identified(r, r.requester(), txn);
      case TerminateJob r -> identified(r, r.requester(), txn);
      case AbortJob r -> identified(r, r.requester(), txn);
      case SessionControl r -> identified(r, r.requester(), txn);
    }
  }

  /** Checks who is asking, then runs the request's rule. */
  private void identified(Request request, Proc requester, Txn txn) {
    RequesterRejection why = Requesters.check(state, requester);
    if (why != null) {
      txn.reject(request.requestId(), why);
      return;
    }
    switch (request) {
      case Allocate r -> allocate(r, txn);
      case Spawn r -> SpawnRule.spawn(r, txn);
      case SignalJob r -> JobControl.signal(r, txn);
      case TerminateJob r -> JobControl.terminate(r, txn);
      case AbortJob r -> JobControl.abort(r, txn);
      case SessionControl r -> SessionControls.control(r, txn);
      case RegisterTool r -> throw new IllegalStateException("unreachable");
      case RegisterScheduler r -> throw new IllegalStateException("unreachable");
    }
  }

  private static void allocate(Allocate r, Txn txn) {
    switch (r.directive()) {
      case NEW, EXTEND -> AllocationRequests.allocate(r, txn);
      case RELEASE -> Releases.release(r, txn);
      case REAQUIRE -> Reacquires.reacquire(r, txn);
      case REQ_CANCEL -> Cancels.cancel(r, txn);
    }
  }

  private void report(Report report, Txn txn) {
    if (state.tornDown()) {
      return;
    }
    switch (report) {
      case ProcsLaunched r -> Launches.launched(r, txn);
      case LaunchFailed r -> Launches.failed(r, txn);
      case ProcExited r -> Launches.exited(r, txn);
      case NodeLost r -> Departures.nodeLost(r, txn);
      case SchedulerGranted r -> SchedulerAnswers.granted(r, txn);
      case SchedulerRefused r -> SchedulerAnswers.refused(r, txn);
      case SchedulerQueued r -> SchedulerAnswers.queued(r, txn);
      case SchedulerCancelled r -> SchedulerAnswers.cancelled(r, txn);
      case SchedulerTimeoutWarning r -> TimeoutWarnings.relay(r, txn);
      case SchedulerReclaimed r -> Departures.reclaimed(r, txn);
      case ToolDeparted r -> Departures.toolDeparted(r, txn);
      case Tick r -> {
        Deadlines.tick(txn);
        org.jdvm.core.job.JobTimeouts.tick(txn);
      }
      case Teardown r -> DvmTeardown.teardown(txn);
    }
  }
}
