package org.jdvm.core;

import java.util.List;
import org.jdvm.pmix.AllocInheritance;

/**
 * What an allocation request asked for, kept with the ask until the scheduler answers, so the
 * answer can be turned into exactly what was requested (spec §8.2.1.5).
 *
 * @param owner the owning namespace of a NEW allocation (TARGET for a tool, else the requester)
 * @param reserved false for a shared (PMIX_ALLOC_SHARE) NEW allocation
 * @param inheritance the disposition to record; {@code null} on EXTEND leaves it unchanged
 * @param allocId the id a NEW asked for, or the allocation an EXTEND/REAQUIRE/LEND is for
 * @param allocReqId the request's {@code PMIX_ALLOC_REQ_ID}, echoed in the reply
 * @param parentSessionId the session the requester runs in, whose child a NEW allocation becomes
 * @param separated {@code PMIX_ALLOC_CHILD_SEP}
 * @param nodeCount nodes asked for by count
 * @param nodeNames nodes asked for by name that the scheduler must provide, or nodes to lend
 * @param lendSeconds how long a LEND lends for
 */
public record AskTerms(
    String owner,
    boolean reserved,
    AllocInheritance inheritance,
    String allocId,
    String allocReqId,
    Long parentSessionId,
    boolean separated,
    int nodeCount,
    List<String> nodeNames,
    Long timeLimitSeconds,
    Long warnTimeoutSeconds,
    boolean required,
    Long lendSeconds) {
  public AskTerms {
    nodeNames = List.copyOf(nodeNames);
  }
}
