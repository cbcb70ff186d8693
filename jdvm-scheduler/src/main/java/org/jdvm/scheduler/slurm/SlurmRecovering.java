package org.jdvm.scheduler.slurm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * One recovery of {@link SlurmScheduler} after a controller restart (docs/journal.md "Slurm"): the
 * decisions {@link SlurmRecovery#decide} makes from what {@code squeue --name=jdvm-TAG} says,
 * carried out on the scheduler's state inside its step, then the allocations reconciled as a poll
 * reconciles them and the warnings the core never relayed sent again. Pure, as the scheduler is.
 */
final class SlurmRecovering {
  private static final long NS_PER_SECOND = 1_000_000_000L;

  /** A recovery's effects, and what it did. */
  record Result(List<SlurmEffect> effects, SlurmSchedulerPort.Recovered counts) {}

  private final SlurmScheduler s;
  private int adoptedJobs;
  private int reclaimed;
  private int cancelled;
  private SlurmSchedulerPort.Recovered done;

  SlurmRecovering(SlurmScheduler s) {
    this.s = s;
  }

  /** What the recovery did, once {@link #recover} returned. */
  SlurmSchedulerPort.Recovered done() {
    return done;
  }

  void recover(
      SlurmCommands.Result r,
      Set<String> stillWaiting,
      Map<String, List<String>> coreHolds,
      Set<String> relayed,
      SlurmScheduler.Time now) {
    if (r.exit() != 0) {
      // Slurm does not answer: keep everything; the poll reconciles once it does.
      s.log(
          System.Logger.Level.WARNING,
          SlurmCli.failure("squeue failed at recovery", r.lastLine()).reason()
              + "; the journaled Slurm jobs are kept until Slurm answers");
      for (SlurmRecovery.Waiting w : s.takeRestoredWaiting()) {
        if (w.jobId() != null && stillWaiting.contains(w.ask().askId())) {
          s.adopted().put(w.ask().askId(), w);
        }
      }
      done =
          new SlurmSchedulerPort.Recovered(
              s.allocations().size(), 0, s.adopted().size(), 0, resendWarnings(relayed, now));
      return;
    }
    Map<String, SlurmCli.JobRow> rows = SlurmCli.parseSqueue(r.out());
    SlurmRecovery.Saved saved =
        new SlurmRecovery.Saved(s.tag(), s.save().allocations(), s.takeRestoredWaiting());
    Map<String, SlurmRecovery.Waiting> waitingById = new LinkedHashMap<>();
    saved.waiting().forEach(w -> waitingById.put(w.ask().askId(), w));
    for (SlurmRecovery.Decision d : SlurmRecovery.decide(saved, rows, stillWaiting, coreHolds)) {
      apply(d, waitingById);
    }
    // The jobs that ended are reclaimed as the poll reclaims them (an admin's scancel): the same
    // events, once; nodes Slurm took from a running job are reclaimed too, EndTime read again.
    s.reconcileAll(rows, now);
    done =
        new SlurmSchedulerPort.Recovered(
            adoptedJobs, reclaimed, s.adopted().size(), cancelled, resendWarnings(relayed, now));
  }

  private void apply(SlurmRecovery.Decision decision, Map<String, SlurmRecovery.Waiting> waiting) {
    switch (decision) {
      case SlurmRecovery.ReclaimUnheld u -> {
        reclaimed++;
        s.log(
            System.Logger.Level.WARNING,
            "slurm: allocation "
                + u.allocation()
                + " ended before the controller died, unheard: reclaimed now");
        s.emit(new SchedulerEvent.Reclaimed(u.allocation(), u.nodes(), true));
      }
      case SlurmRecovery.Adopt x -> {
        adoptedJobs++;
        s.log(
            System.Logger.Level.INFO,
            "slurm: job " + x.job() + " still runs: re-adopted for allocation " + x.allocation());
      }
      case SlurmRecovery.Reclaim x -> {
        reclaimed++;
        if (x.whole()) {
          // A grant the core never heard of must not be given again for a job that is gone.
          s.answers()
              .values()
              .removeIf(
                  e ->
                      e instanceof SchedulerEvent.Granted g
                          && g.allocation().equals(x.allocation()));
        }
      }
      case SlurmRecovery.KeepWaiting x -> {
        s.adopted().put(x.askId(), waiting.get(x.askId()));
        s.log(
            System.Logger.Level.INFO,
            "slurm: job " + x.job() + " still waits in Slurm's queue for request " + x.askId());
      }
      case SlurmRecovery.GrantNow x -> {
        s.log(
            System.Logger.Level.INFO,
            "slurm: job "
                + x.job()
                + " was granted while the controller was away: request "
                + x.askId()
                + " gets it");
        s.grantAtRecovery(waiting.get(x.askId()).ask(), x.job());
      }
      case SlurmRecovery.AskAgain x ->
          s.log(
              System.Logger.Level.INFO,
              "slurm: request " + x.askId() + " lost its Slurm job: it is asked for again");
      case SlurmRecovery.Cancel x -> {
        cancelled++;
        s.log(
            System.Logger.Level.WARNING,
            "slurm: job " + x.job() + " cancelled at recovery: " + x.why());
        s.scancel(List.of(x.job()));
      }
    }
  }

  /** Warnings that went out that the core never relayed go out again; none twice. */
  private int resendWarnings(Set<String> relayed, SlurmScheduler.Time now) {
    int n = 0;
    for (HeldAllocation a : s.allocations().values()) {
      if (a.warned
          && !relayed.contains(a.id)
          && a.deadlineNs != null
          && a.deadlineNs > now.nowNs()) {
        s.emit(
            new SchedulerEvent.Warning(
                a.id, Math.ceilDiv(a.deadlineNs - now.nowNs(), NS_PER_SECOND)));
        n++;
      }
    }
    return n;
  }
}
