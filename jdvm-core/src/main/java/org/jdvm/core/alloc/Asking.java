package org.jdvm.core.alloc;

import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change.AskOpened;
import org.jdvm.core.Effect.AskScheduler;
import org.jdvm.core.RequestId;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Proc;

/**
 * Handing a request to the scheduler: node selection is the scheduler's (spec §8.2.1.2.2). The
 * request waits, with what it asked for and the nodes of the DVM it claims meanwhile, until the
 * scheduler grants, refuses, queues or cancels it. PMIX_ALLOC_WARN_TIMEOUT rides along (spec
 * §8.2.1.9.5).
 *
 * <p>An EXTEND or REAQUIRE of an allocation the scheduler gave nothing to (no scheduler id: its
 * nodes are start-up nodes) cannot name an allocation of the scheduler's, so the scheduler is asked
 * for NEW nodes; the ask stays the request's own, and what is granted joins the allocation.
 */
public final class Asking {
  private Asking() {}

  public static long open(
      AskKind kind,
      RequestId replyTo,
      Proc requester,
      AskTerms terms,
      List<String> claimed,
      String schedulerAllocId,
      Txn txn) {
    long askId = txn.state().asks().nextAskId();
    txn.change(new AskOpened(askId, kind, replyTo, requester, terms, claimed));
    txn.effect(
        new AskScheduler(
            askId,
            askedAs(kind, schedulerAllocId),
            terms.allocId(),
            schedulerAllocId,
            terms.nodeCount(),
            terms.nodeNames(),
            terms.timeLimitSeconds(),
            terms.warnTimeoutSeconds(),
            terms.required(),
            terms.lendSeconds()));
    return askId;
  }

  /** What the scheduler is asked for: the ask's kind, or NEW when it knows no such allocation. */
  public static AskKind askedAs(AskKind kind, String schedulerAllocId) {
    boolean forMore = kind == AskKind.EXTEND || kind == AskKind.REAQUIRE;
    return forMore && schedulerAllocId == null ? AskKind.NEW : kind;
  }
}
