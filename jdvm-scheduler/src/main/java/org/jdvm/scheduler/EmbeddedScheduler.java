package org.jdvm.scheduler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.pmix.PmixStatus;

/**
 * The embedded scheduler: a pool of spare nodes that the DVM may be granted, as a deterministic
 * state machine. Time comes in with every call; the caller arms a timer for {@link
 * #nextDeadlineNs()} and calls {@link #tick} when it fires. Every call returns the events it
 * produced, in order.
 *
 * <p>Policy (architecture.md §5, decisions.md #4 and #8; nothing here is the DVM's own initiative):
 *
 * <ul>
 *   <li>Grants by count take free nodes in pool order, unlent before lent; grants by name take
 *       exactly those nodes.
 *   <li>An ask is served at once when its nodes are free and no earlier ask is waiting. Otherwise
 *       it is refused with {@code PMIX_ERR_OUT_OF_RESOURCE} if it is required, and waits in a
 *       strict FIFO queue (no overtaking, so a large ask cannot starve) until it can be served or
 *       is cancelled. An ask for more nodes than the whole pool holds, or for nodes the pool does
 *       not have, is refused either way.
 *   <li>An allocation with a time limit is reclaimed as a whole at its deadline; if its requester
 *       asked for a warning, a {@link SchedulerEvent.Warning} precedes it by that many seconds.
 *       EXTEND adds time to the deadline and may renew the warning.
 *   <li>Any loan is accepted (a LEND ask is granted with no nodes, whatever the allocation): lent
 *       nodes take nothing from the pool.
 *   <li>Lending (rfc0005-allocation-api.txt "Description"): lent nodes return to the pool with the
 *       lender's claim falling due after the lend period. Until then another allocation may borrow
 *       them; when the claim falls due they are reclaimed from the borrower and held for the
 *       lender, who gets them back with REAQUIRE.
 * </ul>
 */
public final class EmbeddedScheduler {
  private static final long NS_PER_SECOND = 1_000_000_000L;

  private final Map<String, PoolNode> pool = new LinkedHashMap<>();
  private final Map<String, EmbeddedAllocation> allocations = new LinkedHashMap<>();
  private final ArrayDeque<Ask> queue = new ArrayDeque<>();
  private long nextAllocation = 1;

  /** How many answers are remembered, so an ask made again after a DVM restart gets the same. */
  static final int REMEMBERED_ANSWERS = 4096;

  private final LinkedHashMap<String, SchedulerEvent> answers = new LinkedHashMap<>();

  /** A scheduler owning these spare nodes, none of them granted. */
  public EmbeddedScheduler(List<NodeGrant> spareNodes) {
    for (NodeGrant n : spareNodes) {
      if (pool.put(n.name(), new PoolNode(n)) != null) {
        throw new IllegalArgumentException("node " + n.name() + " listed twice");
      }
    }
  }

  // ---- the port ------------------------------------------------------------------------------

  /**
   * Asks for nodes; the answer is a Granted, Refused or Queued event. An ask already answered (the
   * DVM asks again after a restart, not knowing whether the answer reached it) gets the same answer
   * again; an ask already waiting in the queue gets nothing new.
   */
  public List<SchedulerEvent> ask(Ask ask, long nowNs) {
    SchedulerEvent answered = answers.get(ask.askId());
    if (answered != null) {
      return List.of(answered);
    }
    if (queue.stream().anyMatch(q -> q.askId().equals(ask.askId()))) {
      return List.of();
    }
    List<SchedulerEvent> out = new ArrayList<>();
    if (ask.kind() == Ask.Kind.LEND) {
      // Every loan is welcome: it takes nothing from the pool, and the nodes follow with lend().
      out.add(new SchedulerEvent.Granted(ask.askId(), ask.allocation(), List.of(), null));
      return out;
    }
    EmbeddedChoice.Refusal refusal = EmbeddedChoice.refusal(ask, pool, allocations);
    if (refusal != null) {
      out.add(new SchedulerEvent.Refused(ask.askId(), refusal.status(), refusal.reason()));
      return out;
    }
    // Strict FIFO: while asks wait, a newcomer may not take nodes ahead of them.
    List<PoolNode> nodes = queue.isEmpty() ? EmbeddedChoice.pick(ask, pool, allocations) : null;
    if (nodes != null) {
      out.add(grant(ask, nodes, nowNs));
    } else if (ask.required()) {
      out.add(
          new SchedulerEvent.Refused(
              ask.askId(),
              PmixStatus.ERR_OUT_OF_RESOURCE,
              EmbeddedChoice.shortfall(ask, pool, queue)));
    } else {
      queue.addLast(ask);
      out.add(new SchedulerEvent.Queued(ask.askId(), queue.size()));
    }
    return out;
  }

