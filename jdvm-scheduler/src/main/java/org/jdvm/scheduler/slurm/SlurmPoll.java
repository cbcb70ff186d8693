package org.jdvm.scheduler.slurm;

import java.util.List;
import java.util.Map;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * {@link SlurmScheduler}'s polls, inside its steps: what {@code squeue} says of the DVM's jobs
 * against what the DVM holds. A job ended from outside (an admin's {@code scancel}, a node failure,
 * Slurm's time limit) is reclaimed, the whole allocation if it was its first job; nodes gone from a
 * job are reclaimed; a moved EndTime moves the deadline; a job a previous controller left waiting
 * is granted once Slurm grants it, or asked for again if it ended. Pure, as the scheduler is.
 */
final class SlurmPoll {
  private final SlurmScheduler s;

  SlurmPoll(SlurmScheduler s) {
    this.s = s;
  }

  /**
   * What {@code squeue} said of {@link SlurmScheduler#pollJobs}: jobs ended or shrunk from outside
   * reclaimed, EndTimes moved; a job a previous controller left waiting is granted, or asked for
   * again.
   */
  void polled(SlurmCommands.Result r, SlurmScheduler.Time now) {
    if (r.exit() != 0 && !r.err().contains("Invalid job id")) {
      if (!s.pollFailing) {
        s.pollFailing = true;
        s.log(
            System.Logger.Level.WARNING,
            SlurmCli.failure("squeue failed", r.lastLine()).reason()
                + "; s.allocations are kept until Slurm answers");
      }
      return;
    }
    s.pollFailing = false;
    s.deadlinesHeld = false;
    Map<String, SlurmCli.JobRow> rows = SlurmCli.parseSqueue(r.out());
    for (HeldAllocation a : List.copyOf(s.allocations.values())) {
      reconcile(a, rows, now);
    }
    for (SlurmRecovery.Waiting w : List.copyOf(s.adopted.values())) {
      SlurmCli.JobRow row = rows.get(w.jobId());
      if (SlurmRecovery.pending(row)) {
        continue;
      }
      s.adopted.remove(w.ask().askId());
      if (SlurmRecovery.holds(row)) {
        s.asks.grant(w.ask(), w.jobId());
      } else {
        s.log(
            System.Logger.Level.INFO,
            "slurm: job "
                + w.jobId()
                + " of request "
                + w.ask().askId()
                + " ended while it waited: asked for again");
        s.asks.allocate(w.ask(), now);
      }
    }
  }

  /** What Slurm says of an allocation's jobs, against what the DVM holds. */
  void reconcile(HeldAllocation a, Map<String, SlurmCli.JobRow> rows, SlurmScheduler.Time now) {
    String first = a.jobs.keySet().iterator().next();
    for (String job : List.copyOf(a.jobs.keySet())) {
      SlurmCli.JobRow row = rows.get(job);
      boolean ended = row == null || !SlurmCli.LIVE_STATES.contains(row.state());
      if (ended && (job.equals(first) || a.jobs.size() == 1)) {
        s.log(
            System.Logger.Level.INFO,
            "slurm: job "
                + job
                + " ended outside the DVM ("
                + (row == null ? "gone" : row.state())
                + "): allocation "
                + a.id
                + " reclaimed");
        s.reclaimWhole(a);
        return;
      }
      List<String> lost =
          ended
              ? List.copyOf(a.jobs.get(job))
              : a.jobs.get(job).stream().filter(n -> !row.nodes().contains(n)).toList();
      if (ended) {
        a.jobs.remove(job);
      } else {
        a.jobs.get(job).removeAll(lost);
      }
      if (!lost.isEmpty()) {
        lost.forEach(s.jobOfNode::remove);
        s.emit(new SchedulerEvent.Reclaimed(a.id, lost, false));
      }
      if (job.equals(first) && row != null) {
        a.moveDeadline(SlurmScheduler.toDeadlineNs(row.endEpochSeconds(), now), now.nowNs());
      }
    }
  }
}
