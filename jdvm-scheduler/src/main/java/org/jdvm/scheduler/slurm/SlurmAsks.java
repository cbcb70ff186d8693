package org.jdvm.scheduler.slurm;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * {@link SlurmScheduler}'s decisions about asks, inside its steps: a NEW or EXTEND ask becomes a
 * {@code salloc --no-shell} (an EXTEND with time first adds it to every job of the allocation and
 * reads the end again); what salloc prints makes it queued, granted (the job read with {@code
 * scontrol show job}) or refused; a request Slurm can never serve is cancelled and refused. Pure,
 * as the scheduler is.
 */
final class SlurmAsks {
  private static final long NS_PER_SECOND = 1_000_000_000L;

  private static final Pattern PENDING = Pattern.compile("Pending job allocation ([0-9]+)");
  private static final Pattern GRANTED = Pattern.compile("Granted job allocation ([0-9]+)");

  private final SlurmScheduler s;

  SlurmAsks(SlurmScheduler s) {
    this.s = s;
  }

  void allocate(Ask ask, SlurmScheduler.Time now) {
    HeldAllocation a = ask.allocation() == null ? null : s.allocations.get(ask.allocation());
    if (ask.kind() == Ask.Kind.EXTEND && a == null) {
      s.refuse(ask, PmixStatus.ERR_NOT_FOUND, "no Slurm allocation " + ask.allocation());
      return;
    }
    if (ask.kind() == Ask.Kind.EXTEND && ask.timeLimitSeconds() != null) {
      long minutes;
      try {
        minutes = SlurmCli.minutes(ask.timeLimitSeconds());
      } catch (IllegalArgumentException e) {
        s.refuse(ask, PmixStatus.ERR_BAD_PARAM, e.getMessage());
        return;
      }
      addTime(a, ask, List.copyOf(a.jobs.keySet()), 0, minutes);
    } else {
      requestNodes(ask, a, now);
    }
  }

  /**
   * EXTEND's time: every job of the allocation gets the minutes, one after the other (refused at
   * the first Slurm says no to), then the deadline is read again and the nodes asked for.
   */
  private void addTime(HeldAllocation a, Ask ask, List<String> jobs, int next, long minutes) {
    if (next < jobs.size()) {
      String job = jobs.get(next);
      s.query(
          SlurmCli.addTime(job, minutes),
          (r, now) -> {
            if (r.exit() != 0) {
              SlurmCli.Failure f = SlurmCli.failure("did not extend job " + job, r.lastLine());
              s.refuse(ask, f.status(), f.reason());
            } else {
              addTime(a, ask, jobs, next + 1, minutes);
            }
          });
      return;
    }
    String first = a.jobs.keySet().iterator().next();
    s.query(
        SlurmCli.squeue(List.of(first)),
        (r, now) -> {
          SlurmCli.JobRow row = SlurmCli.parseSqueue(r.out()).get(first);
          if (row != null) {
            a.moveDeadline(SlurmScheduler.toDeadlineNs(row.endEpochSeconds(), now), now.nowNs());
          }
          requestNodes(ask, a, now);
        });
  }

  /** The nodes of a NEW or EXTEND ask: a salloc, or for an EXTEND of time alone, granted now. */
  private void requestNodes(Ask ask, HeldAllocation a, SlurmScheduler.Time now) {
    if (ask.kind() == Ask.Kind.EXTEND && ask.names().isEmpty() && ask.count() == 0) {
      a.warnAfterChange(ask.warnSeconds());
      s.emit(new SchedulerEvent.Granted(ask.askId(), a.id, List.of(), a.deadlineNs));
      s.deadlinesHeld = false;
      return;
    }
    List<String> argv;
    try {
      argv =
          SlurmCli.salloc(
              ask.count(),
              ask.names(),
              minutesFor(ask, a, now),
              ask.required(),
              s.partition,
              s.jobName());
    } catch (IllegalArgumentException e) {
      s.refuse(ask, PmixStatus.ERR_BAD_PARAM, e.getMessage());
      return;
    }
    SallocAsk p = new SallocAsk(ask);
    s.pending.put(ask.askId(), p);
    s.startSalloc(p, argv);
  }

  /** The salloc time limit: the ask's for NEW, the allocation's time left for EXTEND. */
  private static Long minutesFor(Ask ask, HeldAllocation a, SlurmScheduler.Time now) {
    if (ask.kind() == Ask.Kind.NEW) {
      return ask.timeLimitSeconds() == null ? null : SlurmCli.minutes(ask.timeLimitSeconds());
    }
    if (a.deadlineNs == null) {
      return null;
    }
    long left = Math.ceilDiv(a.deadlineNs - now.nowNs(), NS_PER_SECOND);
    return SlurmCli.minutes(Math.max(1, left));
  }

  /** The salloc could not be started: the ask is refused. */
  void notStarted(SallocAsk p, String why) {
    s.pending.remove(p.ask.askId(), p);
    s.refuse(p.ask, PmixStatus.ERR_NOT_SUPPORTED, "cannot run salloc: " + why);
  }

