package org.jdvm.endpoint.pmi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.endpoint.serve.Upstream;
import org.jdvm.endpoint.wireup.Blob;
import org.jdvm.endpoint.wireup.Member;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.endpoint.wireup.PublishedData;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.Persistence;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * Simple PMI over the PMIx endpoint's wire-up state (docs/protocol.md "Simple PMI"): a {@code put}
 * is a commit of the rank's key (both scopes: every rank of the job may get it), a {@code
 * barrier_in} is the fence of the job's ranks, a {@code get} is a get that does not wait, and an
 * {@code abort} is the core's {@code AbortJob}; the same {@link Upstream} calls {@code
 * PMIx_Commit}, {@code PMIx_Fence}, {@code PMIx_Get} and {@code PMIx_Abort} reach, so ranks of both
 * protocols meet in one modex and one fence.
 *
 * <p>A PMI-1 key belongs to the job, not to a rank, so this keeps which rank put each key (the
 * modex keeps values per rank): at most {@link #KEYS_PER_RANK} keys per rank, past which a put is
 * refused and changes nothing; a key another rank of the job put is refused too. The index is
 * forgotten with the job.
 *
 * <p>Thread-safe.
 */
final class UpstreamBackend implements PmiBackend {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmi");

  /** The most keys one rank may put. */
  static final int KEYS_PER_RANK = 1024;

  private final Upstream upstream;
  private final PublishedData published;
  private final OutcomeWatcher spawns;
  private final Map<String, Map<String, Integer>> owners = new HashMap<>();

  /** The keys each job spawned over simple PMI finds put already ({@code preput}). */
  private final Map<String, Map<String, String>> preputs = new HashMap<>();

  /**
   * Spawns not answered yet: a child may ask for a preput key before its parent's answer came (the
   * core launches the children, then answers), so a get that finds nothing waits for these first.
   */
  private final Set<CompletableFuture<Void>> spawning = new HashSet<>();

  private final Map<Proc, Integer> keysOf = new HashMap<>();

  UpstreamBackend(Upstream upstream, PublishedData published, OutcomeWatcher spawns) {
    this.upstream = upstream;
    this.published = published;
    this.spawns = spawns;
  }

  @Override
  public CompletableFuture<Optional<Facts>> facts(Proc self) {
    return upstream.jobData(self).thenApply(kvals -> kvals.map(k -> facts(self, k)));
  }

  private static Facts facts(Proc self, List<KVal> kvals) {
    int size = 1;
    int universe = 0;
    String pmap = null;
    int appnum = 0;
    for (KVal k : kvals) {
      switch (k.key()) {
        case PmixKeys.JOB_SIZE -> size = (int) k.value().asLong();
        case PmixKeys.UNIV_SIZE -> universe = (int) k.value().asLong();
        case PmixKeys.PROC_MAP -> pmap = String.valueOf(k.value().data());
        case PmixKeys.PROC_INFO_ARRAY -> appnum = appnumOf(self, k.value(), appnum);
        default -> {}
      }
    }
    List<List<Integer>> perNode = ProcessMapping.parseRaw(pmap);
    String mapping = perNode == null ? null : ProcessMapping.of(perNode, size);
    return new Facts(
        size, Math.max(universe, size), appnum, mapping == null ? "(vector)" : mapping);
  }

  /** The app number a rank's info array gives, if it is {@code self}'s. */
  private static int appnumOf(Proc self, Value array, int otherwise) {
    Integer rank = null;
    Integer app = null;
    for (org.jdvm.pmix.Info i : array.asArray().elementsAs(org.jdvm.pmix.Info.class)) {
      if (i.key().equals(PmixKeys.RANK)) {
        rank = (int) i.value().asLong();
      } else if (i.key().equals(PmixKeys.APPNUM)) {
        app = (int) i.value().asLong();
      }
    }
    return rank != null && rank == self.rank() && app != null ? app : otherwise;
  }

  @Override
  public synchronized String put(Proc self, String key, String value) {
    Map<String, Integer> job = owners.computeIfAbsent(self.nspace(), k -> new HashMap<>());
    Integer owner = job.get(key);
    if (owner != null && owner != self.rank()) {
      return "key " + key + " was put by rank " + owner;
    }
    if (owner == null && keysOf.getOrDefault(self, 0) >= KEYS_PER_RANK) {
      return "a rank may put at most " + KEYS_PER_RANK + " keys";
    }
    ModexStore.Entry e =
        new ModexStore.Entry(key, Value.string(value), key.length() + value.length());
    int status = upstream.commit(self, List.of(e), List.of(e));
    if (status != PmixStatus.SUCCESS) {
      if (job.isEmpty()) {
        owners.remove(self.nspace());
      }
      return status == PmixStatus.ERR_OUT_OF_RESOURCE
          ? "the rank's data is past its bound"
          : "put refused, PMIx status " + status;
    }
    if (owner == null) {
      job.put(key, self.rank());
      keysOf.merge(self, 1, Integer::sum);
    }
    return null;
  }

  @Override
  public CompletableFuture<Got> get(Proc self, String key) {
    CompletableFuture<Void> answered;
    synchronized (this) {
      if (spawning.isEmpty() || known(self, key)) {
        return getNow(self, key);
      }
      answered = CompletableFuture.allOf(spawning.toArray(CompletableFuture[]::new));
    }
    return answered.handle((v, e) -> null).thenCompose(v -> getNow(self, key));
  }

  private synchronized boolean known(Proc self, String key) {
    Map<String, Integer> job = owners.get(self.nspace());
    return (job != null && job.containsKey(key))
        || preputs.getOrDefault(self.nspace(), Map.of()).containsKey(key);
  }

  private CompletableFuture<Got> getNow(Proc self, String key) {
    Integer owner;
    synchronized (this) {
      String pre = preputs.getOrDefault(self.nspace(), Map.of()).get(key);
      if (pre != null) {
        return CompletableFuture.completedFuture(new Got(pre, null));
      }
      Map<String, Integer> job = owners.get(self.nspace());
      owner = job == null ? null : job.get(key);
    }
    if (owner == null) {
      return CompletableFuture.completedFuture(Got.refused("no rank put " + key));
    }
    return upstream
        .get(self, new Proc(self.nspace(), owner), key, true, 0)
        .thenApply(got -> valueOf(got, key));
  }

  private static Got valueOf(Upstream.Got got, String key) {
    if (got.status() == PmixStatus.SUCCESS) {
      for (Blob b : got.blobs()) {
        for (KVal k : b.kvals()) {
          if (k.key().equals(key) && k.value().data() instanceof String s) {
            return new Got(s, null);
          }
        }
      }
    }
    return Got.refused("no value of " + key + ", PMIx status " + got.status());
  }

  @Override
  public CompletableFuture<Integer> barrier(Proc self, List<Integer> represented) {
    List<Proc> all = List.of(Proc.wildcard(self.nspace()));
    if (represented.isEmpty()) {
      return upstream.fence(self, all, false, 0);
    }
    List<Proc> others = represented.stream().map(r -> new Proc(self.nspace(), r)).toList();
    return upstream.fenceFor(self, all, false, 0, others);
  }

  @Override
  public void abort(Proc self, int exitCode, String message) {
    LOG.log(System.Logger.Level.INFO, "pmi proc=" + self + " abort=" + exitCode);
    RequestId id = upstream.nextId();
    upstream.submit(id, new Request.AbortJob(id, self, self.nspace(), exitCode));
  }

  @Override
  public CompletableFuture<String> spawn(Proc self, PmiSpawn.Request request, String cwd) {
    List<App> apps = new ArrayList<>();
    for (PmiSpawn.App a : request.apps()) {
      List<String> argv = new ArrayList<>();
      argv.add(a.execname());
      argv.addAll(a.args());
      String wdir = a.info().getOrDefault("wdir", cwd);
      apps.add(new App(a.execname(), argv, List.of("PMI_SPAWNED=1"), wdir, a.nprocs(), List.of()));
    }
    RequestId id = upstream.nextId();
    CompletableFuture<Void> done = new CompletableFuture<>();
    synchronized (this) {
      spawning.add(done);
    }
    spawns.expectSpawn(id, OutcomeWatcher.SpawnIntent.INHERIT);
    return upstream
        .submit(id, Request.Spawn.of(id, self, apps))
        .handle(
            (answer, failure) -> {
              spawns.spawnAnswered(id);
              String nspace = answer == null ? null : answer.info(PmixKeys.NSPACE);
              synchronized (this) {
                if (nspace != null && answer.status() == PmixStatus.SUCCESS) {
                  preputs.put(nspace, request.preput());
                }
                spawning.remove(done);
              }
              done.complete(null);
              if (answer == null) {
                return "the spawn was not answered";
              }
              return answer.status() == PmixStatus.SUCCESS
                  ? null
                  : "spawn refused, " + PmixStatus.name(answer.status());
            });
  }

  @Override
  public CompletableFuture<String> publish(Proc self, String service, String port) {
    PublishedData.Datum d = new PublishedData.Datum(service, Value.string(port), port.length() + 1);
    return asMember(
        self,
        m ->
            published
                .publish(m, List.of(d), DataRange.UNDEF, Persistence.APP)
                .map(why -> "publish refused, " + PmixStatus.name(why.status()))
                .orElse(null));
  }

  @Override
  public CompletableFuture<Got> lookup(Proc self, String service) {
    return upstream
        .member(self)
        .thenApply(
            m -> {
              if (m.isEmpty()) {
                return Got.refused("no live process " + self);
              }
              PublishedData.Lookup l =
                  published.lookup(m.get(), List.of(service), DataRange.UNDEF, 0, this, null);
              if (l instanceof PublishedData.Lookup.Found f
                  && !f.data().isEmpty()
                  && f.data().get(0).value().data() instanceof String s) {
                return new Got(s, null);
              }
              return Got.refused("nothing is published under " + service);
            });
  }

  @Override
  public String unpublish(Proc self, String service) {
    return published
        .unpublish(self, List.of(service), null)
        .map(why -> "unpublish refused, " + PmixStatus.name(why.status()))
        .orElse(null);
  }

  private CompletableFuture<String> asMember(
      Proc self, java.util.function.Function<Member, String> then) {
    return upstream
        .member(self)
        .thenApply(m -> m.isEmpty() ? "no live process " + self : then.apply(m.get()));
  }

  /** At most this many node attributes per job and node. */
  static final int NODE_ATTRS = 1024;

  /** PMI-2 node attributes: by job and node, key to value. */
  private final Map<String, Map<String, String>> nodeAttrs = new HashMap<>();

  /** Gets of node attributes waiting for a put, by job and node, then key. */
  private final Map<String, Map<String, List<CompletableFuture<Got>>>> nodeWaits = new HashMap<>();

  @Override
  public String putNodeAttr(Proc self, String key, String value) {
    Optional<Member> m = upstream.member(self).join();
    if (m.isEmpty()) {
      return "no live process " + self;
    }
    String where = self.nspace() + "\n" + m.get().node();
    List<CompletableFuture<Got>> woken;
    synchronized (this) {
      Map<String, String> attrs = nodeAttrs.computeIfAbsent(where, k -> new HashMap<>());
      if (!attrs.containsKey(key) && attrs.size() >= NODE_ATTRS) {
        return "a job may put at most " + NODE_ATTRS + " attributes per node";
      }
      attrs.put(key, value);
      Map<String, List<CompletableFuture<Got>>> w = nodeWaits.get(where);
      woken = w == null ? null : w.remove(key);
    }
    if (woken != null) {
      woken.forEach(f -> f.complete(new Got(value, null)));
    }
    return null;
  }

  @Override
  public CompletableFuture<Got> nodeAttr(Proc self, String key, boolean wait) {
    return upstream
        .member(self)
        .thenCompose(
            m -> {
              if (m.isEmpty()) {
                return CompletableFuture.completedFuture(Got.refused("no live process " + self));
              }
              String where = self.nspace() + "\n" + m.get().node();
              synchronized (this) {
                String v = nodeAttrs.getOrDefault(where, Map.of()).get(key);
                if (v != null || !wait) {
                  return CompletableFuture.completedFuture(
                      v != null ? new Got(v, null) : Got.refused("no rank put " + key));
                }
                // one request in flight per connection bounds the waiting gets
                CompletableFuture<Got> f = new CompletableFuture<>();
                nodeWaits
                    .computeIfAbsent(where, k -> new HashMap<>())
                    .computeIfAbsent(key, k -> new ArrayList<>())
                    .add(f);
                return f;
              }
            });
  }

  /** Forgets which rank put which key of {@code nspace} (the job ended). */
  void forget(String nspace) {
    List<CompletableFuture<Got>> ended = new ArrayList<>();
    synchronized (this) {
      nodeAttrs.keySet().removeIf(k -> k.startsWith(nspace + "\n"));
      nodeWaits
          .entrySet()
          .removeIf(
              e -> {
                if (!e.getKey().startsWith(nspace + "\n")) {
                  return false;
                }
                e.getValue().values().forEach(ended::addAll);
                return true;
              });
      forgetKeys(nspace);
    }
    ended.forEach(f -> f.complete(Got.refused("the job ended")));
  }

  private synchronized void forgetKeys(String nspace) {
    owners.remove(nspace);
    preputs.remove(nspace);
    keysOf.keySet().removeIf(p -> p.nspace().equals(nspace));
  }
}
