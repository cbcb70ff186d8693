package org.jdvm.scheduler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.PmixStatus;

/**
 * The embedded scheduler's choices about one ask, as pure functions of its pool and allocations:
 * whether it can ever be served, which nodes serve it now (by name, or by count unlent before
 * lent), and why it waits.
 */
final class EmbeddedChoice {
  private EmbeddedChoice() {}

  /** Why an ask can never be served. */
  record Refusal(int status, String reason) {}

  /** Why the ask can never be served, or {@code null}. Checked before anything changes. */
  static Refusal refusal(
      Ask ask, Map<String, PoolNode> pool, Map<String, EmbeddedAllocation> allocations) {
    EmbeddedAllocation a = ask.allocation() == null ? null : allocations.get(ask.allocation());
    if (ask.kind() != Ask.Kind.NEW && a == null) {
      return new Refusal(
          PmixStatus.ERR_NOT_FOUND, "no allocation " + ask.allocation() + " in the scheduler");
    }
    if (ask.kind() == Ask.Kind.REAQUIRE) {
      return a.lent.isEmpty()
          ? new Refusal(PmixStatus.ERR_NOT_FOUND, "allocation " + a.id + " has lent no nodes")
          : null;
    }
    for (String name : ask.names()) {
      if (!pool.containsKey(name)) {
        return new Refusal(
            PmixStatus.ERR_NOT_FOUND, "no node " + name + " in the scheduler's pool");
      }
      if (a != null && a.nodes.contains(name)) {
        return new Refusal(
            PmixStatus.ERR_BAD_PARAM, "node " + name + " is already in allocation " + a.id);
      }
    }
    if (ask.names().isEmpty()) {
      boolean timeOnly = ask.kind() == Ask.Kind.EXTEND && ask.count() == 0;
      if (ask.count() < 1 && !timeOnly) {
        return new Refusal(PmixStatus.ERR_BAD_PARAM, "ask for at least one node");
      }
      if (ask.count() > pool.size()) {
        return new Refusal(
            PmixStatus.ERR_OUT_OF_RESOURCE,
            "the pool holds " + pool.size() + " nodes and " + ask.count() + " were asked for");
      }
    }
    return null;
  }

  /** The nodes that serve the ask now, or {@code null} if they are not all free. */
  static List<PoolNode> pick(
      Ask ask, Map<String, PoolNode> pool, Map<String, EmbeddedAllocation> allocations) {
    List<PoolNode> chosen = new ArrayList<>();
    if (ask.kind() == Ask.Kind.REAQUIRE) {
      for (String name : allocations.get(ask.allocation()).lent) {
        PoolNode n = pool.get(name);
        if (n.holder != null) {
          return null;
        }
        chosen.add(n);
      }
      return chosen;
    }
    if (!ask.names().isEmpty()) {
      for (String name : ask.names()) {
        PoolNode n = pool.get(name);
        if (!n.grantableTo(ask.allocation())) {
          return null;
        }
        chosen.add(n);
      }
      return chosen;
    }
    for (int pass = 0; pass < 2 && chosen.size() < ask.count(); pass++) {
      for (PoolNode n : pool.values()) {
        boolean lentPass = pass == 1;
        if (chosen.size() < ask.count() && (n.lender != null) == lentPass) {
          if (n.grantableTo(ask.allocation())) {
            chosen.add(n);
          }
        }
      }
    }
    return chosen.size() == ask.count() ? chosen : null;
  }

  /** Why a servable ask waits. */
  static String shortfall(Ask ask, Map<String, PoolNode> pool, Collection<Ask> queue) {
    if (!queue.isEmpty()) {
      return queue.size() + " earlier request(s) are waiting for nodes";
    }
    long free = pool.values().stream().filter(n -> n.grantableTo(ask.allocation())).count();
    if (ask.kind() == Ask.Kind.REAQUIRE) {
      return "lent nodes of " + ask.allocation() + " are still borrowed";
    }
    int wanted = ask.names().isEmpty() ? ask.count() : ask.names().size();
    return "not enough free nodes: " + free + " free, " + wanted + " asked for";
  }
}
