package org.jdvm.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Persistence;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.CommitRequest;
import org.jdvm.pmix.body.ConnectNbRequest;
import org.jdvm.pmix.body.FenceRequest;
import org.jdvm.pmix.body.GetRequest;
import org.jdvm.pmix.body.KeysRequest;
import org.jdvm.pmix.body.LogRequest;
import org.jdvm.pmix.body.PublishRequest;
import org.jdvm.pmix.frame.Commands;

/**
 * The wire-up operations of a launched process ({@link JdvmClient#wireUp()}): what an MPI library
 * does through libpmix to find its peers, so a Java rank can wire up beside C ranks in one job
 * (docs/wireup.md §c). Each message is laid out exactly as libpmix 4.2.2 lays it out, by its codec
 * in {@code org.jdvm.pmix.body} (the one the DVM's endpoint reads it with). Every operation comes
 * blocking and as {@code ...Async}, like the client's others.
 *
 * <pre>{@code
 * try (JdvmClient me = JdvmClient.connect()) {            // a process jdvm launched
 *   WireUp w = me.wireUp();
 *   w.put(WireUp.Scope.GLOBAL, "my.addr", Value.string("10.0.0.7:4000"));
 *   w.commit();                                          // LOCAL and REMOTE buffers to the server
 *   w.fence(List.of(), true, 0);                         // every rank of my job, collecting data
 *   Value peer = w.get(new Proc(me.self().nspace(), 1), "my.addr");
 * }
 * }</pre>
 *
 * <p>Puts are kept here until {@link #commit}, which sends every key of each scope (not only new
 * ones), as libpmix does; a GLOBAL key goes in both the LOCAL and the REMOTE buffer, and keys
 * starting with {@code pmix} are dropped, as libpmix drops them. What a get brings back is kept:
 * the blobs of each process and the job data of each namespace a connect returned.
 */
public final class WireUp {
  /** Which peers may see a put ({@code pmix_scope_t}). */
  public enum Scope {
    /** Processes on the same node. */
    LOCAL,
    /** Processes on other nodes. */
    REMOTE,
    /** Everyone. */
    GLOBAL
  }

  /** The longest key libpmix accepts ({@code PMIX_MAX_KEYLEN}). */
  public static final int MAX_KEY_CHARS = 511;

  private final JdvmClient client;
  private final Map<String, Value> local = new LinkedHashMap<>();
  private final Map<String, Value> remote = new LinkedHashMap<>();
  private final Map<Proc, List<KVal>> received = new ConcurrentHashMap<>();
  private boolean commitsPending;

  WireUp(JdvmClient client) {
    this.client = client;
  }

  // ---- put and commit ------------------------------------------------------------------------

