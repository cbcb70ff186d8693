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
            kind,
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
}
