package org.jdvm.core;

/**
 * The operations of {@code PMIx_Session_control} (decisions.md #13, prrte-behavior.md §1.14). A
 * request names at most one; {@code PMIX_SESSION_SEP} is a modifier and may come alone.
 */
public enum SessionOp {
  /** Create a session: a standing reservation, or with apps an auto-completing one. */
  INSTANTIATE,
  /** Continue paused jobs, terminate every job; the session ends when the last one retires. */
  TERMINATE,
  /** Add nodes, re-arm the time limit (0 disarms), replace the inheritance. */
  EXTEND,
  /** SIGSTOP every job of the session (tracked: never twice). */
  PAUSE,
  /** SIGCONT every paused job of the session. */
  RESUME,
  /** Like PAUSE, optionally restricted to named namespaces; the resources are kept. */
  PREEMPT,
  /** Like RESUME, optionally restricted to named namespaces. */
  RESTORE,
  /** Send a signal to every job of the session. */
  SIGNAL,
  /** {@code PMIX_SESSION_COMPLETE} is what the DVM sends; inbound it is refused NOT_SUPPORTED. */
  COMPLETE
}