  /** Withdraws a queued ask. An ask that is not queued (answered already) is left alone. */
  public List<SchedulerEvent> cancel(String askId, long nowNs) {
    for (Iterator<Ask> it = queue.iterator(); it.hasNext(); ) {
      if (it.next().askId().equals(askId)) {
        it.remove();
        List<SchedulerEvent> out = new ArrayList<>();
        out.add(new SchedulerEvent.Cancelled(askId));
        serveQueue(nowNs, out);
        return out;
      }
    }
    return List.of();
  }

  /** Takes nodes back from an allocation for good; an allocation left with nothing is ended. */
  public List<SchedulerEvent> release(String allocation, List<String> nodes, long nowNs) {
    EmbeddedAllocation a = allocations.get(allocation);
    List<SchedulerEvent> out = new ArrayList<>();
    if (a == null) {
      return out;
    }
    for (String name : nodes) {
      if (a.nodes.remove(name)) {
        pool.get(name).holder = null;
      }
    }
    if (a.nodes.isEmpty() && a.lent.isEmpty()) {
      allocations.remove(allocation);
    }
    serveQueue(nowNs, out);
    return out;
  }

  /** Lends nodes of an allocation to the pool; the allocation's claim falls due after a while. */
  public List<SchedulerEvent> lend(
      String allocation, List<String> nodes, long lendSeconds, long nowNs) {
    EmbeddedAllocation a = allocations.get(allocation);
    List<SchedulerEvent> out = new ArrayList<>();
    if (a == null) {
      return out;
    }
    long claimAt = nowNs + lendSeconds * NS_PER_SECOND;
    for (String name : nodes) {
      if (a.nodes.remove(name)) {
        PoolNode n = pool.get(name);
        n.holder = null;
        n.lender = allocation;
        n.claimAtNs = claimAt;
        a.lent.add(name);
      }
    }
    serveQueue(nowNs, out);
    return out;
  }

  /** Ends an allocation: its nodes return to the pool and its claims on lent nodes lapse. */
  public List<SchedulerEvent> end(String allocation, long nowNs) {
    List<SchedulerEvent> out = new ArrayList<>();
    EmbeddedAllocation a = allocations.get(allocation);
    if (a != null) {
      forget(a);
      serveQueue(nowNs, out);
    }
    return out;
  }

  private void forget(EmbeddedAllocation a) {
    allocations.remove(a.id);
    for (String name : a.nodes) {
      pool.get(name).holder = null;
    }
    for (String name : a.lent) {
      pool.get(name).clearClaim();
    }
  }

  /** Advances the clock: warnings, expiries and claims that have fallen due. */
  public List<SchedulerEvent> tick(long nowNs) {
    List<SchedulerEvent> out = new ArrayList<>();
    for (EmbeddedAllocation a : List.copyOf(allocations.values())) {
      if (a.deadlineNs != null && a.deadlineNs <= nowNs) {
        out.add(new SchedulerEvent.Reclaimed(a.id, List.copyOf(a.nodes), true));
        forget(a);
      } else if (a.warnAtNs() != null && !a.warned && a.warnAtNs() <= nowNs) {
        a.warned = true;
        long remaining = Math.ceilDiv(a.deadlineNs - nowNs, NS_PER_SECOND);
        out.add(new SchedulerEvent.Warning(a.id, remaining));
      }
    }
    for (PoolNode n : pool.values()) {
      if (n.lender != null && !n.claimDue && n.claimAtNs <= nowNs) {
        n.claimDue = true;
        if (n.holder != null) {
          EmbeddedAllocation borrower = allocations.get(n.holder);
          borrower.nodes.remove(n.grant.name());
          out.add(new SchedulerEvent.Reclaimed(borrower.id, List.of(n.grant.name()), false));
          n.holder = null;
        }
      }
    }
    serveQueue(nowNs, out);
    return out;
  }

  /** When {@link #tick} next has something to do, or {@link Long#MAX_VALUE}. */
  public long nextDeadlineNs() {
    long next = Long.MAX_VALUE;
    for (EmbeddedAllocation a : allocations.values()) {
      if (a.deadlineNs != null) {
        next = Math.min(next, a.deadlineNs);
      }
      Long warnAt = a.warnAtNs();
      if (warnAt != null && !a.warned) {
        next = Math.min(next, warnAt);
      }
    }
    for (PoolNode n : pool.values()) {
      if (n.lender != null && !n.claimDue) {
        next = Math.min(next, n.claimAtNs);
      }
    }
    return next;
  }

