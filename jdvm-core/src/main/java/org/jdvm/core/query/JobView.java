package org.jdvm.core.query;

import java.util.List;
import org.jdvm.core.JobKind;
import org.jdvm.core.ProcUsage;
import org.jdvm.pmix.Proc;

/** A namespace the core knows, read-only. */
public interface JobView {
  /** Where a job is in its life. */
  enum State {
    /** Spawned; some of its processes are not launched yet. */
    LAUNCHING,
    /** Every process was launched (or it is a connected tool or scheduler). */
    RUNNING,
    /** A launch failed or it was told to terminate; its processes are being killed. */
    ABORTING,
    /** Its last process ended, or the tool departed. */
    TERMINATED
  }

  String namespace();

  JobKind kind();

  State state();

  /** The namespace that spawned it, or {@code null} for a tool or the scheduler. */
  String parent();

  /**
   * The process whose spawn request made it (a rank of its parent, or the tool), or {@code null}
   * for a tool, the scheduler, or a job the DVM itself spawned.
   */
  Proc spawner();

  /** Namespaces it spawned, oldest first. */
  List<String> children();

  /** Its primary session's id ({@code 0xFFFFFFFF}: the default session). */
  long primarySessionId();

  /** Every session it may map onto. */
  List<Long> targetSessionIds();

  /** The live allocations whose owning namespace it is: their disposition fires on its end. */
  List<String> owningAllocIds();

  /** The live reservations whose owner set holds it (spawned into, or its own). */
  List<String> ownerSetAllocIds();

  /** Its live transitive descendants (decisions.md #12). */
  int liveDescendants();

  /** Whether a session pause or preemption has it stopped. */
  boolean stopped();

  /** Its termination status (PMIx); meaningful once TERMINATED. */
  int status();

  /** Its exit code for a shell; meaningful once TERMINATED. */
  int exitCode();

  List<? extends ProcView> procs();

  /**
   * What its ended processes used together ({@link ProcUsage#plus}), derived from theirs; {@code
   * null} when none of them has a usage.
   */
  default ProcUsage usage() {
    ProcUsage total = null;
    for (ProcView p : procs()) {
      if (p != null && p.usage() != null) {
        total = total == null ? p.usage() : total.plus(p.usage());
      }
    }
    return total;
  }
}
