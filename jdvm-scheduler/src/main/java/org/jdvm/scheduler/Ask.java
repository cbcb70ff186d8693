package org.jdvm.scheduler;

import java.util.List;

/**
 * A request for nodes from the DVM to its scheduler.
 *
 * @param askId the DVM's handle for this ask; every answer names it
 * @param kind what the nodes are for
 * @param allocation the scheduler's id of the allocation to add to (EXTEND, REAQUIRE) or to lend
 *     from (LEND, {@code null} if it gave the allocation nothing), or {@code null} for NEW (the
 *     scheduler mints one and returns it with the grant)
 * @param count how many nodes (ignored when {@code names} is not empty, and for REAQUIRE and LEND)
 * @param names the nodes wanted by name, or the nodes to lend, or empty
 * @param timeLimitSeconds NEW: the allocation's time limit; EXTEND: seconds to add; {@code null}
 *     for none (NEW) or no change (EXTEND)
 * @param warnSeconds how long before expiry to warn, or {@code null} for no warning
 * @param required refuse at once rather than queue when the nodes are not free now
 */
public record Ask(
    String askId,
    Kind kind,
    String allocation,
    int count,
    List<String> names,
    Long timeLimitSeconds,
    Long warnSeconds,
    boolean required) {
  /** What an ask is for. */
  public enum Kind {
    NEW,
    EXTEND,
    REAQUIRE,
    /**
     * May the DVM lend these nodes (RELEASE with PMIX_ALLOC_LEND)? Granted with no nodes if the
     * scheduler takes loans; the nodes themselves follow with {@link SchedulerPort#lend}.
     */
    LEND
  }

  public Ask {
    names = List.copyOf(names);
    if (kind == Kind.NEW && allocation != null) {
      throw new IllegalArgumentException("a NEW ask names no allocation");
    }
    if ((kind == Kind.EXTEND || kind == Kind.REAQUIRE) && allocation == null) {
      throw new IllegalArgumentException(kind + " names the allocation it adds to");
    }
  }
}
