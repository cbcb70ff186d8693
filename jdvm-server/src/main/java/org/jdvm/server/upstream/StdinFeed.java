package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdvm.core.JobKind;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.server.Dvm;

/**
 * Stdin forwarded by a tool ({@code IOF_PUSH}, docs/wireup.md §c.7) on its way to the processes'
 * pipes: who may feed whom (the job itself, an ancestor of it, or the scheduler, as for job
 * control), where each target runs, and the agents' answers folded into one status. A target still
 * being launched is waited for, at most {@link #LAUNCH_WAIT_MS}.
 */
final class StdinFeed {
  /** How long a push waits for its targets' launch. */
  static final long LAUNCH_WAIT_MS = 10_000;

  /** How long a push waits for room in a full pipe before it is refused (a flooding feeder). */
  static final long ROOM_WAIT_MS = 60_000;

  /** One target's place. */
  private record Target(int rank, String node) {}

  /** The targets of a push, or why there are none; {@code launching} when some have no pid yet. */
  private record Resolved(int status, List<Target> targets, boolean launching) {}

  private final OutcomeWatcher outcomes;

  StdinFeed(OutcomeWatcher outcomes) {
    this.outcomes = outcomes;
  }

  /** Blocks while targets are launched and pipes are full: call only on a connection's reader. */
  CompletableFuture<Integer> push(Dvm dvm, Proc requester, Proc target, byte[] chunk) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LAUNCH_WAIT_MS);
    Resolved r;
    try {
      while (true) {
        CompletableFuture<Void> started = outcomes.procsStarted(target.nspace());
        long left = deadline - System.nanoTime();
        r =
            dvm.read(v -> resolve(v, requester, target))
                .get(Math.max(left, 0), TimeUnit.NANOSECONDS);
        left = deadline - System.nanoTime();
        if (!r.launching() || left <= 0) {
          break;
        }
        started.get(left, TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      return CompletableFuture.completedFuture(PmixStatus.ERR_TIMEOUT);
    } catch (ExecutionException e) {
      return CompletableFuture.completedFuture(PmixStatus.ERR_UNREACH);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CompletableFuture.completedFuture(PmixStatus.ERR_UNREACH);
    }
    if (r.status() != PmixStatus.SUCCESS) {
      return CompletableFuture.completedFuture(r.status());
    }
    return write(dvm, target.nspace(), r.targets(), chunk);
  }

  /**
   * SUCCESS once every target that could take the chunk took it; {@code PMIX_ERR_IOF_COMPLETE} when
   * none could (every stdin closed), which tells a libpmix tool to stop forwarding.
   */
  private static CompletableFuture<Integer> write(
      Dvm dvm, String nspace, List<Target> targets, byte[] chunk) {
    if (targets.isEmpty()) {
      return CompletableFuture.completedFuture(PmixStatus.ERR_IOF_COMPLETE);
    }
    CompletableFuture<Integer> done = new CompletableFuture<>();
    AtomicInteger left = new AtomicInteger(targets.size());
    AtomicInteger took = new AtomicInteger();
    for (Target t : targets) {
      dvm.writeStdin(t.node(), nspace, t.rank(), chunk, ROOM_WAIT_MS)
          .whenComplete(
              (ok, failure) -> {
                if (failure == null) {
                  took.incrementAndGet();
                }
                if (left.decrementAndGet() == 0) {
                  done.complete(took.get() > 0 ? PmixStatus.SUCCESS : PmixStatus.ERR_IOF_COMPLETE);
                }
              });
    }
    return done;
  }

  /** Runs on the controller thread. */
  private static Resolved resolve(CoreView v, Proc requester, Proc target) {
    JobView job = v.job(target.nspace()).orElse(null);
    if (job == null || job.kind() != JobKind.APPLICATION) {
      return new Resolved(PmixStatus.ERR_NOT_FOUND, List.of(), false);
    }
    if (!mayFeed(v, requester.nspace(), job)) {
      return new Resolved(PmixStatus.ERR_NO_PERMISSIONS, List.of(), false);
    }
    List<Target> targets = new ArrayList<>();
    boolean launching = false;
    boolean named = false;
    for (ProcView p : job.procs()) {
      if (target.rank() != Proc.RANK_WILDCARD && p.rank() != target.rank()) {
        continue;
      }
      named = true;
      switch (p.state()) {
        case PLACED -> launching |= job.state() == JobView.State.LAUNCHING;
        case RUNNING -> targets.add(new Target(p.rank(), p.node()));
        case ENDED -> {}
      }
    }
    if (!named) {
      return new Resolved(PmixStatus.ERR_NOT_FOUND, List.of(), false);
    }
    return new Resolved(PmixStatus.SUCCESS, targets, launching);
  }

  /** The job itself, one of its ancestors, or the scheduler. */
  static boolean mayFeed(CoreView v, String requester, JobView job) {
    JobView r = v.job(requester).orElse(null);
    if (r != null && r.kind() == JobKind.SCHEDULER) {
      return true;
    }
    for (JobView j = job;
        j != null;
        j = j.parent() == null ? null : v.job(j.parent()).orElse(null)) {
      if (j.namespace().equals(requester)) {
        return true;
      }
    }
    return false;
  }
}
