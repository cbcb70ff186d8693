package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * {@code --scheduler slurm}'s decisions as a state machine with time as an argument, as {@link
 * org.jdvm.scheduler.EmbeddedScheduler} is the embedded scheduler's: what the DVM holds in Slurm
 * (allocations as jobs, asks as {@code salloc}s or jobs waiting in Slurm's queue) and what to do
 * about each input. Every input — an ask, a cancel, a release, an end, a line or the exit of a
 * salloc, a timer tick, what {@code squeue} said at a poll or at recovery — returns the {@link
 * SlurmEffect}s it produced, in order: commands to run, salloc to start or end, events for the DVM,
 * log lines. {@link SlurmSchedulerPort} carries them out on its thread. Nothing here runs a
 * command, reads a clock, sleeps or logs.
 *
 * <p>Decisions (architecture.md §5): a NEW ask is one {@code salloc --no-shell} job; an EXTEND with
 * nodes is another job in the same allocation with the allocation's remaining time (an EXTEND with
 * time first adds it to every job); the allocation's id is its first job's id. Release shrinks a
 * job or cancels it when it keeps no node; end cancels every job. Slurm's EndTime is the deadline:
 * a warning at the ask's lead before it, and at it the jobs are cancelled and the allocation
 * reported reclaimed. A poll reclaims jobs ended from outside (the whole allocation if it was the
 * first job) and nodes gone from a job, and moves a moved EndTime. LEND and REAQUIRE are refused.
 * At recovery {@link SlurmRecovery#decide} decides about each job and this carries the decisions
 * out.
 *
 * <p>Its parts share its state inside a step: {@link SlurmAsks} (asks and their salloc), {@link
 * SlurmPoll} (polls) and {@link SlurmRecovering} (one recovery). After a restart no deadline falls
 * due until Slurm was heard (recovery's {@code squeue}, a poll or a grant), so nothing is reclaimed
 * on a guess.
 */
final class SlurmScheduler {
  private static final long NS_PER_SECOND = 1_000_000_000L;

  /** The time of a step, in the DVM's monotonic clock and the wall clock, read together. */
  record Time(long nowNs, long wallMs) {}

  final String partition;
  final Map<String, SallocAsk> pending = new LinkedHashMap<>();
  final Map<String, HeldAllocation> allocations = new LinkedHashMap<>();

  /** Read from other threads (agents started in a node's job). */
  final Map<String, String> jobOfNode = new ConcurrentHashMap<>();

  /** Asks a previous controller left waiting in Slurm's queue, by ask id (no salloc watches). */
  final Map<String, SlurmRecovery.Waiting> adopted = new LinkedHashMap<>();

  /** Answers a previous controller gave that its core may not have heard, by ask id. */
  private final Map<String, SchedulerEvent> answers = new LinkedHashMap<>();

  /** Asks recovery answered with the job Slurm granted meanwhile: asked again, they get nothing. */
  private final Set<String> answeredAtRecovery = new HashSet<>();

  private String tag;
  private List<SlurmRecovery.Waiting> restoredWaiting = List.of();
  private boolean awaitingRecovery;

  /**
   * Restored deadlines wait for Slurm: none falls due until recovery or a poll heard Slurm, or a
   * grant came (nothing is reclaimed on a guess while Slurm does not answer).
   */
  boolean deadlinesHeld;

  boolean pollFailing;
  private List<SlurmEffect> out = new ArrayList<>();
  final SlurmAsks asks = new SlurmAsks(this);
  final SlurmPoll poll = new SlurmPoll(this);

  /**
   * @param partition the partition to allocate from, or {@code null} for Slurm's default
   * @param tag the DVM's tag, which names its jobs {@code jdvm-TAG}
   */
  SlurmScheduler(String partition, String tag) {
    this.partition = partition;
    this.tag = tag;
    SlurmCli.jobName(tag);
  }

  /** The name of this DVM's Slurm jobs, {@code jdvm-TAG}. */
  String jobName() {
    return SlurmCli.jobName(tag);
  }

  /** The Slurm job holding {@code node} for this DVM, if any. Any thread. */
  Optional<String> jobOf(String node) {
    return Optional.ofNullable(jobOfNode.get(node));
  }

  // ---- state and journal -----------------------------------------------------------------------

  /**
   * After a controller restart: the state its predecessor journaled and the answers it gave that
   * the core had not closed. Nothing is due, and nothing polled, until {@link #recover}.
   */
  void restore(SlurmRecovery.Saved saved, List<SchedulerEvent> given) {
    tag = saved.tag();
    SlurmCli.jobName(tag);
    for (SlurmRecovery.Held h : saved.allocations()) {
      HeldAllocation a = new HeldAllocation(h.id());
      for (SlurmRecovery.Job j : h.jobs()) {
        a.jobs.put(SlurmNames.jobId(j.id()), new LinkedHashSet<>(j.nodes()));
        j.nodes().forEach(n -> jobOfNode.put(n, j.id()));
      }
      a.deadlineNs = h.deadlineNs();
      a.warnSeconds = h.warnSeconds();
      a.warned = h.warned();
      if (!a.jobs.isEmpty()) {
        allocations.put(a.id, a);
      }
    }
    restoredWaiting = saved.waiting();
    awaitingRecovery = true;
    deadlinesHeld = true;
    for (SchedulerEvent e : given) {
      answers.put(SchedulerEvent.askIdOf(e), e);
    }
  }

  /** The state as the journal keeps it. */
  SlurmRecovery.Saved save() {
    List<SlurmRecovery.Held> held = new ArrayList<>();
    for (HeldAllocation a : allocations.values()) {
      List<SlurmRecovery.Job> jobs = new ArrayList<>();
      a.jobs.forEach((id, nodes) -> jobs.add(new SlurmRecovery.Job(id, List.copyOf(nodes))));
      held.add(new SlurmRecovery.Held(a.id, jobs, a.deadlineNs, a.warnSeconds, a.warned));
    }
    List<SlurmRecovery.Waiting> waiting = new ArrayList<>(restoredWaiting);
    for (SallocAsk p : pending.values()) {
      if (!p.answered && !p.cancelled) {
        waiting.add(new SlurmRecovery.Waiting(p.ask, p.jobId));
      }
    }
    waiting.addAll(adopted.values());
    return new SlurmRecovery.Saved(tag, held, waiting);
  }

  /**
   * When the next deadline or warning falls due, or {@link Long#MAX_VALUE}: the port's timer calls
   * {@link #tick} then. None after a restart until Slurm was heard.
   */
  long nextDeadlineNs() {
    long next = Long.MAX_VALUE;
    if (deadlinesHeld) {
      return next;
    }
    for (HeldAllocation a : allocations.values()) {
      if (a.deadlineNs != null) {
        next = Math.min(next, a.deadlineNs);
      }
      if (a.warnAtNs() != null && !a.warned) {
        next = Math.min(next, a.warnAtNs());
      }
    }
    return next;
  }

  // ---- inputs ----------------------------------------------------------------------------------

  /**
   * An ask: answered again if it was answered before a restart; nothing if it still waits in
   * Slurm's queue; else refused (LEND, REAQUIRE) or a salloc.
   */
  List<SlurmEffect> ask(Ask ask, Time now) {
    return step(
        () -> {
          SchedulerEvent again = answers.remove(ask.askId());
          if (again != null) {
            emit(again); // answered before the restart; the core had not heard
            return;
          }
          if (adopted.containsKey(ask.askId())
              || pending.containsKey(ask.askId())
              || answeredAtRecovery.remove(ask.askId())) {
            return; // its job still waits in Slurm's queue, or it was answered by the recovery
          }
          switch (ask.kind()) {
            case LEND ->
                refuse(
                    ask,
                    PmixStatus.ERR_NOT_SUPPORTED,
                    "Slurm takes no loans: a Slurm job cannot lend nodes and claim them back later;"
                        + " release them instead");
            case REAQUIRE ->
                refuse(
                    ask, PmixStatus.ERR_NOT_SUPPORTED, "Slurm took no loans: nothing to reacquire");
            case NEW, EXTEND -> asks.allocate(ask, now);
          }
        });
  }

  /** Withdraws a waiting ask: its job cancelled, its salloc ended, Cancelled. */
  List<SlurmEffect> cancel(String askId) {
    return step(
        () -> {
          SlurmRecovery.Waiting w = adopted.remove(askId);
          if (w != null) {
            scancel(List.of(w.jobId()));
            emit(new SchedulerEvent.Cancelled(askId));
            return;
          }
          SallocAsk p = pending.get(askId);
          if (p == null || p.answered || p.cancelled) {
            return;
          }
          p.cancelled = true;
          if (p.jobId != null) {
            scancel(List.of(p.jobId));
          }
          endSalloc(p);
          emit(new SchedulerEvent.Cancelled(askId));
        });
  }

  /** Gives nodes back: each job shrunk to what it keeps, or cancelled if it keeps none. */
  List<SlurmEffect> release(String allocation, List<String> nodes) {
    return step(
        () -> {
          HeldAllocation a = allocations.get(allocation);
          if (a == null) {
            return;
          }
          for (var it = a.jobs.entrySet().iterator(); it.hasNext(); ) {
            var job = it.next();
            List<String> keep = job.getValue().stream().filter(n -> !nodes.contains(n)).toList();
            if (keep.size() == job.getValue().size()) {
              continue;
            }
            job.getValue().stream().filter(nodes::contains).forEach(jobOfNode::remove);
            if (keep.isEmpty()) {
              it.remove();
              scancel(List.of(job.getKey()));
            } else {
              job.getValue().retainAll(keep);
              out.add(
                  new SlurmEffect.Run(
                      SlurmCli.shrink(job.getKey(), keep), "did not shrink job " + job.getKey()));
            }
          }
          if (a.jobs.isEmpty()) {
            allocations.remove(allocation);
          }
        });
  }

  /** Ends an allocation: every job of it cancelled. */
  List<SlurmEffect> end(String allocation) {
    return step(
        () -> {
          HeldAllocation a = allocations.remove(allocation);
          if (a != null) {
            forgetNodes(a);
            scancel(List.copyOf(a.jobs.keySet()));
          }
        });
  }

  /** What {@link SlurmEffect.Query} asked Slurm said: the step it stopped goes on. */
  List<SlurmEffect> answer(SlurmEffect.Query query, SlurmCommands.Result said, Time now) {
    return step(() -> query.then().after(said, now));
  }

  /** The deadlines and warnings due at {@code now}. */
  List<SlurmEffect> tick(Time now) {
    return step(
        () -> {
          for (HeldAllocation a : List.copyOf(allocations.values())) {
            if (a.deadlineNs != null && a.deadlineNs <= now.nowNs()) {
              reclaimWhole(a);
            } else if (a.warnAtNs() != null && !a.warned && a.warnAtNs() <= now.nowNs()) {
              a.warned = true;
              emit(
                  new SchedulerEvent.Warning(
                      a.id, Math.ceilDiv(a.deadlineNs - now.nowNs(), NS_PER_SECOND)));
            }
          }
        });
  }

  /** Gives every job and queued request back to Slurm: the port closes. */
  List<SlurmEffect> close() {
    return step(
        () -> {
          for (SallocAsk p : pending.values()) {
            endSalloc(p);
            if (p.jobId != null) {
              scancel(List.of(p.jobId));
            }
          }
          pending.clear();
          List<String> jobs = new ArrayList<>();
          adopted.values().forEach(w -> jobs.add(w.jobId()));
          adopted.clear();
          restoredWaiting.stream().filter(w -> w.jobId() != null).forEach(w -> jobs.add(w.jobId()));
          allocations.values().forEach(a -> jobs.addAll(a.jobs.keySet()));
          allocations.clear();
          jobOfNode.clear();
          if (!jobs.isEmpty()) {
            scancel(jobs);
          }
        });
  }

  // ---- salloc ----------------------------------------------------------------------------------

  /** The salloc could not be started: the ask is refused. */
  List<SlurmEffect> sallocNotStarted(SallocAsk p, String why) {
    return step(() -> asks.notStarted(p, why));
  }

  /** A line salloc printed: pending (Queued), granted (the job read, then Granted), or an error. */
  List<SlurmEffect> sallocLine(SallocAsk p, String line) {
    return step(() -> asks.line(p, line));
  }

  /** salloc exited: an ask it had not answered is refused, its job (if any) cancelled. */
  List<SlurmEffect> sallocExit(SallocAsk p, int exit) {
    return step(() -> asks.exit(p, exit));
  }

  // ---- polling ---------------------------------------------------------------------------------

  /** The jobs a poll asks {@code squeue} about now, or {@code null} if there is nothing to poll. */
  List<String> pollJobs() {
    if (awaitingRecovery || (allocations.isEmpty() && adopted.isEmpty())) {
      return null;
    }
    List<String> ids = new ArrayList<>();
    allocations.values().forEach(a -> ids.addAll(a.jobs.keySet()));
    adopted.values().forEach(w -> ids.add(w.jobId()));
    return ids;
  }

  /**
   * What {@code squeue} said of {@link #pollJobs}: jobs ended or shrunk from outside reclaimed,
   * EndTimes moved; a job a previous controller left waiting is granted, or asked for again.
   */
  List<SlurmEffect> polled(SlurmCommands.Result r, Time now) {
    return step(() -> poll.polled(r, now));
  }

  void reclaimWhole(HeldAllocation a) {
    allocations.remove(a.id);
    forgetNodes(a);
    scancel(List.copyOf(a.jobs.keySet()));
    emit(new SchedulerEvent.Reclaimed(a.id, a.allNodes(), true));
  }

  // ---- recovery --------------------------------------------------------------------------------

  /**
   * After {@link #restore}: what {@code squeue --name=jdvm-TAG} said now, and what the recovered
   * core holds and waits for. Carries out {@link SlurmRecovery#decide}, reconciles the allocations
   * as a poll does, and sends again the warnings the core never relayed.
   *
   * @param stillWaiting ask ids the recovered core still waits on
   * @param coreHolds the recovered core's allocations from this scheduler, with their nodes
   * @param relayed allocations whose warning the core relayed before the crash
   */
  SlurmRecovering.Result recover(
      SlurmCommands.Result squeue,
      Set<String> stillWaiting,
      Map<String, List<String>> coreHolds,
      Set<String> relayed,
      Time now) {
    awaitingRecovery = false;
    SlurmRecovering recovering = new SlurmRecovering(this);
    List<SlurmEffect> effects =
        step(() -> recovering.recover(squeue, stillWaiting, coreHolds, relayed, now));
    return new SlurmRecovering.Result(effects, recovering.done());
  }

  // ---- for SlurmRecovering ---------------------------------------------------------------------

  Map<String, HeldAllocation> allocations() {
    return allocations;
  }

  Map<String, SlurmRecovery.Waiting> adopted() {
    return adopted;
  }

  Map<String, SchedulerEvent> answers() {
    return answers;
  }

  /** The asks the journal had waiting, handed over once (they are journaled until then). */
  List<SlurmRecovery.Waiting> takeRestoredWaiting() {
    List<SlurmRecovery.Waiting> w = restoredWaiting;
    restoredWaiting = List.of();
    return w;
  }

  String tag() {
    return tag;
  }

  void grantAtRecovery(Ask ask, String jobId) {
    asks.grant(ask, jobId);
    answeredAtRecovery.add(ask.askId());
  }

  /** Recovery heard Slurm: the allocations reconciled as a poll does, deadlines due again. */
  void reconcileAll(Map<String, SlurmCli.JobRow> rows, Time now) {
    deadlinesHeld = false;
    for (HeldAllocation a : List.copyOf(allocations.values())) {
      poll.reconcile(a, rows, now);
    }
  }

  // ---- plumbing --------------------------------------------------------------------------------

  /** Runs one input, collecting what it does; a bug in it is thrown with what it did so far. */
  List<SlurmEffect> step(Runnable input) {
    List<SlurmEffect> outer = out;
    out = new ArrayList<>();
    try {
      input.run();
      return out;
    } catch (RuntimeException e) {
      throw new StepFailed(e, out);
    } finally {
      out = outer;
    }
  }

  /** A bug in a step: {@link #done} is what the step did before it, for the port to carry out. */
  static final class StepFailed extends RuntimeException {
    final transient List<SlurmEffect> done;

    StepFailed(RuntimeException cause, List<SlurmEffect> done) {
      super(cause);
      this.done = done;
    }
  }

  void query(List<String> argv, SlurmEffect.Then then) {
    out.add(new SlurmEffect.Query(argv, then));
  }

  void scancel(List<String> jobIds) {
    out.add(new SlurmEffect.Run(SlurmCli.scancel(jobIds), "did not cancel " + jobIds));
  }

  void startSalloc(SallocAsk p, List<String> argv) {
    out.add(new SlurmEffect.StartSalloc(p, argv));
  }

  void endSalloc(SallocAsk p) {
    out.add(new SlurmEffect.EndSalloc(p));
  }

  void emit(SchedulerEvent e) {
    out.add(new SlurmEffect.Emit(e));
  }

  void log(System.Logger.Level level, String message) {
    out.add(new SlurmEffect.Log(level, message));
  }

  void refuse(Ask ask, int status, String reason) {
    emit(new SchedulerEvent.Refused(ask.askId(), status, reason));
  }

  void forgetNodes(HeldAllocation a) {
    a.allNodes().forEach(jobOfNode::remove);
  }

  /** Slurm's EndTime (epoch seconds) in the DVM's clock, or {@code null} for none. */
  static Long toDeadlineNs(Long endEpochSeconds, Time now) {
    if (endEpochSeconds == null) {
      return null;
    }
    long leftMs = endEpochSeconds * 1000 - now.wallMs();
    return now.nowNs() + leftMs * 1_000_000L;
  }
}
