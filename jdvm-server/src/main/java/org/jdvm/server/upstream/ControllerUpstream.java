package org.jdvm.server.upstream;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
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
import org.jdvm.endpoint.Backend;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.endpoint.serve.Upstream;
import org.jdvm.endpoint.wireup.FenceSet;
import org.jdvm.endpoint.wireup.Fences;
import org.jdvm.endpoint.wireup.Member;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.host.Cleanup;
import org.jdvm.host.JobDirectories;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.server.Dvm;

/**
 * The serving half's {@link Upstream} in the controller: requests go to the core through the {@link
 * Dvm}'s queue and are answered through {@link #reply}; reads run on the controller thread against
 * the core's views and return copies ({@link ClientData}, {@link QueryAnswers}).
 */
public final class ControllerUpstream implements Backend {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** How long a get waits for a commit without {@code pmix.timeout} (pmix_server_get.c:429-446). */
  public static final long DEFAULT_GET_WAIT_MS = 2000;

  /** Job directories are removed on their own threads, off the controller thread. */
  private static final Executor IO = Executors.newVirtualThreadPerTaskExecutor();

  /** How long a blocking read of the core's views may take. */
  private static final long READ_WAIT_MS = 10_000;

  private final Pending pending = new Pending();
  private final OutcomeWatcher outcomes;
  private final Runnable stop;
  private final ModexStore modex;
  private final Fences fences;
  private final Map<String, Integer> jobSizes = new ConcurrentHashMap<>();
  private final Map<String, List<String>> placements = new ConcurrentHashMap<>();
  private final Map<String, Proc> spawners = new ConcurrentHashMap<>();
  private final StdinFeed stdin;
  private final Dvm dvm;
  private final JobDirectories dirs;

  /**
   * The backend of an endpoint ({@code endpoint.serve(parts -> new ControllerUpstream(parts, dvm),
   * ...)}): requests go to {@code dvm}, numbered above every id its journal knows, and jobs'
   * directories are made where it says.
   *
   * @param parts the endpoint's parts: who tells when a job's processes have pids, how to stop the
   *     DVM without blocking, what ranks committed, the open fences
   */
  public ControllerUpstream(Backend.Parts parts, Dvm dvm) {
    this.outcomes = parts.outcomes();
    this.stop = parts.stop();
    this.modex = parts.modex();
    this.fences = parts.fences();
    this.stdin = new StdinFeed(outcomes);
    this.dvm = dvm;
    this.dirs = dvm.environment().jobDirectories();
    pending.mintFrom(dvm.firstRequestId());
  }

  @Override
  public boolean reattach(String namespace) {
    return dvm.reattach(namespace);
  }

  // ---- what the DVM's outcomes tell (OutcomeWatcher, on the controller thread) ----------------

  /** A job was spawned; {@code spawner} is the process that asked, if a job's. */
  @Override
  public void spawned(String nspace, Proc spawner) {
    if (spawner != null) {
      spawners.put(nspace, spawner);
    }
  }

  /** Processes ended: fences stop waiting for them. */
  @Override
  public void procsEnded(String nspace, List<Integer> ranks) {
    fences.procsEnded(nspace, ranks);
  }

  /** A job ended: its fences, committed data and directories go. */
  @Override
  public void ended(String nspace) {
    // forget the size first: a fence entered with it from now on sees it gone (see fence)
    jobSizes.remove(nspace);
    placements.remove(nspace);
    fences.jobEnded(nspace);
    modex.forget(nspace);
    spawners.remove(nspace);
    dvm.places().forget(nspace);
    IO.execute(() -> dirs.remove(nspace));
  }

