package org.jdvm.core.session;

import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/**
 * Why a session-control request was refused, in check order (decisions.md #13; prrte-behavior.md
 * §1.14). Every directive is parsed before any is acted on. The limits ({@link
 * org.jdvm.core.OverLimit}) come last for EXTEND (its nodes) and, for INSTANTIATE, just before the
 * last {@link #APPS_DO_NOT_FIT} check (apps and processes, nodes, one more allocation).
 */
public enum SessionRejection implements Rejection {
  MORE_THAN_ONE_OPERATION(PmixStatus.ERR_BAD_PARAM),
  /** No operation and no PMIX_SESSION_SEP. */
  NO_OPERATION(PmixStatus.ERR_BAD_PARAM),
  /** PMIX_SESSION_COMPLETE is what the DVM tells the scheduler, not the other way round. */
  COMPLETE_IS_OUTBOUND(PmixStatus.ERR_NOT_SUPPORTED),
  /** Provisioning nodes or images. */
  PROVISIONING(PmixStatus.ERR_NOT_SUPPORTED),
  /**
   * Resource directives that would have the DVM choose nodes (node selection is the scheduler's).
   */
  DVM_CHOOSES_NODES(PmixStatus.ERR_NOT_SUPPORTED),
  /** PMIX_SESSION_APP with any operation but INSTANTIATE. */
  APPS_WITHOUT_INSTANTIATE(PmixStatus.ERR_BAD_PARAM),
  /**
   * A malformed PMIX_ALLOC_TIME, a negative PMIX_TIMEOUT, or either longer than {@link
   * org.jdvm.core.Limits#MAX_SECONDS}.
   */
  BAD_TIME_LIMIT(PmixStatus.ERR_BAD_PARAM),
  /** SIGNAL without a signal, or not a signal number. */
  BAD_SIGNAL(PmixStatus.ERR_BAD_PARAM),
  /** PMIX_ALLOC_INHERITANCE is not 1–4, or not DEFAULT without the feature. */
  INHERITANCE_NOT_SUPPORTED(PmixStatus.ERR_NOT_SUPPORTED),
  /** A node listed twice. */
  BAD_NODES(PmixStatus.ERR_BAD_PARAM),
  /** Only the scheduler instantiates sessions. */
  NOT_SCHEDULER(PmixStatus.ERR_NO_PERMISSIONS),
  /** UINT32_MAX is the default session's id; a session id is a uint32. */
  DEFAULT_SESSION_ID(PmixStatus.ERR_BAD_PARAM),
  SESSION_EXISTS(PmixStatus.ERR_EXISTS),
  /** Apps but no nodes to run them on. */
  APPS_WITHOUT_NODES(PmixStatus.ERR_BAD_PARAM),
  /** The session id names no session (the default pool is never operated on). */
  SESSION_NOT_FOUND(PmixStatus.ERR_NOT_FOUND),
  /** Neither the scheduler nor an owner of the session. */
  NOT_AUTHORIZED(PmixStatus.ERR_NO_PERMISSIONS),
  /** EXTEND without nodes, a time limit or an inheritance. */
  NOTHING_TO_EXTEND(PmixStatus.ERR_BAD_PARAM),
  /** EXTEND with nodes addressed to every session: a node can join only one. */
  NODES_FOR_EVERY_SESSION(PmixStatus.ERR_BAD_PARAM),
  /** PREEMPT or RESTORE names namespaces none of which runs in the session. */
  NAMESPACES_NOT_IN_SESSION(PmixStatus.ERR_NOT_FOUND),
  ALLOC_ID_IN_USE(PmixStatus.ERR_EXISTS),
  REQ_ID_IN_USE(PmixStatus.ERR_EXISTS),
  /** A listed node is already in an allocation or claimed by a pending request. */
  NODE_UNAVAILABLE(PmixStatus.ERR_RESOURCE_BUSY),
  /** The session's apps do not fit on its nodes. */
  APPS_DO_NOT_FIT(PmixStatus.ERR_OUT_OF_RESOURCE);

  private final int status;

  SessionRejection(int status) {
    this.status = status;
  }

  @Override
  public int status() {
    return status;
  }
}