  /**
   * {@code PMIx_Put}: keeps the key for the next {@link #commit}; no message is sent. A key
   * starting with {@code pmix} is dropped, as libpmix drops it (the server already has that data).
   */
  public synchronized void put(Scope scope, String key, Value value) throws PmixException {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(value, "value");
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_CHARS) {
      throw new PmixException(PmixStatus.ERR_BAD_PARAM, "a key of 1 to 511 characters");
    }
    if (key.startsWith("pmix")) {
      return;
    }
    if (scope != Scope.REMOTE) {
      local.put(key, value);
    }
    if (scope != Scope.LOCAL) {
      remote.put(key, value);
    }
    commitsPending = true;
  }

  /**
   * {@code PMIx_Commit}: sends the LOCAL and REMOTE keys (all of them, if anything was put since
   * the last commit) and waits for the server's reply, whose content libpmix ignores.
   */
  public void commit() throws PmixException {
    JdvmClient.await(commitAsync());
  }

  public CompletableFuture<Void> commitAsync() {
    List<List<KVal>> sections = takePending();
    return client.call(
        CommitRequest.of(sections.get(0), sections.get(1)).write(client.format()),
        in -> {
          in.unpackStatus(); // libpmix wakes the caller and ignores the status
          return null;
        });
  }

  /**
   * The LOCAL and REMOTE keys to commit: every key of each scope if anything was put since the last
   * commit, else two {@code null}s (the commit then carries no section).
   */
  synchronized List<List<KVal>> takePending() {
    List<List<KVal>> sections = new ArrayList<>(2);
    sections.add(commitsPending ? kvals(local) : null);
    sections.add(commitsPending ? kvals(remote) : null);
    commitsPending = false;
    return sections;
  }

  private static List<KVal> kvals(Map<String, Value> m) {
    List<KVal> out = new ArrayList<>(m.size());
    m.forEach((k, v) -> out.add(new KVal(k, v)));
    return out;
  }

  // ---- fence ---------------------------------------------------------------------------------

  /**
   * {@code PMIx_Fence}: returns when every listed process has entered (none listed: every process
   * of this client's job).
   *
   * @param collect {@code PMIX_COLLECT_DATA}: the server gets the participants' data ready
   * @param timeoutSeconds {@code PMIX_TIMEOUT}, 0 for none
   * @throws PmixException e.g. {@code PMIX_ERR_TIMEOUT}, or {@code PMIX_ERR_PARTIAL_SUCCESS} when a
   *     participant left
   */
  public void fence(List<Proc> procs, boolean collect, int timeoutSeconds) throws PmixException {
    JdvmClient.await(fenceAsync(procs, collect, timeoutSeconds));
  }

  public CompletableFuture<Void> fenceAsync(List<Proc> procs, boolean collect, int timeoutSeconds) {
    List<Proc> set = procs.isEmpty() ? List.of(Proc.wildcard(client.self().nspace())) : procs;
    List<Info> dirs = new ArrayList<>(2);
    if (collect) {
      dirs.add(Info.of(PmixKeys.COLLECT_DATA, Value.bool(true)));
    }
    if (timeoutSeconds > 0) {
      dirs.add(Info.of(PmixKeys.TIMEOUT, Value.integer(timeoutSeconds)));
    }
    return client.call(
        new FenceRequest(set, dirs).write(client.format()),
        in -> JdvmClient.statusOrThrow(in, "fence"));
  }

  // ---- get -----------------------------------------------------------------------------------

  /** {@code PMIx_Get} of a peer's (or this process's own) key, waiting as the server decides. */
  public Value get(Proc proc, String key) throws PmixException {
    return JdvmClient.await(getAsync(proc, key, false, 0));
  }

  /**
   * {@code PMIx_Get}: this process's own puts and what earlier gets brought back are answered here;
   * anything else is asked of the server (GETNB), whose reply carries the process's whole blob.
   *
   * @param immediate {@code PMIX_IMMEDIATE}: NOT_FOUND at once rather than waiting for the key
   * @param timeoutSeconds {@code PMIX_TIMEOUT}, 0 for the server's default
   * @throws PmixException {@code PMIX_ERR_NOT_FOUND}, {@code PMIX_ERR_TIMEOUT}, ...
   */
  public Value get(Proc proc, String key, boolean immediate, int timeoutSeconds)
      throws PmixException {
    return JdvmClient.await(getAsync(proc, key, immediate, timeoutSeconds));
  }

  public CompletableFuture<Value> getAsync(
      Proc proc, String key, boolean immediate, int timeoutSeconds) {
    Value known = known(proc, key);
    if (known != null) {
      return CompletableFuture.completedFuture(known);
    }
    List<Info> dirs = new ArrayList<>(2);
    if (immediate) {
      dirs.add(Info.of(PmixKeys.IMMEDIATE, Value.bool(true)));
    }
    if (timeoutSeconds > 0) {
      dirs.add(Info.of(PmixKeys.TIMEOUT, Value.integer(timeoutSeconds)));
    }
    return client.call(
        new GetRequest(proc, key, dirs).write(client.format()),
        in -> {
          Map<Proc, List<KVal>> blobs = WireUpReplies.blobs(in, false);
          blobs.forEach(
              (owner, kvals) -> keep(owner.rank() == Proc.RANK_UNDEF ? proc : owner, kvals));
          Value v = WireUpReplies.find(blobs.get(proc), key);
          if (v == null) {
            v = WireUpReplies.find(blobs.get(Proc.wildcard(proc.nspace())), key);
          }
          if (v == null) {
            throw new PmixException(PmixStatus.ERR_NOT_FOUND, key + " of " + proc);
          }
          return v;
        });
  }

  private Value known(Proc proc, String key) {
    if (proc.equals(client.self())) {
      synchronized (this) {
        Value mine = local.containsKey(key) ? local.get(key) : remote.get(key);
        if (mine != null) {
          return mine;
        }
      }
    }
    return WireUpReplies.find(received.get(proc), key);
  }

  private void keep(Proc owner, List<KVal> kvals) {
    received.merge(
        owner,
        List.copyOf(kvals),
        (old, add) -> {
          List<KVal> all = new ArrayList<>(old);
          all.addAll(add);
          return all;
        });
  }

  // ---- publish, lookup, unpublish ------------------------------------------------------------

  /**
   * {@code PMIx_Publish}: the data (infos) with the range and persistence as directives.
   *
   * <pre>{@code
   * w.publish(List.of(Info.of("port-x:accept", Value.string(uri))), DataRange.SESSION,
   *     Persistence.FIRST_READ);
   * }</pre>
   */
  public void publish(List<Info> data, DataRange range, Persistence persistence)
      throws PmixException {
    JdvmClient.await(publishAsync(data, range, persistence));
  }

  public CompletableFuture<Void> publishAsync(
      List<Info> data, DataRange range, Persistence persistence) {
    if (data.isEmpty()) {
      return CompletableFuture.failedFuture(
          new PmixException(PmixStatus.ERR_BAD_PARAM, "nothing to publish"));
    }
    List<Info> all = new ArrayList<>(data);
    if (range != null) {
      all.add(Info.of(PmixKeys.RANGE, Value.of(DataType.DATA_RANGE, range.code())));
    }
    if (persistence != null) {
      all.add(Info.of(PmixKeys.PERSISTENCE, Value.of(DataType.PERSIST, persistence.code())));
    }
    return client.call(
        new PublishRequest(client.uid(), all).write(client.format()),
        in -> JdvmClient.statusOrThrow(in, "publish"));
  }

  /**
   * {@code PMIx_Lookup}: the published data for these keys, with who published each.
   *
   * @param wait {@code PMIX_WAIT}: until every key is published, instead of NOT_FOUND at once
   * @param timeoutSeconds {@code PMIX_TIMEOUT} for the wait, 0 for none
   * @throws PmixException {@code PMIX_ERR_NOT_FOUND}, {@code PMIX_ERR_TIMEOUT}
   */
  public List<PData> lookup(List<String> keys, boolean wait, int timeoutSeconds)
      throws PmixException {
    return JdvmClient.await(lookupAsync(keys, wait, timeoutSeconds));
  }

  public CompletableFuture<List<PData>> lookupAsync(
      List<String> keys, boolean wait, int timeoutSeconds) {
    if (keys.isEmpty()) {
      return CompletableFuture.failedFuture(
          new PmixException(PmixStatus.ERR_BAD_PARAM, "no key to look up"));
    }
    List<Info> dirs = new ArrayList<>(2);
    if (wait) {
      dirs.add(Info.of(PmixKeys.WAIT, Value.bool(true))); // as Open MPI sends it (§d.5)
    }
    if (timeoutSeconds > 0) {
      dirs.add(Info.of(PmixKeys.TIMEOUT, Value.integer(timeoutSeconds)));
    }
    return client.call(
        new KeysRequest(Commands.LOOKUPNB_CMD, client.uid(), keys, dirs).write(client.format()),
        WireUpReplies::lookupReply);
  }

  /** {@code PMIx_Unpublish} of these keys (none: everything this process published). */
  public void unpublish(List<String> keys) throws PmixException {
    JdvmClient.await(unpublishAsync(keys));
  }

  public CompletableFuture<Void> unpublishAsync(List<String> keys) {
    return client.call(
        new KeysRequest(Commands.UNPUBLISHNB_CMD, client.uid(), keys, List.of())
            .write(client.format()),
        in -> JdvmClient.statusOrThrow(in, "unpublish"));
  }

  // ---- connect, disconnect -------------------------------------------------------------------

  /**
   * {@code PMIx_Connect}: returns when every listed process has called it; returns, and keeps for
   * later gets, the job data of every other namespace of the set.
   */
  public Map<String, List<KVal>> connect(List<Proc> procs, int timeoutSeconds)
      throws PmixException {
    return JdvmClient.await(connectAsync(procs, timeoutSeconds));
  }

  public CompletableFuture<Map<String, List<KVal>>> connectAsync(
      List<Proc> procs, int timeoutSeconds) {
    return connection(Commands.CONNECTNB_CMD, procs, timeoutSeconds);
  }

  /** {@code PMIx_Disconnect}: first forgets what it kept of the other namespaces of the set. */
  public void disconnect(List<Proc> procs, int timeoutSeconds) throws PmixException {
    JdvmClient.await(disconnectAsync(procs, timeoutSeconds));
  }

  public CompletableFuture<Void> disconnectAsync(List<Proc> procs, int timeoutSeconds) {
    for (Proc p : procs) {
      if (!p.nspace().equals(client.self().nspace())) {
        received.keySet().removeIf(k -> k.nspace().equals(p.nspace()));
      }
    }
    return connection(Commands.DISCONNECTNB_CMD, procs, timeoutSeconds).thenApply(m -> null);
  }

  private CompletableFuture<Map<String, List<KVal>>> connection(
      int command, List<Proc> procs, int timeoutSeconds) {
    List<Info> dirs =
        timeoutSeconds > 0
            ? List.of(Info.of(PmixKeys.TIMEOUT, Value.integer(timeoutSeconds)))
            : List.of();
    return client.call(
        new ConnectNbRequest(command, procs, dirs).write(client.format()),
        in -> {
          Map<String, List<KVal>> jobs = new LinkedHashMap<>();
          WireUpReplies.blobs(in, true)
              .forEach(
                  (ns, kvals) -> {
                    jobs.put(ns.nspace(), kvals);
                    if (command == Commands.CONNECTNB_CMD) {
                      keep(ns, kvals);
                    }
                  });
          return jobs;
        });
  }

  // ---- log -----------------------------------------------------------------------------------

  /**
   * {@code PMIx_Log}: the data (e.g. {@code pmix.log.stderr} with a string) for the server to
   * deliver; {@code directives} as libpmix takes them. The timestamp is 0 (none).
   */
  public void log(List<Info> data, List<Info> directives) throws PmixException {
    JdvmClient.await(logAsync(data, directives));
  }

  public CompletableFuture<Void> logAsync(List<Info> data, List<Info> directives) {
    if (data.isEmpty()) {
      return CompletableFuture.failedFuture(
          new PmixException(PmixStatus.ERR_BAD_PARAM, "nothing to log"));
    }
    return client.call(
        new LogRequest(0, data, directives).write(client.format()),
        in -> JdvmClient.statusOrThrow(in, "log"));
  }
}
