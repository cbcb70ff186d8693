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
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * {@code PMIx_Connect} and {@code PMIx_Disconnect} across namespaces (docs/wireup.md §c.5): one
 * collective per kind and <em>set</em> of processes, complete when every member has entered,
 * whatever order each lists them in (Open MPI's two sides list the same ranks in different orders).
 * The caller expands WILDCARD entries into ranks before entering, so {@code (ns, WILDCARD)} and the
 * same ranks listed one by one are the same collective.
 *
 * <p>A member that ends, or whose connection goes after it entered, is lost, as libpmix's server
 * counts a lost connection: once everyone else has entered, the others get {@code
 * PMIX_ERR_PARTIAL_SUCCESS}. A member that ended before the collective was entered is lost from the
 * start. The caller's timer ends a collective with {@code PMIX_ERR_TIMEOUT} ({@link #expire}); this
 * class keeps no clock.
 *
 * <p>Counting is all a collective does, so it aggregates: a node agent would enter its local
 * members here and contribute one arrival of many processes upward, and the controller count nodes
 * instead of processes. Cost: entering is O(members) (the set is sorted to find the collective);
 * completion answers each member once; an ending scans the open collectives.
 *
 * <p>Thread-safe; answers run on the caller's thread after the lock is released.
 */
public final class Connects {
  /** Which collective. */
  public enum Kind {
    CONNECT,
    DISCONNECT
  }

  /** Answers one member, once. */
  @FunctionalInterface
  public interface Done {
    void done(int status, Completion completion);
  }

  /**
   * What the members of one finished collective share: its members, and one memo for whatever the
   * answers need (the other namespaces' job data is read once, not once per member).
   */
  public static final class Completion {
    private final List<Proc> members;
    private Object memo;

    Completion(List<Proc> members) {
      this.members = members;
    }

    /** The members, sorted. */
    public List<Proc> members() {
      return members;
    }

    /** The members' namespaces, each once, sorted. */
    public List<String> namespaces() {
      Set<String> ns = new LinkedHashSet<>();
      for (Proc p : members) {
        ns.add(p.nspace());
      }
      return List.copyOf(ns);
    }

    /** The value {@code make} gives the first time; every member gets the same one. */
    @SuppressWarnings("unchecked")
    public synchronized <T> T once(Supplier<T> make) {
      if (memo == null) {
        memo = Objects.requireNonNull(make.get(), "memo");
      }
      return (T) memo;
    }
  }

  /** Why a member could not enter, in the order the checks run. */
  public enum Refusal {
    NOT_A_MEMBER(PmixStatus.ERR_BAD_PARAM),
    TOO_MANY_OPEN(PmixStatus.ERR_OUT_OF_RESOURCE),
    ALREADY_ENTERED(PmixStatus.ERR_BAD_PARAM);

    private final int status;

    Refusal(int status) {
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** What entering comes to. */
  public sealed interface Entering {
    /** Entered (and perhaps already answered); {@link #expire} with this id ends the wait. */
    record Entered(long id) implements Entering {}

    record Refused(Refusal why) implements Entering {}
  }

  private record Key(Kind kind, List<Proc> members) {}

  private record Arrival(Proc proc, Object owner, Done done) {}

  private static final class Collective {
    final long id;
    final Key key;
    final Set<Proc> members;
    final Set<Proc> waitingFor;
    final Map<Proc, Arrival> arrived = new LinkedHashMap<>();
    boolean lostAny;

    Collective(long id, Key key) {
      this.id = id;
      this.key = key;
      this.members = new HashSet<>(key.members);
      this.waitingFor = new HashSet<>(key.members);
    }

    void lose(Proc p) {
      if (!members.contains(p)) {
        return;
      }
      if (waitingFor.remove(p) || arrived.remove(p) != null) {
        lostAny = true;
      }
    }
  }

  private final int maxOpen;
  private final Map<Key, Collective> open = new HashMap<>();
  private final Map<Long, Collective> byId = new HashMap<>();
  private long nextId;

  /**
   * @param maxOpen collectives that may be open at once
   */
  public Connects(int maxOpen) {
    if (maxOpen < 1) {
      throw new IllegalArgumentException("maxOpen must be at least 1");
    }
    this.maxOpen = maxOpen;
  }

  /**
   * {@code caller} enters the collective of {@code kind} over {@code members} (explicit ranks).
   *
   * @param ended members already known to have ended: lost from the start
   * @param owner what this arrival dies with ({@link #ownerGone}): the caller's connection
   */
  public Entering enter(
      Kind kind,
      Proc caller,
      Collection<Proc> members,
      Collection<Proc> ended,
      Object owner,
      Done done) {
    List<Runnable> answers = new ArrayList<>();
    Entering result;
    synchronized (this) {
      result = enterLocked(kind, caller, members, ended, owner, done, answers);
    }
    answers.forEach(Runnable::run);
    return result;
  }

  private Entering enterLocked(
      Kind kind,
      Proc caller,
      Collection<Proc> members,
      Collection<Proc> ended,
      Object owner,
      Done done,
      List<Runnable> answers) {
    Key key = new Key(kind, List.copyOf(new TreeSet<>(members)));
    if (!key.members.contains(caller)) {
      return new Entering.Refused(Refusal.NOT_A_MEMBER);
    }
    Collective c = open.get(key);
    if (c == null) {
      if (open.size() >= maxOpen) {
        return new Entering.Refused(Refusal.TOO_MANY_OPEN);
      }
      c = new Collective(++nextId, key);
      open.put(key, c);
      byId.put(c.id, c);
    } else if (c.arrived.containsKey(caller)) {
      return new Entering.Refused(Refusal.ALREADY_ENTERED);
    }
    for (Proc p : ended) {
      if (!p.equals(caller)) {
        c.lose(p);
      }
    }
    c.waitingFor.remove(caller);
    c.arrived.put(caller, new Arrival(caller, owner, done));
    completeIfDone(c, answers);
    return new Entering.Entered(c.id);
  }

  /**
   * The wait of the collective is over: every member that entered gets {@code PMIX_ERR_TIMEOUT}.
   */
  public boolean expire(long id) {
    List<Runnable> answers = new ArrayList<>();
    synchronized (this) {
      Collective c = byId.get(id);
      if (c == null) {
        return false;
      }
      close(c, PmixStatus.ERR_TIMEOUT, answers);
    }
    answers.forEach(Runnable::run);
    return true;
  }

  /** Processes of a job ended: each is lost to every open collective it is a member of. */
  public void procsEnded(String nspace, Collection<Integer> ranks) {
    Set<Integer> gone = new HashSet<>(ranks);
    loseWhere(p -> p.nspace().equals(nspace) && gone.contains(p.rank()));
  }

  /** The job ended: each of its processes is lost. */
  public void jobEnded(String nspace) {
    loseWhere(p -> p.nspace().equals(nspace));
  }

  /** A connection went: every member that entered through it is lost. */
  public void ownerGone(Object owner) {
    List<Runnable> answers = new ArrayList<>();
    synchronized (this) {
      for (Collective c : List.copyOf(open.values())) {
        List<Proc> gone = new ArrayList<>();
        for (Arrival a : c.arrived.values()) {
          if (a.owner == owner) {
            gone.add(a.proc);
          }
        }
        if (!gone.isEmpty()) {
          gone.forEach(c::lose);
          completeIfDone(c, answers);
        }
      }
    }
    answers.forEach(Runnable::run);
  }

  /** How many collectives are open. */
  public synchronized int open() {
    return open.size();
  }

  private void loseWhere(Predicate<Proc> lost) {
    List<Runnable> answers = new ArrayList<>();
    synchronized (this) {
      for (Collective c : List.copyOf(open.values())) {
        boolean changed = false;
        for (Proc p : c.key.members) {
          if (lost.test(p)) {
            c.lose(p);
            changed = true;
          }
        }
        if (changed) {
          completeIfDone(c, answers);
        }
      }
    }
    answers.forEach(Runnable::run);
  }

  private void completeIfDone(Collective c, List<Runnable> answers) {
    if (!c.waitingFor.isEmpty()) {
      return;
    }
    close(c, c.lostAny ? PmixStatus.ERR_PARTIAL_SUCCESS : PmixStatus.SUCCESS, answers);
  }

  private void close(Collective c, int status, List<Runnable> answers) {
    open.remove(c.key);
    byId.remove(c.id);
    Completion completion = new Completion(c.key.members);
    for (Iterator<Arrival> it = c.arrived.values().iterator(); it.hasNext(); ) {
      Arrival a = it.next();
      it.remove();
      answers.add(() -> a.done.done(status, completion));
    }
  }
}
