package org.jdvm.scheduler;

import java.util.LinkedHashSet;
import java.util.Set;

/** An allocation of the embedded scheduler: its nodes, the nodes it lent, its deadline. */
final class EmbeddedAllocation {
  private static final long NS_PER_SECOND = 1_000_000_000L;

  final String id;
  final Set<String> nodes = new LinkedHashSet<>();
  final Set<String> lent = new LinkedHashSet<>();
  Long deadlineNs;
  Long warnSeconds;
  boolean warned;

  EmbeddedAllocation(String id) {
    this.id = id;
  }

  Long warnAtNs() {
    return deadlineNs == null || warnSeconds == null
        ? null
        : deadlineNs - warnSeconds * NS_PER_SECOND;
  }
}
