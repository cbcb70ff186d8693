package org.jdvm.core.lifecycle;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.Change.AskClosed;
import org.jdvm.core.Effect.CancelAsk;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Ask;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * Abandoning requests that wait for the scheduler: the ask is withdrawn and its request answered,
 * so every request is answered exactly once even when what it was for has gone.
 */
public final class Asks {
  private Asks() {}

  /** Withdraws an ask and answers its request with {@code status}. */
  public static void cancel(Ask ask, int status, Txn txn) {
    txn.change(new AskClosed(ask.askId()));
    txn.effect(new CancelAsk(ask.askId()));
    txn.effect(new Reply(ask.replyTo(), status, List.of()));
  }

  /** The NEW asks whose allocation this terminating namespace would have owned. */
  static void cancelFor(Job owner, Txn txn) {
    for (Ask ask : List.copyOf(owner.asksFor())) {
      cancel(ask, PmixStatus.ERR_JOB_CANCELED, txn);
    }
  }

  /** The EXTEND, REAQUIRE and LEND asks for an allocation that is ending. */
  static void cancelFor(Allocation allocation, Txn txn) {
    List<Ask> doomed = new ArrayList<>();
    for (Ask ask : txn.state().asks().all()) {
      if (ask.kind() != AskKind.NEW && allocation.allocId().equals(ask.allocId())) {
        doomed.add(ask);
      }
    }
    for (Ask ask : doomed) {
      cancel(ask, PmixStatus.ERR_JOB_CANCELED, txn);
    }
  }
}
