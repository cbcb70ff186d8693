package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Effect.NotifyProc;
import org.jdvm.core.Feature;
import org.jdvm.core.Report.SchedulerTimeoutWarning;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * The allocation timeout warning relay (spec §8.2.1.9.5). The core neither sets the timeout nor
 * makes the warning: PMIX_ALLOC_WARN_TIMEOUT goes to the scheduler with NEW and EXTEND, and the
 * scheduler's PMIX_ALLOC_TIMEOUT_WARNING is delivered to the allocation's requester alone
 * (refreshed by EXTEND), carrying PMIX_ALLOC_ID, PMIX_ALLOC_REQ_ID when known and
 * PMIX_TIME_REMAINING when the scheduler gave it. A warning for an unknown allocation, or whose
 * requester is gone, is dropped. The warning changes nothing.
 */
public final class TimeoutWarnings {
  private TimeoutWarnings() {}

  public static void relay(SchedulerTimeoutWarning w, Txn txn) {
    if (!txn.state().config().enabled(Feature.WARN_TIMEOUT)) {
      return;
    }
    Allocation a = txn.state().allocations().byAnyId(w.allocId());
    if (a == null) {
      return;
    }
    Job requester = txn.state().jobs().get(a.requester().nspace());
    if (requester == null || !requester.live()) {
      return;
    }
    List<Info> infos = new ArrayList<>(3);
    infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(a.allocId())));
    if (a.allocReqId() != null) {
      infos.add(Info.of(PmixKeys.ALLOC_REQ_ID, Value.string(a.allocReqId())));
    }
    if (w.secondsRemaining() != null) {
      infos.add(Info.of(PmixKeys.TIME_REMAINING, Value.uint32(w.secondsRemaining())));
    }
    Proc source = new Proc(txn.state().config().controllerNamespace(), 0);
    txn.effect(new NotifyProc(a.requester(), PmixStatus.ALLOC_TIMEOUT_WARNING, source, infos));
  }
}