  /** A line salloc printed: pending (Queued), granted (the job read, then Granted), or an error. */
  void line(SallocAsk p, String line) {
    Matcher granted = GRANTED.matcher(line);
    Matcher queued = PENDING.matcher(line);
    if (granted.find()) {
      p.jobId = granted.group(1);
      if (p.cancelled || p.answered) {
        s.scancel(List.of(p.jobId));
      } else {
        p.answered = true;
        grant(p.ask, p.jobId);
      }
    } else if (queued.find()) {
      p.jobId = queued.group(1);
      onQueued(p);
    } else if (line.contains("configuration not available")
        || line.contains("configuration is not available")) {
      // Slurm queues a request that can never fit (PartitionNodeLimit) and waits for ever.
      p.never = true;
      p.lastError = line;
      if (p.jobId != null) {
        refuseNever(p);
      }
    } else if (line.contains("error") && !p.never) {
      p.lastError = line;
    }
  }

  private void onQueued(SallocAsk p) {
    if (p.never) {
      refuseNever(p);
    } else if (p.cancelled) {
      s.scancel(List.of(p.jobId));
      s.endSalloc(p);
    } else if (!p.ask.required()) {
      long position = s.pending.values().stream().filter(q -> q.queued && !q.cancelled).count() + 1;
      p.queued = true;
      s.emit(new SchedulerEvent.Queued(p.ask.askId(), (int) position));
    }
  }

  /**
   * A request Slurm queued but can never serve is refused as soon as its job id is known, its job
   * cancelled first: the answer does not wait for salloc to notice the cancel and exit.
   */
  private void refuseNever(SallocAsk p) {
    if (p.answered || p.cancelled) {
      return;
    }
    p.answered = true;
    s.pending.remove(p.ask.askId(), p);
    s.scancel(List.of(p.jobId));
    s.endSalloc(p);
    s.emit(
        new SchedulerEvent.Refused(
            p.ask.askId(),
            PmixStatus.ERR_OUT_OF_RESOURCE,
            SlurmCli.failure("can never grant the nodes", p.lastError).reason()));
  }

  /** salloc exited: an ask it had not answered is refused, its job (if any) cancelled. */
  void exit(SallocAsk p, int exit) {
    s.pending.remove(p.ask.askId(), p);
    if (p.answered || p.cancelled) {
      return;
    }
    p.answered = true;
    if (p.jobId != null) {
      s.scancel(List.of(p.jobId));
    }
    String last = p.lastError != null ? p.lastError : "salloc exited with status " + exit;
    SlurmCli.Failure f =
        p.never
            ? new SlurmCli.Failure(
                PmixStatus.ERR_OUT_OF_RESOURCE,
                SlurmCli.failure("can never grant the nodes", last).reason())
            : SlurmCli.failure("did not grant the nodes", last);
    s.emit(new SchedulerEvent.Refused(p.ask.askId(), f.status(), f.reason()));
  }

  /** Slurm granted {@code jobId} to {@code ask}: its nodes and end are read, then Granted. */
  void grant(Ask ask, String jobId) {
    s.pending.remove(ask.askId());
    List<String> show;
    try {
      show = SlurmCli.showJob(jobId);
    } catch (IllegalArgumentException e) {
      unreadable(ask, jobId, e);
      return;
    }
    s.query(
        show,
        (r, now) -> {
          SlurmCli.GrantedJob job;
          try {
            if (r.exit() != 0) {
              throw new IllegalStateException(r.lastLine());
            }
            job = SlurmCli.parseShowJob(r.out());
          } catch (IllegalArgumentException | IllegalStateException e) {
            unreadable(ask, jobId, e);
            return;
          }
          granted(ask, jobId, job, now);
        });
  }

  private void unreadable(Ask ask, String jobId, RuntimeException e) {
    s.scancel(List.of(jobId));
    s.emit(
        new SchedulerEvent.Refused(
            ask.askId(),
            PmixStatus.ERROR,
            "Slurm job " + jobId + " was granted but cannot be read: " + e.getMessage()));
  }

  private void granted(Ask ask, String jobId, SlurmCli.GrantedJob job, SlurmScheduler.Time now) {
    HeldAllocation a;
    if (ask.kind() == Ask.Kind.NEW) {
      a = new HeldAllocation(jobId);
      a.deadlineNs = SlurmScheduler.toDeadlineNs(job.endEpochSeconds(), now);
      s.allocations.put(a.id, a);
    } else {
      a = s.allocations.get(ask.allocation());
      if (a == null) {
        s.scancel(List.of(jobId));
        s.emit(
            new SchedulerEvent.Refused(
                ask.askId(),
                PmixStatus.ERR_NOT_FOUND,
                "allocation " + ask.allocation() + " ended while its extension waited"));
        return;
      }
    }
    a.warnAfterChange(ask.warnSeconds());
    List<String> names = job.nodes().stream().map(NodeGrant::name).toList();
    a.jobs.put(jobId, new LinkedHashSet<>(names));
    names.forEach(n -> s.jobOfNode.put(n, jobId));
    s.emit(new SchedulerEvent.Granted(ask.askId(), a.id, job.nodes(), a.deadlineNs));
    s.deadlinesHeld = false;
  }
}
