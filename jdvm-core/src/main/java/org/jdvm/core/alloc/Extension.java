package org.jdvm.core.alloc;

import java.util.Objects;
import org.jdvm.core.Change.InheritanceChanged;
import org.jdvm.core.Change.RequesterRefreshed;
import org.jdvm.core.Change.TimeLimitSet;
import org.jdvm.core.lifecycle.Lifecycle;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Proc;

/**
 * What an EXTEND does to the allocation besides adding nodes: a supplied inheritance replaces the
 * disposition (spec §8.2.1.4: honoured on EXTEND), the extender becomes the requester the timeout
 * warning goes to (spec §8.2.1.9.5), and a time limit the scheduler set is recorded. If the new
 * disposition is already due (the owner terminated and, for CHILD flavours, its descendants have
 * drained), it fires now.
 */
final class Extension {
  private Extension() {}

  static void finish(
      Allocation a, AllocInheritance inheritance, Proc requester, Long timeLimit, Txn txn) {
    if (inheritance != null && inheritance != a.inheritance()) {
      txn.change(new InheritanceChanged(a.allocId(), inheritance));
    }
    if (!requester.equals(a.requester())) {
      txn.change(new RequesterRefreshed(a.allocId(), requester));
    }
    if (timeLimit != null && !Objects.equals(timeLimit, a.timeLimitSeconds())) {
      txn.change(new TimeLimitSet(a.allocId(), timeLimit));
    }
    Lifecycle.fireIfDue(a, txn);
  }
}
