package org.jdvm.server.controller;

import org.jdvm.core.CommandFailed;
import org.jdvm.core.Rejection;
import org.jdvm.pmix.PmixStatus;

/**
 * The one table that decides what a failure on the controller thread means (architecture.md §1):
 * refuse the command and go on, or stop the DVM. The rows are checked in declaration order and the
 * first that matches decides. Input can only reach a refusing row: the core throws {@link
 * CommandFailed} whenever it fails before changing anything, and every request is decided before
 * anything changes; only a failure after changes were applied (a broken invariant) or of the JVM
 * itself stops.
 *
 * <p>A refusing row is also the {@link Rejection} of the refused command: a request gets a reply
 * with its status. A stopping row's status is what a request left waiting is told.
 *
 * <p>Failures of the shell's own work after the core decided (executing effects, telling an
 * observer, answering a read) are not the core's: a {@link RuntimeException} there is logged and
 * the command stands, its changes applied. An {@link Error} is classified here wherever it comes
 * from.
 */
enum Failure implements Rejection {
  /** The core failed before changing anything, on input that breaks the contract. */
  BAD_INPUT(Verdict.REFUSE, PmixStatus.ERR_BAD_PARAM),
  /** The core failed before changing anything for another reason: a bug in deciding. */
  NOT_DECIDED(Verdict.REFUSE, PmixStatus.ERROR),
  /**
   * The journal is short of space and the request might not be written (docs/journal.md "A full
   * disk"): refused before the core saw it. No throwable maps to it; the controller asks the
   * journal.
   */
  NO_SPACE(Verdict.REFUSE, PmixStatus.ERR_OUT_OF_RESOURCE),
  /** The JVM itself failed (out of memory, stack overflow, an internal error). */
  JVM_FAILED(Verdict.STOP, PmixStatus.ERR_UNREACH),
  /** Any other {@link Error}: a linkage problem, a failed assertion. */
  OTHER_ERROR(Verdict.STOP, PmixStatus.ERR_UNREACH),
  /**
   * Anything else the core threw: it came after changes were applied, so the state can no longer be
   * trusted (a broken invariant).
   */
  BROKEN_STATE(Verdict.STOP, PmixStatus.ERR_UNREACH);

  /** What the controller does about a failure. */
  enum Verdict {
    /** Refuse this one command; the DVM goes on. */
    REFUSE,
    /** Stop the DVM, visibly: fail every waiter, end the controller thread, close the DVM. */
    STOP
  }

  private final Verdict verdict;
  private final int status;

  Failure(Verdict verdict, int status) {
    this.verdict = verdict;
    this.status = status;
  }

  /** The row for {@code t}: the first in declaration order that matches. */
  static Failure of(Throwable t) {
    if (t instanceof CommandFailed f && f.getCause() instanceof IllegalArgumentException) {
      return BAD_INPUT;
    } else if (t instanceof CommandFailed) {
      return NOT_DECIDED;
    } else if (t instanceof VirtualMachineError) {
      return JVM_FAILED;
    } else if (t instanceof Error) {
      return OTHER_ERROR;
    }
    return BROKEN_STATE;
  }

  Verdict verdict() {
    return verdict;
  }

  @Override
  public int status() {
    return status;
  }
}