  /** The core's answer to a request submitted here (the shell's {@code PeerGateway.reply}). */
  @Override
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
    return submit(id, request, () -> {});
  }

  /** {@code taken} runs once the controller handled the request (its effects dispatched). */
  @Override
  public CompletableFuture<Answer> submit(RequestId id, Request request, Runnable taken) {
    CompletableFuture<Answer> answer = pending.expect(id);
    dvm.submit(request)
        .whenComplete(
            (o, t) -> {
              taken.run();
              if (t != null) {
                pending.complete(id, PmixStatus.ERR_UNREACH, List.of());
              }
            });
    return answer;
  }

  @Override
  public void report(Report report) {
    dvm.submit(report);
  }

  @Override
  public CompletableFuture<Optional<List<KVal>>> jobData(Proc proc) {
    return read(v -> ClientData.jobInfo(v, proc, extras(proc.nspace())))
        .thenApplyAsync(
            kvals -> {
              if (kvals.isPresent()) {
                dirs.create(proc.nspace(), proc.rank());
              }
              return kvals;
            },
            IO);
  }

  private ClientData.Extras extras(String nspace) {
    return new ClientData.Extras(dirs, spawners.get(nspace), dvm.places());
  }

  @Override
  public int commit(Proc proc, List<ModexStore.Entry> local, List<ModexStore.Entry> remote) {
    return modex.commit(proc, local, remote);
  }

  @Override
  public CompletableFuture<Integer> fence(
      Proc caller, List<Proc> procs, boolean collect, long timeoutMs) {
    Map<String, Integer> known = new HashMap<>();
    for (Proc p : procs) {
      Integer size = jobSizes.get(p.nspace());
      if (size != null) {
        known.put(p.nspace(), size);
      }
    }
    if (procs.stream().allMatch(p -> known.containsKey(p.nspace()))) {
      CompletableFuture<Integer> done = enter(caller, procs, collect, timeoutMs, known);
      // A job that ended since its size was read here: its end may have passed the fence by.
      for (String ns : known.keySet()) {
        if (!jobSizes.containsKey(ns)) {
          fences.jobEnded(ns);
        }
      }
      return done;
    }
    // On the controller thread, in order with the DVM's outcomes: a job that ended is unknown here,
    // and one that ends after this entry releases the fence through jobEnded.
    return read(v -> {
          Map<String, Integer> m = new HashMap<>();
          for (Proc p : procs) {
            Integer size = ClientData.size(v, p.nspace());
            if (size != null) {
              m.put(p.nspace(), size);
            }
          }
          return enter(caller, procs, collect, timeoutMs, m);
        })
        .thenCompose(f -> f);
  }

  private CompletableFuture<Integer> enter(
      Proc caller, List<Proc> procs, boolean collect, long timeoutMs, Map<String, Integer> sizes) {
    for (Proc p : procs) {
      Integer size = sizes.get(p.nspace());
      if (size == null) {
        LOG.log(
            System.Logger.Level.INFO,
            "proc=" + caller + " fence refused: no running application job " + p.nspace());
        return CompletableFuture.completedFuture(PmixStatus.ERR_NOT_FOUND);
      }
      if (p.rank() != Proc.RANK_WILDCARD && Integer.toUnsignedLong(p.rank()) >= size) {
        LOG.log(
            System.Logger.Level.INFO,
            "proc=" + caller + " fence refused: " + p + " is not a rank of a job of " + size);
        return CompletableFuture.completedFuture(PmixStatus.ERR_BAD_PARAM);
      }
    }
    sizes.forEach(jobSizes::putIfAbsent);
    CompletableFuture<Integer> done = new CompletableFuture<>();
    int status =
        fences.enter(FenceSet.of(procs, sizes), caller, collect, timeoutMs, done::complete);
    if (status != PmixStatus.SUCCESS) {
      LOG.log(
          System.Logger.Level.INFO,
          "proc=" + caller + " fence refused: " + PmixStatus.name(status) + " procs=" + procs);
      done.complete(status);
    }
    return done;
  }

  @Override
  public CompletableFuture<Got> get(
      Proc requester, Proc target, String key, boolean immediate, long timeoutMs) {
    GetPlan known = GetPlan.ofPeer(placements, requester, target, key);
    CompletableFuture<GetPlan> plan =
        known != null
            ? CompletableFuture.completedFuture(known)
            : read(v -> GetPlan.of(v, placements, extras(target.nspace()), requester, target, key));
    return plan.thenCompose(
        p -> {
          if (p.answer() != null) {
            return CompletableFuture.completedFuture(p.answer());
          }
          CompletableFuture<Got> got = new CompletableFuture<>();
          modex.get(
              target,
              key,
              p.visibility(),
              immediate,
              timeoutMs > 0 ? timeoutMs : DEFAULT_GET_WAIT_MS,
              fetched -> got.complete(p.combine(target, fetched)));
          return got;
        });
  }

  @Override
  public CompletableFuture<Optional<Member>> member(Proc proc) {
    return read(v -> WireupViews.member(v, proc));
  }

  @Override
  public CompletableFuture<Boolean> placedWith(Proc proc, List<Proc> others) {
    List<Proc> copy = List.copyOf(others);
    Map<String, List<String>> known = new HashMap<>();
    known.put(proc.nspace(), placements.get(proc.nspace()));
    for (Proc p : copy) {
      known.put(p.nspace(), placements.get(p.nspace()));
    }
    if (!known.containsValue(null)) {
      return CompletableFuture.completedFuture(placedWith(known, proc, copy));
    }
    return read(
        v -> {
          Map<String, List<String>> m = new HashMap<>();
          for (String ns : known.keySet()) {
            List<String> nodes = ClientData.placement(v, ns);
            if (nodes != null) {
              placements.putIfAbsent(ns, nodes);
            }
            m.put(ns, nodes);
          }
          return placedWith(m, proc, copy);
        });
  }

  private static boolean placedWith(Map<String, List<String>> nodes, Proc proc, List<Proc> others) {
    String node = nodeOf(nodes, proc);
    if (node == null) {
      return false;
    }
    for (Proc p : others) {
      if (!node.equals(nodeOf(nodes, p))) {
        return false;
      }
    }
    return true;
  }

  private static String nodeOf(Map<String, List<String>> nodes, Proc p) {
    List<String> byRank = nodes.get(p.nspace());
    return byRank == null || p.rank() < 0 || p.rank() >= byRank.size()
        ? null
        : byRank.get(p.rank());
  }

  @Override
  public CompletableFuture<Map<String, Ranks>> ranks(Collection<String> nspaces) {
    List<String> copy = List.copyOf(nspaces);
    return read(v -> WireupViews.ranks(v, copy));
  }

  @Override
  public CompletableFuture<Map<String, List<KVal>>> namespaceData(Collection<String> nspaces) {
    List<String> copy = List.copyOf(nspaces);
    return read(
        v -> {
          Map<String, List<KVal>> out = new LinkedHashMap<>();
          for (String ns : copy) {
            ClientData.namespaceInfo(v, ns, extras(ns)).ifPresent(kvals -> out.put(ns, kvals));
          }
          return out;
        });
  }

  @Override
  public CompletableFuture<Answer> query(List<Query> queries) {
    Map<String, Dvm.AgentFacts> agents = dvm.agentFacts();
    return read(
        v -> {
          QueryAnswers.Result r = QueryAnswers.answer(v, queries, agents);
          return new Answer(r.status(), r.infos());
        });
  }

  @Override
  public CompletableFuture<Answer> explain(
      Request.Spawn wouldBe, String job, String node, String alloc) {
    Map<String, Dvm.AgentFacts> agents = dvm.agentFacts();
    return read(v -> Explanations.answer(v, wouldBe, job, node, alloc, agents));
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
