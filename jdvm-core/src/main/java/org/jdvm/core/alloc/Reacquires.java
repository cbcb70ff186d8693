package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.AskTerms;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Rejection;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.Txn;

/**
 * PMIX_ALLOC_REAQUIRE (lend and reacquire, rfc0005-allocation-api.txt "Description"; decisions.md
 * #8): ask the scheduler for the nodes an allocation lent, back into the same allocation.
 * PMIX_ALLOC_INHERITANCE is ignored here.
 */
public final class Reacquires {
  private Reacquires() {}

  public static void reacquire(Allocate r, Txn txn) {
    Job requester = Requesters.job(txn.state(), r.requester());
    Allocation a = txn.state().allocations().byAllocId(r.allocId());
    if (a == null) {
      a = txn.state().allocations().byReqId(r.allocReqId());
    }
    Rejection why = check(r, a, requester);
    if (why == null) {
      why = LimitChecks.nodes(0, a.lentNodes().size(), txn.state());
    }
    if (why == null) {
      why = LimitChecks.ask(r.requester(), txn.state());
    }
    if (why != null) {
      txn.reject(r.requestId(), why);
      return;
    }
    List<String> names = new ArrayList<>();
    for (NodeSpec n : a.lentNodes()) {
      names.add(n.name());
    }
    AskTerms terms =
        new AskTerms(
            a.owner(),
            a.reserved(),
            null,
            a.allocId(),
            r.allocReqId(),
            null,
            false,
            0,
            names,
            r.timeLimitSeconds(),
            null,
            r.required(),
            null);
    Asking.open(
        AskKind.REAQUIRE,
        r.requestId(),
        r.requester(),
        terms,
        List.of(),
        a.schedulerAllocId(),
        txn);
  }

  private static ReacquireRejection check(Allocate r, Allocation a, Job requester) {
    if (r.allocId() == null && r.allocReqId() == null) {
      return ReacquireRejection.NOTHING_NAMED;
    } else if (a == null) {
      return ReacquireRejection.ALLOCATION_NOT_FOUND;
    } else if (!Ownership.mayActOn(a, requester)) {
      return ReacquireRejection.NOT_OWNER;
    } else if (a.lentNodes().isEmpty()) {
      return ReacquireRejection.NOTHING_LENT;
    }
    return null;
  }
}