  // ---- surviving a restart (docs/journal.md "The embedded scheduler") --------------------------

  /** Remembers the answers among {@code events}, the newest {@link #REMEMBERED_ANSWERS}. */
  public void remember(List<SchedulerEvent> events) {
    for (SchedulerEvent e : events) {
      String askId =
          switch (e) {
            case SchedulerEvent.Granted g -> g.askId();
            case SchedulerEvent.Refused r -> r.askId();
            case SchedulerEvent.Cancelled c -> c.askId();
            default -> null;
          };
      if (askId != null) {
        answers.put(askId, e);
        if (answers.size() > REMEMBERED_ANSWERS) {
          answers.remove(answers.keySet().iterator().next());
        }
      }
    }
  }

  /**
   * The state of the scheduler, to journal after each step; its answers are journaled one by one
   * (and forgotten once the DVM has them), so a step costs the size of the pool, not of history.
   */
  public record Saved(
      long nextAllocation,
      List<SavedNode> pool,
      List<SavedAllocation> allocations,
      List<Ask> queue) {}

  public record SavedNode(
      NodeGrant grant, String holder, String lender, long claimAtNs, boolean claimDue) {}

  public record SavedAllocation(
      String id,
      List<String> nodes,
      List<String> lent,
      Long deadlineNs,
      Long warnSeconds,
      boolean warned) {}

  public Saved save() {
    List<SavedNode> nodes = new ArrayList<>();
    for (PoolNode n : pool.values()) {
      nodes.add(new SavedNode(n.grant, n.holder, n.lender, n.claimAtNs, n.claimDue));
    }
    List<SavedAllocation> allocs = new ArrayList<>();
    for (EmbeddedAllocation a : allocations.values()) {
      allocs.add(
          new SavedAllocation(
              a.id,
              List.copyOf(a.nodes),
              List.copyOf(a.lent),
              a.deadlineNs,
              a.warnSeconds,
              a.warned));
    }
    return new Saved(nextAllocation, nodes, allocs, List.copyOf(queue));
  }

  /** The answers among {@code events} (what a restart must be able to give again). */
  public static List<SchedulerEvent> answersAmong(List<SchedulerEvent> events) {
    return events.stream()
        .filter(
            e ->
                e instanceof SchedulerEvent.Granted
                    || e instanceof SchedulerEvent.Refused
                    || e instanceof SchedulerEvent.Cancelled)
        .toList();
  }

  /**
   * A scheduler in the state {@link #save} described, remembering {@code answers} (those the DVM
   * may not have received).
   */
  public static EmbeddedScheduler restore(Saved saved, List<SchedulerEvent> answers) {
    List<NodeGrant> grants = new ArrayList<>();
    saved.pool().forEach(n -> grants.add(n.grant()));
    EmbeddedScheduler s = new EmbeddedScheduler(grants);
    for (SavedNode n : saved.pool()) {
      PoolNode p = s.pool.get(n.grant().name());
      p.holder = n.holder();
      p.lender = n.lender();
      p.claimAtNs = n.claimAtNs();
      p.claimDue = n.claimDue();
    }
    for (SavedAllocation a : saved.allocations()) {
      EmbeddedAllocation x = new EmbeddedAllocation(a.id());
      x.nodes.addAll(a.nodes());
      x.lent.addAll(a.lent());
      x.deadlineNs = a.deadlineNs();
      x.warnSeconds = a.warnSeconds();
      x.warned = a.warned();
      s.allocations.put(x.id, x);
    }
    s.queue.addAll(saved.queue());
    s.remember(answers);
    s.nextAllocation = saved.nextAllocation();
    return s;
  }

