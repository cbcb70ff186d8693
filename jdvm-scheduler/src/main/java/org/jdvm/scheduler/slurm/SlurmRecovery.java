package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.scheduler.Ask;

/**
 * What the Slurm port journals, and what a restarted controller decides about each Slurm job from
 * it (docs/journal.md "Slurm"), as a pure function of the journaled map, what {@code squeue} shows
 * of the jobs named with the DVM's tag, and the asks the recovered core still waits on.
 *
 * <table>
 *   <caption>The decisions</caption>
 *   <tr><th>journaled as</th><th>Slurm says</th><th>decision</th></tr>
 *   <tr><td>an allocation's job</td><td>still holds its nodes</td><td>{@link Adopt}</td></tr>
 *   <tr><td>an allocation's job</td><td>ended, or gone</td><td>{@link Reclaim} (whole if it is the
 *       allocation's first job)</td></tr>
 *   <tr><td>a waiting ask's job, ask still waiting</td><td>pending</td><td>{@link KeepWaiting}</td></tr>
 *   <tr><td>a waiting ask's job, ask still waiting</td><td>granted meanwhile</td><td>{@link
 *       GrantNow}</td></tr>
 *   <tr><td>a waiting ask (job or none), ask still waiting</td><td>ended, gone, or no job
 *       known</td><td>{@link AskAgain}</td></tr>
 *   <tr><td>a waiting ask's job, ask no longer waiting</td><td>pending or running</td><td>{@link
 *       Cancel}</td></tr>
 *   <tr><td>not journaled (the controller died between salloc and its journal write)</td><td>pending
 *       or running</td><td>{@link Cancel}</td></tr>
 *   <tr><td>not journaled, or an ask gone</td><td>ended</td><td>nothing</td></tr>
 *   <tr><td>not held by the port, but by the recovered core</td><td>(any)</td><td>{@link
 *       ReclaimUnheld}</td></tr>
 * </table>
 */
public final class SlurmRecovery {
  private SlurmRecovery() {}

  /**
   * The Slurm port's state as the journal keeps it.
   *
   * @param tag the DVM's tag: its jobs are named {@code jdvm-TAG}
   * @param allocations the allocations it holds, each with its Slurm jobs (the first names it)
   * @param waiting the asks waiting in Slurm's queue, with their pending job when salloc named it
   */
  public record Saved(String tag, List<Held> allocations, List<Waiting> waiting) {
    public Saved {
      allocations = List.copyOf(allocations);
      waiting = List.copyOf(waiting);
    }
  }

  /**
   * One allocation: its jobs in order, its deadline in the DVM's clock (which goes on across the
   * outage), the warning's lead and whether it went out.
   */
  public record Held(String id, List<Job> jobs, Long deadlineNs, Long warnSeconds, boolean warned) {
    public Held {
      jobs = List.copyOf(jobs);
    }
  }

  /** A Slurm job and the nodes the DVM holds of it. */
  public record Job(String id, List<String> nodes) {
    public Job {
      nodes = List.copyOf(nodes);
    }
  }

  /** An ask in Slurm's queue; {@code jobId} is null until salloc said which job waits. */
  public record Waiting(Ask ask, String jobId) {}

  /** What to do about one job or ask. */
  public sealed interface Decision {}

  /** The job still holds its nodes: the allocation goes on with it. */
  public record Adopt(String allocation, String job) implements Decision {}

  /** The job ended while the controller was away: reclaimed now, as after an admin's scancel. */
  public record Reclaim(String allocation, String job, boolean whole, String state)
      implements Decision {}

  /** The ask's job still waits in Slurm's queue: keep waiting for it. */
  public record KeepWaiting(String askId, String job) implements Decision {}

  /** Slurm granted the ask's job while the controller was away: it is the answer. */
  public record GrantNow(String askId, String job) implements Decision {}

  /** The ask still waits but has no job in Slurm any more: ask Slurm again when it is re-asked. */
  public record AskAgain(String askId) implements Decision {}

  /**
   * The recovered core holds an allocation the port no longer does: its job ended and the port had
   * journaled that, but the controller died before the core heard. Reclaimed now.
   */
  public record ReclaimUnheld(String allocation, List<String> nodes) implements Decision {}

  /** A job of this DVM nobody waits for or holds: cancelled, so that nothing leaks in Slurm. */
  public record Cancel(String job, String why) implements Decision {}

  /**
   * The decisions: allocations the core holds and the port lost first, then the port's allocations,
   * then asks, then the jobs nobody journaled.
   *
   * @param rows what squeue shows of the jobs named with the DVM's tag, by job id
   * @param stillWaiting the ask ids the recovered core still waits on
   * @param coreHolds the recovered core's allocations from this scheduler, with their nodes
   */
  public static List<Decision> decide(
      Saved saved,
      Map<String, SlurmCli.JobRow> rows,
      Set<String> stillWaiting,
      Map<String, List<String>> coreHolds) {
    List<Decision> out = new ArrayList<>();
    Set<String> known = new HashSet<>();
    Set<String> held = new HashSet<>();
    saved.allocations().forEach(a -> held.add(a.id()));
    coreHolds.forEach(
        (id, nodes) -> {
          if (!held.contains(id)) {
            out.add(new ReclaimUnheld(id, nodes));
          }
        });
    for (Held a : saved.allocations()) {
      boolean first = true;
      for (Job j : a.jobs()) {
        known.add(j.id());
        SlurmCli.JobRow row = rows.get(j.id());
        if (holds(row)) {
          out.add(new Adopt(a.id(), j.id()));
        } else {
          out.add(
              new Reclaim(
                  a.id(),
                  j.id(),
                  first || a.jobs().size() == 1,
                  row == null ? "gone" : row.state()));
        }
        first = false;
      }
    }
    for (Waiting w : saved.waiting()) {
      if (w.jobId() != null) {
        known.add(w.jobId());
      }
      Decision d = decide(w, w.jobId() == null ? null : rows.get(w.jobId()), stillWaiting);
      if (d != null) {
        out.add(d);
      }
    }
    for (SlurmCli.JobRow row : rows.values()) {
      if (!known.contains(row.id()) && (pending(row) || holds(row))) {
        out.add(
            new Cancel(
                row.id(),
                "not in the journal (the controller died between salloc and its journal write)"));
      }
    }
    return out;
  }

  /** What to do about an ask that waited in Slurm's queue, or {@code null} for nothing. */
  private static Decision decide(Waiting w, SlurmCli.JobRow row, Set<String> stillWaiting) {
    String askId = w.ask().askId();
    if (!stillWaiting.contains(askId)) {
      return row != null && (pending(row) || holds(row))
          ? new Cancel(w.jobId(), "its request " + askId + " no longer waits")
          : null;
    } else if (row != null && pending(row)) {
      return new KeepWaiting(askId, w.jobId());
    } else if (row != null && holds(row)) {
      return new GrantNow(askId, w.jobId());
    }
    return new AskAgain(askId);
  }

  /** True while the job holds its nodes. */
  static boolean holds(SlurmCli.JobRow row) {
    return row != null && SlurmCli.LIVE_STATES.contains(row.state());
  }

  /** True while the job waits in Slurm's queue. */
  static boolean pending(SlurmCli.JobRow row) {
    return row != null && (row.state().equals("PENDING") || row.state().equals("REQUEUED"));
  }
}
