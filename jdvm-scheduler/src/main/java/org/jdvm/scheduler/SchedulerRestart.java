package org.jdvm.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a DVM restarted on its journal tells its scheduler port (docs/journal.md "Recovery"), and
 * the two steps of the restart the port orders its own recovery around: {@link #redispatch} (the
 * effects the journal had not seen executed, the port's releases and ends among them) and {@link
 * #askAgain} (every request the core still waits on). {@link SchedulerPort#recover} calls each
 * once, {@code redispatch} first.
 */
public interface SchedulerRestart {
  /** The ask ids the recovered core still waits on. */
  Set<String> waitingAsks();

  /**
   * The nodes the recovered core holds of each of this scheduler's allocations, by the scheduler's
   * id; {@code activeOnly} leaves out allocations that are terminating (they already gave their
   * nodes back).
   */
  Map<String, List<String>> holds(boolean activeOnly);

  /** Allocations whose timeout warning reached the core before the crash. */
  Set<String> relayedWarnings();

  /** Executes again the effects the journal had not seen executed. */
  void redispatch();

  /** Makes again every ask the recovered core still waits on. */
  void askAgain();

  /**
   * What a port's recovery did.
   *
   * @param warningsResent timeout warnings sent again (they went out, the core never relayed them)
   * @param logLine the port's line for the log, or {@code null}
   */
  record Summary(int warningsResent, String logLine) {
    /** A port that had nothing to recover. */
    public static final Summary NONE = new Summary(0, null);
  }
}
