package org.jdvm.endpoint.wireup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * What each rank committed, the modex (docs/wireup.md §c.1, §c.3, §c.11): per rank a LOCAL buffer
 * (what peers on its node see) and a REMOTE buffer (what other nodes see), each replaced key by key
 * on every commit, as libpmix's server keeps them (pmix_server_ops.c:241-258 there).
 *
 * <p>A get of a key the target has not committed waits for the target's next commits until its time
 * limit ({@link PmixStatus#ERR_TIMEOUT}), unless it asked not to wait ({@code pmix.immediate}:
 * {@link PmixStatus#ERR_NOT_FOUND} at once); a key the target committed only in the scope the
 * requester may not see is {@code NOT_FOUND} at once, since no commit will change that.
 *
 * <p>Bounds: a rank may hold at most {@code maxBytesPerRank} bytes (counted as its keys' size on
 * the wire) and all ranks of a job together {@code maxBytesPerJob}, past which a commit is refused
 * {@link PmixStatus#ERR_OUT_OF_RESOURCE} and changes nothing; the number of ranks is the core's.
 * Waiting gets are bounded by their connections' limit of waiting requests. A job's data is
 * forgotten when the job ends ({@link #forget}).
 *
 * <p>Thread-safe: commits come from connections' readers, gets' time limits from the timer. Each
 * answer is given exactly once, outside the lock.
 */
public final class ModexStore {
  /**
   * What a reserved key starts with: libpmix takes every such key for job data, never for something
   * a process put (its client drops such puts, pmix_client.c:1285-1290 there).
   */
  public static final String RESERVED_PREFIX = "pmix";

  /** One committed key, and how many bytes it took on the wire (what the bound counts). */
  public record Entry(String key, Value value, int bytes) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      if (bytes < 0) {
        throw new IllegalArgumentException("negative size " + bytes);
      }
    }
  }

  /**
   * A get's answer: {@code SUCCESS} with every key of the target the requester sees (libpmix sends
   * the whole blob, and the client finds its key in it), or an error and no keys.
   */
  public record Fetched(int status, List<KVal> kvals) {
    public Fetched {
      kvals = List.copyOf(kvals);
    }

    static Fetched error(int status) {
      return new Fetched(status, List.of());
    }
  }

  /** One rank's two buffers. */
  private static final class RankData {
    final Map<String, Entry> local = new LinkedHashMap<>();
    final Map<String, Entry> remote = new LinkedHashMap<>();
    long bytes;
  }

  /** A get waiting for a commit; answered once, by a commit, its time limit, or forget. */
  private record Waiter(
      Proc target, String key, Visibility visibility, Consumer<Fetched> done, AtomicBoolean over) {
    boolean finish() {
      return over.compareAndSet(false, true);
    }
  }

  private final long maxBytesPerRank;
  private final long maxBytesPerJob;
  private final Timer timer;
  private final Map<String, Long> jobBytes = new HashMap<>();
  private final Map<String, Map<Integer, RankData>> data = new HashMap<>();
  private final Map<Proc, List<Waiter>> waiting = new HashMap<>();

  /**
   * @param maxBytesPerRank the most bytes one rank's two buffers may hold
   * @param timer runs the time limits of waiting gets
   */
  public ModexStore(long maxBytesPerRank, Timer timer) {
    this(maxBytesPerRank, Long.MAX_VALUE, timer);
  }

  /**
   * @param maxBytesPerRank the most bytes one rank's two buffers may hold
   * @param maxBytesPerJob the most bytes all ranks of one job may hold together
   * @param timer runs the time limits of waiting gets
   */
  public ModexStore(long maxBytesPerRank, long maxBytesPerJob, Timer timer) {
    if (maxBytesPerRank < 1 || maxBytesPerJob < 1) {
      throw new IllegalArgumentException(
          "maxBytesPerRank " + maxBytesPerRank + ", maxBytesPerJob " + maxBytesPerJob);
    }
    this.maxBytesPerRank = maxBytesPerRank;
    this.maxBytesPerJob = maxBytesPerJob;
    this.timer = Objects.requireNonNull(timer, "timer");
  }

  /**
   * Keeps what {@code proc} committed: each key replaces the same key of its buffer, other keys
   * stay. Gets waiting for {@code proc} are answered if they now can be.
   *
   * @return SUCCESS, or {@code PMIX_ERR_OUT_OF_RESOURCE} (nothing kept) past the rank's or the
   *     job's bound
   */
  public int commit(Proc proc, List<Entry> local, List<Entry> remote) {
    List<Runnable> answers = new ArrayList<>();
    synchronized (this) {
      RankData d = data.computeIfAbsent(proc.nspace(), k -> new HashMap<>()).get(proc.rank());
      long bytes = d == null ? 0 : d.bytes;
      bytes += growth(d == null ? Map.of() : d.local, local);
      bytes += growth(d == null ? Map.of() : d.remote, remote);
      long before = d == null ? 0 : d.bytes;
      long job = jobBytes.getOrDefault(proc.nspace(), 0L) - before + bytes;
      if (bytes > maxBytesPerRank || job > maxBytesPerJob) {
        if (d == null && data.get(proc.nspace()).isEmpty()) {
          data.remove(proc.nspace());
        }
        return PmixStatus.ERR_OUT_OF_RESOURCE;
      }
      if (d == null) {
        d = new RankData();
        data.get(proc.nspace()).put(proc.rank(), d);
      }
      for (Entry e : local) {
        d.local.put(e.key(), e);
      }
      for (Entry e : remote) {
        d.remote.put(e.key(), e);
      }
      d.bytes = bytes;
      jobBytes.put(proc.nspace(), job);
      List<Waiter> ws = waiting.get(proc);
      if (ws != null) {
        for (int i = ws.size() - 1; i >= 0; i--) {
          Waiter w = ws.get(i);
          Fetched f = evaluate(d, w.key(), w.visibility());
          if (f != null) {
            ws.remove(i);
            answers.add(() -> answer(w, f));
          }
        }
        if (ws.isEmpty()) {
          waiting.remove(proc);
        }
      }
    }
    answers.forEach(Runnable::run);
    return PmixStatus.SUCCESS;
  }

  /**
   * How many bytes replacing {@code into}'s entries with {@code entries} adds (may be negative).
   */
  private static long growth(Map<String, Entry> into, List<Entry> entries) {
    Map<String, Integer> replaced = new HashMap<>();
    long delta = 0;
    for (Entry e : entries) {
      Integer before = replaced.put(e.key(), e.bytes());
      if (before != null) {
        delta -= before;
      } else {
        Entry old = into.get(e.key());
        if (old != null) {
          delta -= old.bytes();
        }
      }
      delta += e.bytes();
    }
    return delta;
  }

  /**
   * A get of {@code target}'s data as a requester with {@code visibility} sees it. {@code done}
   * gets the answer exactly once: at once when the key is there (or {@code key} is null: whatever
   * is visible now), or cannot come; otherwise after the target's next commit that has it, or
   * {@code PMIX_ERR_TIMEOUT} after {@code timeoutMs}.
   *
   * @param immediate answer {@code PMIX_ERR_NOT_FOUND} at once instead of waiting
   */
  public void get(
      Proc target,
      String key,
      Visibility visibility,
      boolean immediate,
      long timeoutMs,
      Consumer<Fetched> done) {
    Fetched now;
    Waiter w = null;
    synchronized (this) {
      Map<Integer, RankData> job = data.get(target.nspace());
      now = evaluate(job == null ? null : job.get(target.rank()), key, visibility);
      if (now == null && immediate) {
        now = Fetched.error(PmixStatus.ERR_NOT_FOUND);
      }
      if (now == null) {
        w = new Waiter(target, key, visibility, done, new AtomicBoolean());
        waiting.computeIfAbsent(target, k -> new ArrayList<>()).add(w);
      }
    }
    if (now != null) {
      done.accept(now);
      return;
    }
    Waiter waiter = w;
    timer.after(timeoutMs, () -> expire(waiter));
  }

  private void expire(Waiter w) {
    synchronized (this) {
      List<Waiter> ws = waiting.get(w.target());
      if (ws != null) {
        ws.remove(w);
        if (ws.isEmpty()) {
          waiting.remove(w.target());
        }
      }
    }
    answer(w, Fetched.error(PmixStatus.ERR_TIMEOUT));
  }

  private static void answer(Waiter w, Fetched f) {
    if (w.finish()) {
      w.done().accept(f);
    }
  }

  /** The answer now, or {@code null} to wait for a commit. */
  private static Fetched evaluate(RankData d, String key, Visibility visibility) {
    if (key == null) {
      return new Fetched(PmixStatus.SUCCESS, visible(d, visibility));
    }
    if (d == null) {
      return null;
    }
    boolean inLocal = d.local.containsKey(key);
    boolean inRemote = d.remote.containsKey(key);
    boolean seen =
        switch (visibility) {
          case LOCAL -> inLocal;
          case REMOTE -> inRemote;
          case OWN -> inLocal || inRemote;
        };
    if (seen) {
      return new Fetched(PmixStatus.SUCCESS, visible(d, visibility));
    }
    if (inLocal || inRemote) {
      // committed only in the scope this requester may not see: no commit will change that
      return Fetched.error(PmixStatus.ERR_NOT_FOUND);
    }
    return null;
  }

  private static List<KVal> visible(RankData d, Visibility visibility) {
    if (d == null) {
      return List.of();
    }
    List<KVal> kvals = new ArrayList<>();
    if (visibility != Visibility.REMOTE) {
      d.local.values().forEach(e -> kvals.add(new KVal(e.key(), e.value())));
    }
    if (visibility != Visibility.LOCAL) {
      for (Entry e : d.remote.values()) {
        if (visibility == Visibility.REMOTE || !d.local.containsKey(e.key())) {
          kvals.add(new KVal(e.key(), e.value()));
        }
      }
    }
    return kvals;
  }

  /**
   * Forgets a job's data (it ended); gets still waiting for its ranks are answered {@code
   * PMIX_ERR_NOT_FOUND}.
   */
  public void forget(String nspace) {
    List<Waiter> ended = new ArrayList<>();
    synchronized (this) {
      data.remove(nspace);
      jobBytes.remove(nspace);
      waiting
          .entrySet()
          .removeIf(
              e -> {
                if (e.getKey().nspace().equals(nspace)) {
                  ended.addAll(e.getValue());
                  return true;
                }
                return false;
              });
    }
    for (Waiter w : ended) {
      answer(w, Fetched.error(PmixStatus.ERR_NOT_FOUND));
    }
  }

  /** The bytes {@code proc} holds, for tests and the bench. */
  public synchronized long bytesOf(Proc proc) {
    Map<Integer, RankData> job = data.get(proc.nspace());
    RankData d = job == null ? null : job.get(proc.rank());
    return d == null ? 0 : d.bytes;
  }

  /** The bytes all ranks of {@code nspace} hold, for tests and the bench. */
  public synchronized long bytesOfJob(String nspace) {
    return jobBytes.getOrDefault(nspace, 0L);
  }

  /** How many namespaces have data here, for tests. */
  public synchronized int namespaces() {
    return data.size();
  }

  /** How many gets wait, for tests. */
  public synchronized int waiting() {
    int n = 0;
    for (List<Waiter> ws : waiting.values()) {
      n += ws.size();
    }
    return n;
  }
}
