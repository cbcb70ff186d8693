package org.jdvm.server.pmix.upstream;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.jdvm.core.JobKind;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.server.Dvm;
import org.jdvm.server.node.Cleanup;
import org.jdvm.server.pmix.deliver.OutcomeWatcher;
import org.jdvm.server.pmix.serve.Upstream;

/**
 * The serving half's {@link Upstream} in the controller: requests go to the core through the {@link
 * Dvm}'s queue and are answered through {@link #reply}; reads run on the controller thread against
 * the core's views and return copies ({@link ClientData}, {@link QueryAnswers}).
 */
public final class ControllerUpstream implements Upstream {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** How long a blocking read of the core's views may take. */
  private static final long READ_WAIT_MS = 10_000;

  private final Pending pending = new Pending();
  private final OutcomeWatcher outcomes;
  private final Runnable stop;
  private final StdinFeed stdin;
  private volatile Dvm dvm;

  /**
   * @param outcomes tells when a job's processes have pids
   * @param stop stops the DVM without blocking; run after a STOP request was answered
   */
  public ControllerUpstream(OutcomeWatcher outcomes, Runnable stop) {
    this.outcomes = outcomes;
    this.stop = stop;
    this.stdin = new StdinFeed(outcomes);
  }

  /** From now on requests go to {@code dvm}. */
  public void attach(Dvm dvm) {
    this.dvm = dvm;
  }

  /** The core's answer to a request submitted here (the shell's {@code PeerGateway.reply}). */
  public void reply(RequestId id, int status, List<Info> infos) {
    pending.complete(id, status, infos);
  }

  /** Requests submitted and not yet answered. */
  public int waiting() {
    return pending.size();
  }

  @Override
  public RequestId nextId() {
    return pending.next();
  }

  @Override
  public CompletableFuture<Answer> submit(RequestId id, Request request) {
    CompletableFuture<Answer> answer = pending.expect(id);
    dvm.submit(request)
        .whenComplete(
            (o, t) -> {
              if (t != null) {
                pending.complete(id, PmixStatus.ERR_UNREACH, List.of());
              }
            });
    return answer;
  }

  @Override
  public void report(Report report) {
    Dvm d = dvm;
    if (d != null) {
      d.submit(report);
    }
  }

  @Override
  public CompletableFuture<Optional<List<KVal>>> jobData(Proc proc) {
    return read(v -> ClientData.jobInfo(v, proc));
  }

  @Override
  public CompletableFuture<Optional<KVal>> get(Proc proc, String key) {
    return read(v -> ClientData.lookup(v, proc.nspace(), proc.rank(), key));
  }

  @Override
  public CompletableFuture<Answer> query(List<Query> queries) {
    return read(
        v -> {
          QueryAnswers.Result r = QueryAnswers.answer(v, queries);
          return new Answer(r.status(), r.infos());
        });
  }

  @Override
  public CompletableFuture<Boolean> isLiveProc(Proc proc) {
    return read(
        v ->
            v.job(proc.nspace())
                .filter(j -> j.kind() == JobKind.APPLICATION)
                .filter(j -> j.state() != JobView.State.TERMINATED)
                .map(j -> j.procs().stream().anyMatch(p -> p.rank() == proc.rank()))
                .orElse(false));
  }

  @Override
  public long awaitPid(Proc proc, long timeoutMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (true) {
      CompletableFuture<Void> started = outcomes.procsStarted(proc.nspace());
      long left = deadline - System.nanoTime();
      long pid;
      try {
        pid =
            read(v -> pidOf(v.job(proc.nspace()).orElse(null), proc.rank()))
                .get(Math.max(left, 0), TimeUnit.NANOSECONDS);
        left = deadline - System.nanoTime();
        if (pid != 0 || left <= 0) {
          return pid;
        }
        started.get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        return 0;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      }
    }
  }

  /** The proc's pid; 0 while it is being launched; -1 when there is no such live proc. */
  private static long pidOf(JobView job, int rank) {
    if (job == null || job.state() == JobView.State.TERMINATED) {
      return -1;
    }
    for (ProcView p : job.procs()) {
      if (p.rank() == rank) {
        return p.state() == ProcView.State.ENDED ? -1 : p.pid();
      }
    }
    return -1;
  }

  @Override
  public CompletableFuture<Integer> pushStdin(Proc requester, Proc target, byte[] chunk) {
    return stdin.push(dvm, requester, target, chunk);
  }

  @Override
  public int registerCleanup(Proc requester, List<Proc> targets, Cleanup.Registration r) {
    Set<Place> nodes;
    try {
      nodes =
          read(v -> cleanupNodes(v, requester, targets)).get(READ_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return PmixStatus.ERR_UNREACH;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return PmixStatus.ERR_UNREACH;
    }
    if (nodes == null) {
      return PmixStatus.ERR_NO_PERMISSIONS;
    }
    if (nodes.isEmpty()) {
      return PmixStatus.ERR_NOT_FOUND;
    }
    for (Place p : nodes) {
      String why = dvm.registerCleanup(p.node(), p.nspace(), r);
      if (why != null) {
        LOG.log(System.Logger.Level.INFO, "cleanup of " + r.path() + " refused: " + why);
        return why.startsWith("more than")
            ? PmixStatus.ERR_OUT_OF_RESOURCE
            : PmixStatus.ERR_NO_PERMISSIONS;
      }
    }
    return PmixStatus.SUCCESS;
  }

  /** A node and a namespace with processes there. */
  private record Place(String node, String nspace) {}

  /**
   * The nodes the targets run on, each with the target's namespace; {@code null} when the requester
   * may not act on a target's job.
   */
  private static Set<Place> cleanupNodes(CoreView v, Proc requester, List<Proc> targets) {
    Set<Place> nodes = new LinkedHashSet<>();
    for (Proc t : targets.isEmpty() ? List.of(Proc.wildcard(requester.nspace())) : targets) {
      JobView job = v.job(t.nspace()).orElse(null);
      if (job == null || job.kind() != JobKind.APPLICATION) {
        continue;
      }
      if (!StdinFeed.mayFeed(v, requester.nspace(), job)) {
        return null;
      }
      for (ProcView p : job.procs()) {
        if (t.rank() == Proc.RANK_WILDCARD || p.rank() == t.rank()) {
          nodes.add(new Place(p.node(), t.nspace()));
        }
      }
    }
    return nodes;
  }

  @Override
  public void stop() {
    stop.run();
  }

  private <T> CompletableFuture<T> read(Function<CoreView, T> query) {
    return dvm.read(query);
  }
}
