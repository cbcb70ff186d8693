package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * An allocation the Slurm port holds: its Slurm jobs (the first names the allocation; later ones
 * came from EXTEND) with their nodes, its deadline from Slurm's EndTime, and its warning. Touched
 * only on the port's thread.
 */
final class HeldAllocation {
  private static final long NS_PER_SECOND = 1_000_000_000L;

  final String id;
  final Map<String, LinkedHashSet<String>> jobs = new LinkedHashMap<>();
  Long deadlineNs;
  Long warnSeconds;
  boolean warned;

  HeldAllocation(String id) {
    this.id = id;
  }

  Long warnAtNs() {
    return deadlineNs == null || warnSeconds == null
        ? null
        : deadlineNs - warnSeconds * NS_PER_SECOND;
  }

  void warnAfterChange(Long seconds) {
    if (seconds != null) {
      warnSeconds = seconds;
      warned = false;
    }
  }

  /** A deadline Slurm moved (a second's jitter is no move); a later one warns again. */
  void moveDeadline(Long d, long nowNs) {
    if (d == null || deadlineNs == null) {
      deadlineNs = d;
      return;
    }
    if (Math.abs(d - deadlineNs) > NS_PER_SECOND) {
      deadlineNs = d;
      if (warnAtNs() != null && warnAtNs() > nowNs) {
        warned = false;
      }
    }
  }

  List<String> allNodes() {
    List<String> all = new ArrayList<>();
    jobs.values().forEach(all::addAll);
    return all;
  }
}
