package org.jdvm.core.state;

import java.util.List;
import org.jdvm.core.Limits;
import org.jdvm.core.OverLimit;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;

/**
 * Every {@link Limits} bound is checked here and nowhere else, against the counts the tables keep
 * (live processes, nodes, allocations, asks per requester), so a check costs O(1) beyond the
 * request's own size. Counts are summed in {@code long}: no input overflows before it meets its
 * bound. Each method returns the first bound the request would pass, in {@link OverLimit} order, or
 * {@code null}.
 */
public final class LimitChecks {
  private LimitChecks() {}

  /** The processes of these apps, summed without overflow (each app has at most 2^31 - 1). */
  public static long processes(List<App> apps) {
    long total = 0;
    for (App app : apps) {
      total += app.maxprocs();
    }
    return total;
  }

  /** A job of these apps: apps and processes per spawn, then live processes in the DVM. */
  public static OverLimit spawn(List<App> apps, State state) {
    Limits limits = state.config().limits();
    if (apps.size() > limits.appsPerSpawn()) {
      return OverLimit.APPS_PER_SPAWN;
    }
    long procs = processes(apps);
    if (procs > limits.procsPerSpawn()) {
      return OverLimit.PROCS_PER_SPAWN;
    }
    if (state.nodes().slotsInUse() + procs > limits.liveProcs()) {
      return OverLimit.LIVE_PROCS;
    }
    return null;
  }

  /**
   * A request for {@code requested} nodes (by count or by name), {@code fresh} of which would be
   * new to the DVM: nodes per request, then nodes in the DVM.
   */
  public static OverLimit nodes(long requested, long fresh, State state) {
    Limits limits = state.config().limits();
    if (requested > limits.nodesPerRequest()) {
      return OverLimit.NODES_PER_REQUEST;
    }
    if (state.nodes().size() + fresh > limits.nodesInDvm()) {
      return OverLimit.NODES_IN_DVM;
    }
    return null;
  }

  /** One more allocation. */
  public static OverLimit allocation(State state) {
    return state.allocations().size() >= state.config().limits().liveAllocations()
        ? OverLimit.LIVE_ALLOCATIONS
        : null;
  }

  /** One more ask waiting for the scheduler on behalf of {@code requester}'s namespace. */
  public static OverLimit ask(Proc requester, State state) {
    return state.asks().countBy(requester.nspace())
            >= state.config().limits().pendingAsksPerRequester()
        ? OverLimit.PENDING_ASKS
        : null;
  }

  /**
   * A scheduler grant that adds {@code fresh} nodes and, if {@code creates}, an allocation: asks
   * are checked against the state when they are made, but several may be granted at once, or a
   * scheduler may grant more than was asked, so the grant is checked again.
   */
  public static OverLimit grant(long fresh, boolean creates, State state) {
    if (state.nodes().size() + fresh > state.config().limits().nodesInDvm()) {
      return OverLimit.NODES_IN_DVM;
    }
    return creates ? allocation(state) : null;
  }
}
