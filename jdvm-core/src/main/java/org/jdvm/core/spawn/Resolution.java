package org.jdvm.core.spawn;

import org.jdvm.core.Rejection;

/** What deciding a spawn comes to: the targets it maps onto, or why it is refused. */
sealed interface Resolution {
  /** The spawn may go ahead onto these targets. */
  record Resolved(Targets targets) implements Resolution {}

  /** The spawn is refused, and nothing changes. */
  record Refused(Rejection why) implements Resolution {}
}
