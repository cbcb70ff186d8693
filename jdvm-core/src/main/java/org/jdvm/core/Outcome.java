package org.jdvm.core;

import java.util.List;

/**
 * What one command did: the changes applied to the state (in order; replaying them through {@code
 * apply} rebuilds the state), the effects the shell must execute (in order), the rejection if the
 * command was a refused request, and the core's next deadline.
 *
 * @param nextDeadlineNs when the core next wants a {@link Report.Tick}, in the shell's clock;
 *     {@link Long#MAX_VALUE} when it has no deadline
 */
public record Outcome(
    List<Change> changes, List<Effect> effects, Rejection rejection, long nextDeadlineNs) {
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  public Outcome {
    changes = List.copyOf(changes);
    effects = List.copyOf(effects);
    if (rejection != null && !changes.isEmpty()) {
      throw new IllegalStateException("a rejected command changed the state: " + changes);
    }
  }

  public boolean rejected() {
    return rejection != null;
  }
}
