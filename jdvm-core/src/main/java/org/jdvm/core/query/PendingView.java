package org.jdvm.core.query;

import org.jdvm.core.AskKind;
import org.jdvm.pmix.Proc;

/** A request waiting for the scheduler, read-only. */
public interface PendingView {
  long askId();

  AskKind kind();

  Proc requester();

  /** The id a NEW asked for, or the allocation an EXTEND/REAQUIRE/LEND is for. */
  String allocId();

  /** The request's {@code PMIX_ALLOC_REQ_ID}, or {@code null}. */
  String allocReqId();

  /** Whether the scheduler queued it. */
  boolean queued();
}
