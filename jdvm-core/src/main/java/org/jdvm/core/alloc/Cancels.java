package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.JobKind;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.lifecycle.Asks;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Ask;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * PMIX_ALLOC_REQ_CANCEL (rfc0005-allocation-api.txt "Description"; decisions.md #4): withdraw
 * requests still waiting for the scheduler, named by PMIX_ALLOC_REQ_ID (or the PMIX_ALLOC_ID a NEW
 * asked for); without either, every request of the requester's namespace. Each cancelled request is
 * answered {@code PMIX_ERR_JOB_CANCELED}, the cancel itself {@code PMIX_SUCCESS}.
 */
public final class Cancels {
  private Cancels() {}

  public static void cancel(Allocate r, Txn txn) {
    Job requester = Requesters.job(txn.state(), r.requester());
    List<Ask> matches = matching(r, txn);
    CancelRejection why = null;
    if (matches.isEmpty()) {
      why = CancelRejection.NOTHING_PENDING;
    } else if (!matches.stream().allMatch(ask -> mayCancel(ask, requester, txn))) {
      why = CancelRejection.NOT_OWNER;
    }
    if (why != null) {
      txn.reject(r.requestId(), why);
      return;
    }
    for (Ask ask : matches) {
      Asks.cancel(ask, PmixStatus.ERR_JOB_CANCELED, txn);
    }
    txn.effect(new Reply(r.requestId(), PmixStatus.SUCCESS, List.of()));
  }

  private static List<Ask> matching(Allocate r, Txn txn) {
    List<Ask> out = new ArrayList<>();
    boolean named = r.allocReqId() != null || r.allocId() != null;
    for (Ask ask : txn.state().asks().all()) {
      boolean byReq = r.allocReqId() != null && r.allocReqId().equals(ask.allocReqId());
      boolean byId =
          r.allocId() != null && ask.kind() == AskKind.NEW && r.allocId().equals(ask.allocId());
      boolean mine = !named && ask.requester().nspace().equals(r.requester().nspace());
      if (byReq || byId || mine) {
        out.add(ask);
      }
    }
    return out;
  }

  private static boolean mayCancel(Ask ask, Job requester, Txn txn) {
    String ns = requester.namespace();
    if (requester.kind() == JobKind.SCHEDULER || ask.requester().nspace().equals(ns)) {
      return true;
    }
    if (ask.kind() == AskKind.NEW) {
      return ask.terms().owner().equals(ns);
    }
    Allocation a = txn.state().allocations().byAllocId(ask.allocId());
    return a != null && Ownership.mayActOn(a, requester);
  }
}
