package org.jdvm.endpoint.wireup;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Persistence;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * The DVM's published data (docs/wireup.md §c.4): what {@code PMIx_Publish} stores, {@code
 * PMIx_Lookup} finds (at once, or waiting for it) and {@code PMIx_Unpublish} removes; what Open
 * MPI's {@code MPI_Comm_spawn}, {@code MPI_Comm_connect/accept} and its context-id agreement
 * exchange through.
 *
 * <p>Ranges are read twice, as PRRTE's data server does: an entry is visible to a requester its
 * publisher's range admits, among the publishers the lookup's own range admits (default SESSION,
 * both ways). SESSION is the job's primary session, LOCAL its node, NAMESPACE its job, PROC_LOCAL
 * the process itself, GLOBAL everyone; RM and CUSTOM are not served. A key may be published once
 * per range: publishing it again where an entry with the same key and range admits the new
 * publisher is {@code PMIX_ERR_DUPLICATE_KEY} (the PMIx Standard's rule), and nothing is stored.
 *
 * <p>Persistence: FIRST_READ entries go when a lookup returns them; PROC ones when the publisher
 * ends, APP ones when its job ends, SESSION (and unread FIRST_READ) ones when its session ends;
 * INDEF ones stay until unpublished. A waiting lookup ({@code pmix.wait}) is answered by the
 * publish that completes it, or {@code PMIX_ERR_TIMEOUT} when the caller's timer says so ({@link
 * #expire}), or dropped when its requester goes; this class keeps no clock.
 *
 * <p>Everything is bounded ({@link Limits}): a refusal changes nothing. What all jobs share is
 * bounded per job as well as in total ({@link PublishShares}, docs/wireup.md "What one job may
 * hold"): a job's entries and bytes, and, smaller, those of its entries that may outlive it (INDEF,
 * SESSION, unread FIRST_READ), so that neither one job nor what ended jobs left behind can fill the
 * table for the others. Thread-safe; replies to waiting lookups run on the caller's thread after
 * the registry's lock is released.
 */
public final class PublishedData {
  /**
   * What the registry may hold.
   *
   * @param keysPerPublisher entries one process may have published at once
   * @param valueBytes the packed size of one value
   * @param entries entries of all publishers together
   * @param storeBytes the keys and packed values of all entries together
   * @param waitingLookups lookups parked at once
   * @param waitingPerRequester lookups one process may have parked at once
   * @param waitingKeys the keys all parked lookups wait for, together
   * @param shares what one job may hold of the above
   */
  public record Limits(
      int keysPerPublisher,
      int valueBytes,
      int entries,
      long storeBytes,
      int waitingLookups,
      int waitingPerRequester,
      int waitingKeys,
      PublishShares shares) {
    /** Far above Open MPI's four entries per spawn, far below what would strain the DVM. */
    public static final Limits DEFAULT =
        new Limits(1024, 1 << 20, 65_536, 64L << 20, 4096, 64, 65_536, PublishShares.DEFAULT);

    public Limits {
      Objects.requireNonNull(shares, "shares");
      if (keysPerPublisher < 1
          || valueBytes < 1
          || entries < 1
          || storeBytes < 1
          || waitingLookups < 1
          || waitingPerRequester < 1
          || waitingKeys < 1) {
        throw new IllegalArgumentException("every published-data limit must be at least 1");
      }
    }
  }

  /** One key to publish, its value, and the value's packed size. */
  public record Datum(String key, Value value, int bytes) {
    public Datum {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }
  }

  /** Answers a waiting lookup, once. */
  @FunctionalInterface
  public interface Reply {
    void answer(int status, List<PData> found);
  }

  /** Why a publish was refused, in the order the checks run. */
  public enum PublishRefusal {
    RANGE_NOT_SUPPORTED(PmixStatus.ERR_NOT_SUPPORTED),
    NO_DATA(PmixStatus.ERR_BAD_PARAM),
    KEY_TWICE_IN_REQUEST(PmixStatus.ERR_DUPLICATE_KEY),
    VALUE_TOO_LARGE(PmixStatus.ERR_OUT_OF_RESOURCE),
    DUPLICATE_KEY(PmixStatus.ERR_DUPLICATE_KEY),
    PUBLISHER_FULL(PmixStatus.ERR_OUT_OF_RESOURCE),
    STORE_FULL(PmixStatus.ERR_OUT_OF_RESOURCE),
    /**
     * The publisher's job holds its share of entries or bytes ({@link PublishShares#jobEntries}).
     */
    JOB_FULL(PmixStatus.ERR_OUT_OF_RESOURCE),
    /**
     * The job holds its share of entries that may outlive it ({@link PublishShares#lastingPerJob}).
     */
    JOB_LASTING_FULL(PmixStatus.ERR_OUT_OF_RESOURCE),
    /** All jobs hold the entries that may outlive them ({@link PublishShares#lastingEntries}). */
    LASTING_FULL(PmixStatus.ERR_OUT_OF_RESOURCE);

    private final int status;

    PublishRefusal(int status) {
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** Why a lookup was refused, in the order the checks run. */
  public enum LookupRefusal {
    RANGE_NOT_SUPPORTED(PmixStatus.ERR_NOT_SUPPORTED),
    NO_KEYS(PmixStatus.ERR_BAD_PARAM),
    TOO_MANY_WAITING(PmixStatus.ERR_OUT_OF_RESOURCE);

    private final int status;

    LookupRefusal(int status) {
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** Why an unpublish was refused. */
  public enum UnpublishRefusal {
    RANGE_NOT_SUPPORTED(PmixStatus.ERR_NOT_SUPPORTED),
    /** The caller named keys and published none of them (in the range, if it gave one). */
    NOT_FOUND(PmixStatus.ERR_NOT_FOUND);

    private final int status;

    UnpublishRefusal(int status) {
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** What a lookup comes to. */
  public sealed interface Lookup {
    /** Found now: the publisher, key and value of each key found, in the order asked. */
    record Found(List<PData> data) implements Lookup {
      public Found {
        data = List.copyOf(data);
      }
    }

    /** Not every key is there and the caller does not wait: {@code PMIX_ERR_NOT_FOUND}. */
    record NotFound() implements Lookup {}

    /** Waiting for publishes; {@link #expire} with this id ends the wait. */
    record Parked(long id) implements Lookup {}

    record Refused(LookupRefusal why) implements Lookup {}
  }

  private record Entry(
      Member publisher,
      String key,
      Value value,
      int bytes,
      DataRange range,
      Persistence persistence) {}

  private record Waiter(
      long id,
      Member requester,
      List<String> keys,
      DataRange range,
      int need,
      Object owner,
      Reply reply) {}

  private final Limits limits;
  private final JobShares jobs;
  private final Map<String, List<Entry>> byKey = new HashMap<>();
  private final Map<Proc, Integer> perPublisher = new HashMap<>();

  /** Jobs whose last publish was refused: one log line per episode of refusals (bounded). */
  private final Set<String> refusing = new HashSet<>();

  private final LinkedHashMap<Long, Waiter> waiters = new LinkedHashMap<>();
  private final Map<Proc, Integer> waitingPer = new HashMap<>();
  private int count;
  private long bytes;
  private int keysWaitedFor;
  private long nextWaiter;

  public PublishedData(Limits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.jobs = new JobShares(limits.shares());
  }

  // ---- publish ---------------------------------------------------------------------------------

  /**
   * Stores {@code data} under {@code publisher}'s name, all or nothing, then answers every waiting
   * lookup it completes.
   *
   * @param range who may see it; UNDEF is SESSION
   */
  public Optional<PublishRefusal> publish(
      Member publisher, List<Datum> data, DataRange range, Persistence persistence) {
    List<Runnable> answers = new ArrayList<>();
    Optional<PublishRefusal> refusal;
    synchronized (this) {
      refusal = publishLocked(publisher, data, normal(range), persistence, answers);
    }
    answers.forEach(Runnable::run);
    return refusal;
  }

  private Optional<PublishRefusal> publishLocked(
      Member publisher,
      List<Datum> data,
      DataRange range,
      Persistence persistence,
      List<Runnable> answers) {
    Optional<PublishRefusal> refusal = check(publisher, data, range, persistence);
    if (refusal.isPresent()) {
      return refusal;
    }
    refusing.remove(publisher.proc().nspace());
    for (Datum d : data) {
      Entry e = new Entry(publisher, d.key(), d.value(), d.bytes(), range, persistence);
      byKey.computeIfAbsent(d.key(), k -> new ArrayList<>(1)).add(e);
      perPublisher.merge(publisher.proc(), 1, Integer::sum);
      jobs.added(publisher.proc().nspace(), size(e), persistence);
      count++;
      bytes += size(e);
    }
    Iterator<Waiter> it = waiters.values().iterator();
    while (it.hasNext()) {
      Waiter w = it.next();
      List<Entry> found = resolve(w.requester, w.keys, w.range);
      if (found.size() >= w.need) {
        it.remove();
        unwait(w);
        List<PData> taken = take(found);
        answers.add(() -> w.reply.answer(PmixStatus.SUCCESS, taken));
      }
    }
    return Optional.empty();
  }

  private Optional<PublishRefusal> check(
      Member publisher, List<Datum> data, DataRange range, Persistence persistence) {
    if (!supported(range)) {
      return Optional.of(PublishRefusal.RANGE_NOT_SUPPORTED);
    }
    if (data.isEmpty()) {
      return Optional.of(PublishRefusal.NO_DATA);
    }
    Set<String> keys = new HashSet<>();
    for (Datum d : data) {
      if (!keys.add(d.key())) {
        return Optional.of(PublishRefusal.KEY_TWICE_IN_REQUEST);
      }
    }
    for (Datum d : data) {
      if (d.bytes() > limits.valueBytes()) {
        return Optional.of(PublishRefusal.VALUE_TOO_LARGE);
      }
    }
    for (Datum d : data) {
      for (Entry e : byKey.getOrDefault(d.key(), List.of())) {
        if (e.range == range && admits(range, e.publisher, publisher)) {
          return Optional.of(PublishRefusal.DUPLICATE_KEY);
        }
      }
    }
    if (perPublisher.getOrDefault(publisher.proc(), 0) + data.size() > limits.keysPerPublisher()) {
      return Optional.of(PublishRefusal.PUBLISHER_FULL);
    }
    long adding = 0;
    for (Datum d : data) {
      adding += d.key().length() + (long) d.bytes();
    }
    if (count + data.size() > limits.entries() || bytes + adding > limits.storeBytes()) {
      return Optional.of(PublishRefusal.STORE_FULL);
    }
    return jobs.check(publisher.proc().nspace(), data.size(), adding, persistence);
  }

  // ---- lookup ----------------------------------------------------------------------------------

  /**
   * Looks {@code keys} up as {@code requester} sees them.
   *
   * @param range the publishers to search; UNDEF is SESSION
   * @param waitFor 0: answer now, SUCCESS only if every key is there, else NOT_FOUND; n: wait until
   *     at least n of the keys (at most all) are there
   * @param owner what the waiting lookup dies with ({@link #ownerGone}): the requester's connection
   * @param reply answers a parked lookup later; not called when the answer is returned here
   */
  public Lookup lookup(
      Member requester,
      List<String> keys,
      DataRange range,
      int waitFor,
      Object owner,
      Reply reply) {
    DataRange r = normal(range);
    if (!supported(r)) {
      return new Lookup.Refused(LookupRefusal.RANGE_NOT_SUPPORTED);
    }
    List<String> distinct = List.copyOf(new LinkedHashSet<>(keys));
    if (distinct.isEmpty()) {
      return new Lookup.Refused(LookupRefusal.NO_KEYS);
    }
    synchronized (this) {
      List<Entry> found = resolve(requester, distinct, r);
      if (waitFor <= 0) {
        return found.size() == distinct.size()
            ? new Lookup.Found(take(found))
            : new Lookup.NotFound();
      }
      int need = Math.min(waitFor, distinct.size());
      if (found.size() >= need) {
        return new Lookup.Found(take(found));
      }
      if (waiters.size() >= limits.waitingLookups()
          || waitingPer.getOrDefault(requester.proc(), 0) >= limits.waitingPerRequester()
          || keysWaitedFor + distinct.size() > limits.waitingKeys()
          || !jobs.mayWait(requester.proc().nspace(), distinct.size())) {
        return new Lookup.Refused(LookupRefusal.TOO_MANY_WAITING);
      }
      long id = ++nextWaiter;
      waiters.put(id, new Waiter(id, requester, distinct, r, need, owner, reply));
      waitingPer.merge(requester.proc(), 1, Integer::sum);
      jobs.parked(requester.proc().nspace(), distinct.size());
      keysWaitedFor += distinct.size();
      return new Lookup.Parked(id);
    }
  }

  /**
   * The wait of a parked lookup is over: it is answered {@code PMIX_ERR_TIMEOUT}, if still parked.
   */
  public boolean expire(long id) {
    Waiter w;
    synchronized (this) {
      w = waiters.remove(id);
      if (w != null) {
        unwait(w);
      }
    }
    if (w == null) {
      return false;
    }
    w.reply.answer(PmixStatus.ERR_TIMEOUT, List.of());
    return true;
  }

  /** The entry each key resolves to for this requester (first published first), keys in order. */
  private List<Entry> resolve(Member requester, List<String> keys, DataRange range) {
    List<Entry> found = new ArrayList<>(keys.size());
    for (String key : keys) {
      for (Entry e : byKey.getOrDefault(key, List.of())) {
        if (admits(e.range, e.publisher, requester) && admits(range, requester, e.publisher)) {
          found.add(e);
          break;
        }
      }
    }
    return found;
  }

  /** What a lookup returns; FIRST_READ entries go as they are read. */
  private List<PData> take(List<Entry> found) {
    List<PData> out = new ArrayList<>(found.size());
    for (Entry e : found) {
      out.add(new PData(e.publisher.proc(), e.key, e.value));
      if (e.persistence == Persistence.FIRST_READ) {
        remove(e);
      }
    }
    return out;
  }

  // ---- unpublish -------------------------------------------------------------------------------

  /**
   * Removes what {@code requester} itself published under {@code keys} (none named: all of it), in
   * {@code range} or (null) any range. Others' entries are never touched.
   */
  public synchronized Optional<UnpublishRefusal> unpublish(
      Proc requester, List<String> keys, DataRange range) {
    DataRange r = range == null ? null : normal(range);
    if (r != null && !supported(r)) {
      return Optional.of(UnpublishRefusal.RANGE_NOT_SUPPORTED);
    }
    Set<String> named = new HashSet<>(keys);
    int removed =
        removeWhere(
            e ->
                e.publisher.proc().equals(requester)
                    && (named.isEmpty() || named.contains(e.key))
                    && (r == null || e.range == r));
    return removed == 0 && !named.isEmpty()
        ? Optional.of(UnpublishRefusal.NOT_FOUND)
        : Optional.empty();
  }

  // ---- endings
  // -----------------------------------------------------------------------------------

  /** Processes of a job ended: their PROC entries go, and their waiting lookups are dropped. */
  public synchronized void procsEnded(String nspace, Collection<Integer> ranks) {
    Set<Integer> gone = new HashSet<>(ranks);
    Predicate<Proc> ended = p -> p.nspace().equals(nspace) && gone.contains(p.rank());
    removeWhere(e -> e.persistence == Persistence.PROC && ended.test(e.publisher.proc()));
    dropWaiters(w -> ended.test(w.requester.proc()));
  }

  /** The job ended: its PROC and APP entries go, and its waiting lookups are dropped. */
  public synchronized void jobEnded(String nspace) {
    removeWhere(
        e ->
            (e.persistence == Persistence.PROC || e.persistence == Persistence.APP)
                && e.publisher.proc().nspace().equals(nspace));
    dropWaiters(w -> w.requester.proc().nspace().equals(nspace));
    refusing.remove(nspace);
  }

  /** The session ended: every entry its jobs published goes, but INDEF ones. */
  public synchronized void sessionEnded(long sessionId) {
    removeWhere(e -> e.persistence != Persistence.INDEF && e.publisher.sessionId() == sessionId);
  }

  /** The connection a waiting lookup would be answered on is gone: drop its lookups. */
  public synchronized void ownerGone(Object owner) {
    dropWaiters(w -> w.owner == owner);
  }

  // ---- state, for tests and the bounds
  // -----------------------------------------------------------

  /** How many entries are held. */
  public synchronized int entries() {
    return count;
  }

  /** The keys and packed values held, in bytes. */
  public synchronized long bytes() {
    return bytes;
  }

  /** How many entries the processes of {@code nspace} have published and are held. */
  public synchronized int entriesOf(String nspace) {
    return jobs.entriesOf(nspace);
  }

  /** How many entries that may outlive their job (INDEF, SESSION, FIRST_READ) are held. */
  public synchronized int lastingEntries() {
    return jobs.lastingEntries();
  }

  /** How many lookups are parked. */
  public synchronized int waiting() {
    return waiters.size();
  }

  /**
   * Whether a refusal of a publish by {@code nspace} begins an episode (the job's first since it
   * last published, or ever): what is logged, once, rather than every attempt.
   */
  public synchronized boolean refusalBeginsEpisode(String nspace) {
    return refusing.size() < limits.shares().jobWaiting() && refusing.add(nspace);
  }

  /** A refusal in words, with the bound it met: what the DVM's log says of it. */
  public String explain(PublishRefusal why) {
    return JobShares.explain(limits, why);
  }

  // ---- the range rule and bookkeeping
  // ------------------------------------------------------------

  private static DataRange normal(DataRange range) {
    return range == null || range == DataRange.UNDEF ? DataRange.SESSION : range;
  }

  private static boolean supported(DataRange range) {
    return switch (range) {
      case SESSION, GLOBAL, NAMESPACE, LOCAL, PROC_LOCAL -> true;
      default -> false;
    };
  }

  /** Whether {@code subject} falls within {@code range} as seen from {@code anchor}. */
  static boolean admits(DataRange range, Member anchor, Member subject) {
    return switch (range) {
      case SESSION -> anchor.sessionId() == subject.sessionId();
      case GLOBAL -> true;
      case NAMESPACE -> anchor.proc().nspace().equals(subject.proc().nspace());
      case LOCAL -> anchor.node() != null && anchor.node().equals(subject.node());
      case PROC_LOCAL -> anchor.proc().equals(subject.proc());
      default -> false;
    };
  }

  private int removeWhere(Predicate<Entry> doomed) {
    List<Entry> gone = new ArrayList<>();
    for (List<Entry> list : byKey.values()) {
      for (Entry e : list) {
        if (doomed.test(e)) {
          gone.add(e);
        }
      }
    }
    gone.forEach(this::remove);
    return gone.size();
  }

  private void remove(Entry e) {
    List<Entry> list = byKey.get(e.key);
    if (list == null || !list.removeIf(x -> x == e)) {
      throw new IllegalStateException("an entry that is not held: " + e.key);
    }
    if (list.isEmpty()) {
      byKey.remove(e.key);
    }
    perPublisher.computeIfPresent(e.publisher.proc(), (p, n) -> n == 1 ? null : n - 1);
    jobs.removed(e.publisher.proc().nspace(), size(e), e.persistence);
    count--;
    bytes -= size(e);
  }

  private static long size(Entry e) {
    return e.key.length() + (long) e.bytes;
  }

  private void dropWaiters(Predicate<Waiter> doomed) {
    Iterator<Waiter> it = waiters.values().iterator();
    while (it.hasNext()) {
      Waiter w = it.next();
      if (doomed.test(w)) {
        it.remove();
        unwait(w);
      }
    }
  }

  private void unwait(Waiter w) {
    waitingPer.computeIfPresent(w.requester.proc(), (p, n) -> n == 1 ? null : n - 1);
    jobs.unparked(w.requester.proc().nspace(), w.keys.size());
    keysWaitedFor -= w.keys.size();
  }
}
