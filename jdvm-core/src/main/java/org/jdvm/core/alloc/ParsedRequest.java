package org.jdvm.core.alloc;

import java.util.List;
import org.jdvm.core.Feature;
import org.jdvm.core.Limits;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.State;
import org.jdvm.pmix.AllocInheritance;

/**
 * An allocation request as the rules see it once the feature profile is applied (decisions.md #16,
 * spec §8.2.1.10): an attribute the DVM runs without is treated as absent, except that a
 * non-default PMIX_ALLOC_INHERITANCE is refused rather than ignored.
 *
 * @param target PMIX_ALLOC_TARGET, or {@code null} (also when the DVM runs without it)
 * @param share PMIX_ALLOC_SHARE, false without the feature
 * @param inheritance the parsed disposition, {@code null} when absent
 * @param inheritanceRefused the value is not 1–4, or not DEFAULT without the feature
 * @param warnTimeoutSeconds PMIX_ALLOC_WARN_TIMEOUT, {@code null} without the feature
 * @param count PMIX_ALLOC_NUM_NODES, 0 when absent
 * @param extendTarget the allocation an EXTEND names (by id, then by request id), or {@code null}
 */
record ParsedRequest(
    String target,
    boolean share,
    AllocInheritance inheritance,
    boolean inheritanceRefused,
    Long warnTimeoutSeconds,
    int count,
    boolean malformed,
    NodeRequest nodes,
    Allocation extendTarget,
    Allocate request) {

  static ParsedRequest of(Allocate r, State state) {
    var config = state.config();
    String target =
        config.enabled(Feature.TARGET)
                && r.targetNamespace() != null
                && !r.targetNamespace().isEmpty()
            ? r.targetNamespace()
            : null;
    boolean share = config.enabled(Feature.SHARE) && Boolean.TRUE.equals(r.share());
    AllocInheritance inheritance =
        r.inheritance() == null ? null : AllocInheritance.fromCode(r.inheritance());
    boolean refused =
        r.inheritance() != null
            && (inheritance == null
                || !config.enabled(Feature.INHERITANCE) && inheritance != AllocInheritance.DEFAULT);
    Long warn = config.enabled(Feature.WARN_TIMEOUT) ? r.warnTimeoutSeconds() : null;
    int count = r.nodeCount() == null ? 0 : r.nodeCount();
    boolean malformed = malformed(r, warn);
    Allocation extendTarget = state.allocations().byAllocId(r.allocId());
    if (extendTarget == null) {
      extendTarget = state.allocations().byReqId(r.allocReqId());
    }
    NodeRequest nodes = NodeRequest.of(malformed ? List.of() : r.nodeList(), state);
    return new ParsedRequest(
        target, share, inheritance, refused, warn, count, malformed, nodes, extendTarget, r);
  }

  private static boolean malformed(Allocate r, Long warn) {
    boolean hasList = r.nodeList() != null && !r.nodeList().isEmpty();
    return r.nodeCount() != null && r.nodeCount() < 0
        || r.nodeCount() != null && r.nodeCount() > 0 && hasList
        || !NodeRequest.wellFormed(r.nodeList())
        || r.timeLimitSeconds() != null
            && (r.timeLimitSeconds() < 0 || r.timeLimitSeconds() > Limits.MAX_SECONDS)
        || warn != null && (warn < 0 || warn > Limits.MAX_SECONDS);
  }

  /** NEW needs nodes; EXTEND needs nodes, time, a warning or an inheritance to change. */
  boolean nothingRequested(boolean isNew) {
    boolean nodesAsked = count > 0 || request.nodeList() != null && !request.nodeList().isEmpty();
    if (isNew) {
      return !nodesAsked;
    }
    return !nodesAsked
        && request.timeLimitSeconds() == null
        && warnTimeoutSeconds == null
        && inheritance == null;
  }
}
