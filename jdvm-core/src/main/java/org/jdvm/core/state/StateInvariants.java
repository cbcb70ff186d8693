package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.AskKind;
import org.jdvm.core.JobKind;
import org.jdvm.core.NodeFill;

/**
 * The named invariants of the whole state, checked by a full walk (O(state), so not on every
 * command in production; the simulation and the scenario runner check them after every step). The
 * per-change preconditions in {@link Mutator} stay on always.
 */
public final class StateInvariants {
  private StateInvariants() {}

  /** Throws {@link IllegalStateException} listing every broken invariant. */
  public static void verify(State state) {
    List<String> broken = violations(state);
    if (!broken.isEmpty()) {
      throw new IllegalStateException("core invariants broken:\n  " + String.join("\n  ", broken));
    }
  }

  public static List<String> violations(State state) {
    List<String> out = new ArrayList<>();
    everyNodeInExactlyOneSession(state, out);
    slotsMatchProcesses(state, out);
    ownerSetsHoldOnlyLiveNamespaces(state, out);
    liveDescendantCountsAreExact(state, out);
    noDispositionIsOverdue(state, out);
    claimsBelongToOpenAsks(state, out);
    if (state.tornDown()
        && (state.allocations().size() > 0
            || state.asks().size() > 0
            || state.jobs().all().stream().anyMatch(Job::live))) {
      out.add("after teardown something is still alive");
    }
    return out;
  }

  static void everyNodeInExactlyOneSession(State state, List<String> out) {
    Map<Node, Pool> seen = new IdentityHashMap<>();
    List<Pool> pools = new ArrayList<>();
    pools.add(state.nodes().defaultPool());
    for (Allocation a : state.allocations().all()) {
      if (a.pool() != null) {
        pools.add(a.pool());
      }
      for (Node n : a.nodes()) {
        if (n.allocation() != a) {
          out.add("node " + n + " listed by " + a + " but belongs to " + n.allocation());
        }
      }
    }
    for (Pool p : pools) {
      for (Node n : p.nodes()) {
        if (seen.put(n, p) != null) {
          out.add("node " + n + " is in two sessions");
        }
        if (n.pool() != p) {
          out.add("node " + n + " does not know its session " + p.sessionId());
        }
      }
    }
    for (Node n : state.nodes().all()) {
      Pool expected =
          n.allocation() != null && n.allocation().reserved()
              ? n.allocation().pool()
              : state.nodes().defaultPool();
      if (seen.get(n) != expected) {
        out.add("node " + n + " is not in exactly the session it belongs to");
      }
      if (n.allocation() != null && !n.allocation().nodes().contains(n)) {
        out.add("node " + n + " is missing from its allocation's members");
      }
    }
    if (seen.size() != state.nodes().size()) {
      out.add("sessions hold " + seen.size() + " nodes but the DVM has " + state.nodes().size());
    }
  }

  static void slotsMatchProcesses(State state, List<String> out) {
    Map<Pool, Long> free = new IdentityHashMap<>();
    long inUse = 0;
    for (Node n : state.nodes().all()) {
      inUse += n.slotsInUse();
      if (n.slotsInUse() != n.residents().size()) {
        out.add("node " + n + " uses " + n.slotsInUse() + " slots for " + n.residents().size());
      }
      if (n.slotsInUse() > n.slots() && !oversubscribed(n)) {
        out.add("node " + n + " runs " + n.slotsInUse() + " processes on " + n.slots() + " slots");
      }
      for (ProcRecord p : n.residents()) {
        if (!p.live() || p.nodeRecord() != n || !p.job().live()) {
          out.add("node " + n + " holds a dead or foreign process " + p.job() + "." + p.rank());
        }
      }
      free.merge(n.pool(), (long) n.freeSlots(), Long::sum);
      if ((n.freeSlots() > 0) != n.pool().withFreeSlots().contains(n)) {
        out.add("node " + n + " is wrongly (un)listed as having room");
      }
    }
    if (inUse != state.nodes().slotsInUse()) {
      out.add("the DVM counts " + state.nodes().slotsInUse() + " slots in use, has " + inUse);
    }
    for (Map.Entry<Pool, Long> e : free.entrySet()) {
      if (e.getKey().freeSlots() != e.getValue()) {
        out.add(
            "session "
                + e.getKey().sessionId()
                + " counts "
                + e.getKey().freeSlots()
                + " free slots, has "
                + e.getValue());
      }
    }
    for (Job j : state.jobs().all()) {
      long live = j.procs().stream().filter(p -> p != null && p.live()).count();
      if (live != j.liveProcs() || !j.live() && live > 0) {
        out.add("job " + j + " counts " + j.liveProcs() + " live processes, has " + live);
      }
    }
  }

