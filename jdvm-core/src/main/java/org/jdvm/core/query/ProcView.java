package org.jdvm.core.query;

import org.jdvm.core.ProcUsage;

/** One process of a job, read-only. */
public interface ProcView {
  /** Where a process is in its life. */
  enum State {
    /** Placed on a node; its launch is under way. */
    PLACED,
    /** Running with a pid. */
    RUNNING,
    /** Ended (exited, killed, failed to start, or its node left). */
    ENDED
  }

  int rank();

  /** The node it was placed on. */
  String node();

  int appIndex();

  /** Its pid, or 0 before it is launched. */
  long pid();

  State state();

  /** Its exit code (128 + signal when a signal killed it); meaningful once ENDED. */
  int exitCode();

  /**
   * What it used, as its host reported it with its exit; {@code null} while it runs, or when its
   * host could not tell (its node was lost, it failed to start, or it ended while the controller
   * was down).
   */
  ProcUsage usage();
}
