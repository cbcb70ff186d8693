package org.jdvm.endpoint.wireup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntConsumer;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * The open fences (docs/wireup.md §c.2): one collective per {@link FenceSet}, which completes once
 * every participant has entered or is gone, answering each entrant once:
 *
 * <ul>
 *   <li>{@code SUCCESS} when everyone entered;
 *   <li>{@code PMIX_ERR_PARTIAL_SUCCESS} when a participant's process ended before the fence
 *       completed, once every other participant entered (ptl_base_sendrecv.c:93-138 there);
 *   <li>{@code PMIX_ERR_INVALID_ARG} when the participants disagreed about {@code pmix.collect}
 *       (pmix_server_ops.c:1024-1039 there);
 *   <li>{@code PMIX_ERR_TIMEOUT} when a participant's {@code pmix.timeout} ran out first.
 * </ul>
 *
 * <p>The fence never carries data: with or without {@code pmix.collect} its answer is a status, and
 * peers' data is fetched with gets ({@link ModexStore}).
 *
 * <p>Cost: an entry is O(log n) in the fence's named processes and O(1) otherwise; completion
 * answers each entrant once, O(n); a process's end visits each open fence once. Memory is one set
 * of entered processes per open fence, at most {@code maxOpenPerNamespace} fences per namespace.
 *
 * <p>Node agents: completion only counts processes that are accounted for ({@link #enter}ed or
 * ended). A node agent's relay enters once for all of its node's participants (docs/protocol.md
 * "Node agents"); each of them is still entered here, so the rules above hold unchanged.
 *
 * <p>Thread-safe; answers are given outside the lock.
 */
public final class Fences {
  /** One open collective. */
  private static final class Fence {
    final FenceSet set;
    final int count;
    final Map<Proc, IntConsumer> entrants = new HashMap<>();
    final Set<Proc> gone = new HashSet<>();
    Boolean collect;
    boolean collectDisagrees;
    Runnable cancelTimer;

    Fence(FenceSet set) {
      this.set = set;
      this.count = set.count();
    }

    int accounted() {
      int n = entrants.size();
      for (Proc p : gone) {
        if (!entrants.containsKey(p)) {
          n++;
        }
      }
      return n;
    }
  }

  private final int maxOpenPerNamespace;
  private final Timer timer;
  private final Map<List<Proc>, Fence> open = new HashMap<>();
  private final Map<String, Integer> openPerNamespace = new HashMap<>();
  private final Map<String, Set<Integer>> ended = new HashMap<>();

  /**
   * @param maxOpenPerNamespace the most fences naming one namespace that may be open at once
   * @param timer runs the fences' time limits
   */
  public Fences(int maxOpenPerNamespace, Timer timer) {
    if (maxOpenPerNamespace < 1) {
      throw new IllegalArgumentException("maxOpenPerNamespace " + maxOpenPerNamespace);
    }
    this.maxOpenPerNamespace = maxOpenPerNamespace;
    this.timer = Objects.requireNonNull(timer, "timer");
  }

  /**
   * {@code caller} enters the fence over {@code set}. Unless refused, {@code done} gets the fence's
   * status exactly once, when it completes.
   *
   * @param timeoutMs the caller's {@code pmix.timeout}, 0 for none; the first one given starts the
   *     fence's clock
   * @return SUCCESS when entered; {@code PMIX_ERR_BAD_PARAM} (not a participant, or already waiting
   *     in this fence) or {@code PMIX_ERR_OUT_OF_RESOURCE} (too many open fences) when refused, and
   *     then nothing changed
   */
  public int enter(FenceSet set, Proc caller, boolean collect, long timeoutMs, IntConsumer done) {
    Objects.requireNonNull(done, "done");
    List<Runnable> answers;
    synchronized (this) {
      if (!set.includes(caller)) {
        return PmixStatus.ERR_BAD_PARAM;
      }
      Fence f = open.get(set.procs());
      if (f == null) {
        for (String ns : set.namespaces()) {
          if (openPerNamespace.getOrDefault(ns, 0) >= maxOpenPerNamespace) {
            return PmixStatus.ERR_OUT_OF_RESOURCE;
          }
        }
        f = new Fence(set);
        for (Map.Entry<String, Set<Integer>> e : ended.entrySet()) {
          for (int rank : e.getValue()) {
            Proc p = new Proc(e.getKey(), rank);
            if (set.includes(p)) {
              f.gone.add(p);
            }
          }
        }
        open.put(set.procs(), f);
        for (String ns : set.namespaces()) {
          openPerNamespace.merge(ns, 1, Integer::sum);
        }
      } else if (f.entrants.containsKey(caller)) {
        return PmixStatus.ERR_BAD_PARAM;
      }
      f.entrants.put(caller, done);
      if (f.collect == null) {
        f.collect = collect;
      } else if (f.collect != collect) {
        f.collectDisagrees = true;
      }
      if (timeoutMs > 0 && f.cancelTimer == null) {
        Fence timed = f;
        f.cancelTimer = timer.after(timeoutMs, () -> expire(timed));
      }
      answers = completeIfDone(f);
    }
    answers.forEach(Runnable::run);
    return PmixStatus.SUCCESS;
  }

  /**
   * Processes ended: fences they take part in no longer wait for them and will complete with {@code
   * PMIX_ERR_PARTIAL_SUCCESS}; so will fences opened later that name them.
   */
  public void procsEnded(String nspace, List<Integer> ranks) {
    List<Runnable> answers = new ArrayList<>();
    synchronized (this) {
      ended.computeIfAbsent(nspace, k -> new HashSet<>()).addAll(ranks);
      for (Fence f : new ArrayList<>(open.values())) {
        for (int rank : ranks) {
          Proc p = new Proc(nspace, rank);
          if (f.set.includes(p)) {
            f.gone.add(p);
          }
        }
        answers.addAll(completeIfDone(f));
      }
    }
    answers.forEach(Runnable::run);
  }

  /**
   * A job ended: every one of its ranks is gone from the open fences, and its record of ended ranks
   * is dropped.
   */
  public void jobEnded(String nspace) {
    List<Runnable> answers = new ArrayList<>();
    synchronized (this) {
      ended.remove(nspace);
      for (Fence f : new ArrayList<>(open.values())) {
        Integer size = f.set.sizes().get(nspace);
        if (size == null) {
          continue;
        }
        for (int rank = 0; rank < size; rank++) {
          Proc p = new Proc(nspace, rank);
          if (f.set.includes(p)) {
            f.gone.add(p);
          }
        }
        answers.addAll(completeIfDone(f));
      }
    }
    answers.forEach(Runnable::run);
  }

  private void expire(Fence f) {
    List<Runnable> answers;
    synchronized (this) {
      if (open.get(f.set.procs()) != f) {
        return;
      }
      answers = close(f, PmixStatus.ERR_TIMEOUT);
    }
    answers.forEach(Runnable::run);
  }

  /** Closes {@code f} if everyone is accounted for; the answers to give, outside the lock. */
  private List<Runnable> completeIfDone(Fence f) {
    if (f.accounted() < f.count) {
      return List.of();
    }
    int status;
    if (f.collectDisagrees) {
      status = PmixStatus.ERR_INVALID_ARG;
    } else if (!f.gone.isEmpty()) {
      status = PmixStatus.ERR_PARTIAL_SUCCESS;
    } else {
      status = PmixStatus.SUCCESS;
    }
    return close(f, status);
  }

  private List<Runnable> close(Fence f, int status) {
    open.remove(f.set.procs());
    for (String ns : f.set.namespaces()) {
      openPerNamespace.computeIfPresent(ns, (k, n) -> n > 1 ? n - 1 : null);
    }
    if (f.cancelTimer != null) {
      f.cancelTimer.run();
    }
    List<Runnable> answers = new ArrayList<>(f.entrants.size());
    for (Map.Entry<Proc, IntConsumer> e : f.entrants.entrySet()) {
      if (!f.gone.contains(e.getKey())) {
        IntConsumer done = e.getValue();
        answers.add(() -> done.accept(status));
      }
    }
    return answers;
  }

  /** How many fences are open, for tests. */
  public synchronized int open() {
    return open.size();
  }
}