  /** Whether a process of a job allowed to go beyond the slots lives on the node. */
  private static boolean oversubscribed(Node n) {
    for (ProcRecord p : n.residents()) {
      if (NodeFill.oversubscribes(p.job().fill())) {
        return true;
      }
    }
    return false;
  }

  static void ownerSetsHoldOnlyLiveNamespaces(State state, List<String> out) {
    for (Allocation a : state.allocations().all()) {
      for (String ns : a.owners()) {
        Job j = state.jobs().get(ns);
        if (j == null || !j.live()) {
          out.add("owner set of " + a + " holds dead or unknown " + ns);
        } else if (!j.ownerOf().contains(a)) {
          out.add("job " + ns + " does not know it owns " + a);
        }
      }
      if (!a.ownerJob().owning().contains(a) || state.jobs().get(a.owner()) != a.ownerJob()) {
        out.add("owning namespace " + a.owner() + " of " + a + " lost track of it");
      }
    }
    for (Job j : state.jobs().all()) {
      for (Allocation a : j.ownerOf()) {
        if (!a.ownedBy(j.namespace()) || state.allocations().byAllocId(a.allocId()) != a) {
          out.add("job " + j + " thinks it owns " + a);
        }
      }
    }
    Job scheduler = state.jobs().scheduler();
    long schedulers =
        state.jobs().all().stream().filter(j -> j.live() && j.kind() == JobKind.SCHEDULER).count();
    if (schedulers > 1 || schedulers == 1 && (scheduler == null || !scheduler.live())) {
      out.add("the live scheduler is not tracked");
    }
  }

  static void liveDescendantCountsAreExact(State state, List<String> out) {
    Map<Job, Integer> counts = new HashMap<>();
    for (Job j : state.jobs().all()) {
      if (j.live()) {
        for (Job a = j.parentJob(); a != null; a = a.parentJob()) {
          counts.merge(a, 1, Integer::sum);
        }
      }
    }
    for (Job j : state.jobs().all()) {
      int expected = counts.getOrDefault(j, 0);
      if (j.liveDescendants() != expected) {
        out.add(
            "job " + j + " counts " + j.liveDescendants() + " live descendants, has " + expected);
      }
    }
  }

  static void noDispositionIsOverdue(State state, List<String> out) {
    for (Allocation a : state.allocations().all()) {
      Job owner = a.ownerJob();
      boolean due =
          !a.detached()
              && !owner.live()
              && (!a.inheritance().waitsForDescendants() || owner.liveDescendants() == 0);
      if (due) {
        out.add("the " + a.inheritance() + " disposition of " + a + " is overdue");
      }
      if ((a.terminating() || a.autoComplete()) && a.liveJobs().isEmpty()) {
        out.add("session " + a + " should have completed");
      }
    }
  }

  static void claimsBelongToOpenAsks(State state, List<String> out) {
    Set<Node> claimed = new HashSet<>();
    Map<String, Integer> byRequester = new HashMap<>();
    for (Ask ask : state.asks().all()) {
      byRequester.merge(ask.requester().nspace(), 1, Integer::sum);
      for (Node n : ask.claimed()) {
        claimed.add(n);
        if (n.claimedBy() != ask.askId() || state.nodes().get(n.name()) != n) {
          out.add("node " + n + " claimed by " + ask + " does not know it");
        }
      }
      if (ask.kind() == AskKind.NEW) {
        Job owner = state.jobs().get(ask.terms().owner());
        if (owner == null || !owner.live() || !owner.asksFor().contains(ask)) {
          out.add(ask + " waits for an allocation for a dead namespace");
        }
      } else if (state.allocations().byAllocId(ask.allocId()) == null) {
        out.add(ask + " waits for an allocation that has ended");
      }
    }
    for (Node n : state.nodes().all()) {
      if (n.claimedBy() != 0 && !claimed.contains(n)) {
        out.add("node " + n + " is claimed by a closed ask " + n.claimedBy());
      }
    }
    for (Map.Entry<String, Integer> e : byRequester.entrySet()) {
      if (state.asks().countBy(e.getKey()) != e.getValue()) {
        out.add(
            e.getKey()
                + " counts "
                + state.asks().countBy(e.getKey())
                + " asks, has "
                + e.getValue());
      }
    }
  }
}