  /**
   * After a restart (docs/journal.md "The embedded scheduler"): gives back to the pool what this
   * state says an allocation holds but the recovered DVM does not — a release or an end whose step
   * a crash lost after the DVM's journal had already marked the release done, which would otherwise
   * keep those nodes from every later ask. An allocation the DVM does not know at all is ended (its
   * claims on lent nodes lapse); nodes of one it knows that it does not hold are released; an
   * allocation granted to an ask the DVM still waits on is left alone, since the ask is made again
   * and gets the same answer. Then waiting asks are served from what came free.
   *
   * @param held for each allocation the DVM has (by this scheduler's id), the nodes it holds of it
   * @param pendingAsks the asks the DVM still waits on
   * @return the events of serving the queue
   */
  public List<SchedulerEvent> reconcile(
      Map<String, ? extends java.util.Collection<String>> held,
      Set<String> pendingAsks,
      long nowNs) {
    Set<String> granting = new java.util.HashSet<>();
    for (SchedulerEvent e : answers.values()) {
      if (e instanceof SchedulerEvent.Granted g && pendingAsks.contains(g.askId())) {
        granting.add(g.allocation());
      }
    }
    for (EmbeddedAllocation a : List.copyOf(allocations.values())) {
      if (granting.contains(a.id)) {
        continue;
      }
      java.util.Collection<String> holds = held.get(a.id);
      if (holds == null) {
        forget(a);
        continue;
      }
      for (String name : List.copyOf(a.nodes)) {
        if (!holds.contains(name)) {
          a.nodes.remove(name);
          pool.get(name).holder = null;
        }
      }
    }
    List<SchedulerEvent> out = new ArrayList<>();
    serveQueue(nowNs, out);
    return out;
  }

  /** Allocations whose timeout warning went out, by the scheduler's id. */
  public List<String> warned() {
    return allocations.values().stream().filter(a -> a.warned).map(a -> a.id).toList();
  }

  /** The warning that went out for an allocation, as it was sent, or {@code null}. */
  public SchedulerEvent.Warning warningOf(String allocation, long nowNs) {
    EmbeddedAllocation a = allocations.get(allocation);
    if (a == null || !a.warned || a.deadlineNs == null) {
      return null;
    }
    return new SchedulerEvent.Warning(
        a.id, Math.max(0, Math.ceilDiv(a.deadlineNs - nowNs, NS_PER_SECOND)));
  }

  // ---- views for tests and the operator ------------------------------------------------------

  /** Names of the nodes no allocation holds (lent nodes included). */
  public List<String> freeNodes() {
    return pool.values().stream().filter(n -> n.holder == null).map(n -> n.grant.name()).toList();
  }

  /** The nodes an allocation holds now, or an empty list. */
  public List<String> nodesOf(String allocation) {
    EmbeddedAllocation a = allocations.get(allocation);
    return a == null ? List.of() : List.copyOf(a.nodes);
  }

  /** Ask ids waiting in the queue, head first. */
  public List<String> queued() {
    return queue.stream().map(Ask::askId).toList();
  }

  /** The pool, in order. */
  public List<NodeGrant> pool() {
    return pool.values().stream().map(n -> n.grant).toList();
  }

  // ---- decisions -----------------------------------------------------------------------------

  private SchedulerEvent.Granted grant(Ask ask, List<PoolNode> nodes, long nowNs) {
    EmbeddedAllocation a;
    if (ask.kind() == Ask.Kind.NEW) {
      a = new EmbeddedAllocation("s" + nextAllocation++);
      allocations.put(a.id, a);
      if (ask.timeLimitSeconds() != null) {
        a.deadlineNs = nowNs + ask.timeLimitSeconds() * NS_PER_SECOND;
      }
    } else {
      a = allocations.get(ask.allocation());
      if (ask.timeLimitSeconds() != null) {
        long base = a.deadlineNs != null ? a.deadlineNs : nowNs;
        a.deadlineNs = base + ask.timeLimitSeconds() * NS_PER_SECOND;
        a.warned = false;
      }
    }
    if (ask.warnSeconds() != null) {
      a.warnSeconds = ask.warnSeconds();
      a.warned = false;
    }
    List<NodeGrant> granted = new ArrayList<>();
    for (PoolNode n : nodes) {
      n.holder = a.id;
      if (a.id.equals(n.lender)) {
        a.lent.remove(n.grant.name());
        n.clearClaim();
      }
      a.nodes.add(n.grant.name());
      granted.add(n.grant);
    }
    return new SchedulerEvent.Granted(ask.askId(), a.id, granted, a.deadlineNs);
  }

  private void serveQueue(long nowNs, List<SchedulerEvent> out) {
    while (!queue.isEmpty()) {
      Ask head = queue.peekFirst();
      EmbeddedChoice.Refusal refusal = EmbeddedChoice.refusal(head, pool, allocations);
      if (refusal != null) {
        // Its allocation ended while it waited: it can never be served now.
        queue.pollFirst();
        out.add(new SchedulerEvent.Refused(head.askId(), refusal.status(), refusal.reason()));
        continue;
      }
      List<PoolNode> nodes = EmbeddedChoice.pick(head, pool, allocations);
      if (nodes == null) {
        return;
      }
      queue.pollFirst();
      out.add(grant(head, nodes, nowNs));
    }
  }
}
