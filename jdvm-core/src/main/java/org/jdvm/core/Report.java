package org.jdvm.core;

import java.util.List;
import java.util.Objects;

/**
 * A fact the shell observed. Reports are never answered. A report about something the core no
 * longer knows (a process already ended, an ask already closed, an allocation already gone) is
 * stale: it changes nothing, except that nodes a scheduler grants for nothing are handed back.
 */
public sealed interface Report extends Command {

  /** One launched process and its operating-system pid. */
  record LaunchedProc(int rank, long pid) {}

  /** An agent started these processes of a job on its node. */
  record ProcsLaunched(String node, String namespace, List<LaunchedProc> procs) implements Report {
    public ProcsLaunched {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(namespace, "namespace");
      procs = List.copyOf(procs);
    }
  }

  /** An agent could not start these processes of a job on its node. */
  record LaunchFailed(String node, String namespace, List<Integer> ranks, int status)
      implements Report {
    public LaunchFailed {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(namespace, "namespace");
      ranks = List.copyOf(ranks);
    }
  }

  /**
   * A process ended: with an exit code, or killed by a signal ({@code signal > 0}); {@code usage}
   * is what it used, when its host could tell ({@code null}: not known, e.g. its node was lost or
   * the report was made up by recovery).
   */
  record ProcExited(String namespace, int rank, int exitCode, int signal, ProcUsage usage)
      implements Report {
    public ProcExited {
      Objects.requireNonNull(namespace, "namespace");
    }

    /** An end whose usage is not known. */
    public ProcExited(String namespace, int rank, int exitCode, int signal) {
      this(namespace, rank, exitCode, signal, null);
    }
  }

  /** A node (its agent) is gone; every process on it is gone with it. */
  record NodeLost(String node) implements Report {
    public NodeLost {
      Objects.requireNonNull(node, "node");
    }
  }

  /**
   * The scheduler grants an ask. For NEW, EXTEND and REAQUIRE it names the nodes (EXTEND may grant
   * only time); for LEND it accepts the loan and names none.
   *
   * @param schedulerAllocId the scheduler's own id for the allocation, if it has one
   * @param timeLimitSeconds the allocation's time limit as the scheduler set it, if any
   */
  record SchedulerGranted(
      long askId, List<NodeSpec> nodes, String schedulerAllocId, Long timeLimitSeconds)
      implements Report {
    public SchedulerGranted {
      nodes = List.copyOf(nodes);
      for (NodeSpec n : nodes) {
        if (n.slots() < 1) {
          throw new IllegalArgumentException("a granted node offers at least one slot: " + n);
        }
      }
    }
  }

  /** The scheduler refuses an ask, with the status the requester will see. */
  record SchedulerRefused(long askId, int status) implements Report {}

  /** The scheduler cannot satisfy a not-required ask now and queued it. */
  record SchedulerQueued(long askId) implements Report {}

  /** The scheduler dropped a queued ask on its own. */
  record SchedulerCancelled(long askId) implements Report {}

  /**
   * The scheduler's {@code PMIX_ALLOC_TIMEOUT_WARNING} for an allocation (spec §8.2.1.9.5).
   *
   * @param allocId the allocation, by {@code PMIX_ALLOC_ID} or by the scheduler's own id
   * @param secondsRemaining {@code PMIX_TIME_REMAINING}, if the scheduler supplied it
   */
  record SchedulerTimeoutWarning(String allocId, Long secondsRemaining) implements Report {
    public SchedulerTimeoutWarning {
      Objects.requireNonNull(allocId, "allocId");
    }
  }

  /** Why the scheduler took an allocation back; informational, both end it the same way. */
  enum ReclaimReason {
    EXPIRED,
    ADMINISTRATIVE
  }

  /**
   * The scheduler terminated an allocation (spec §8.2.1.9.1 trigger 3): its nodes are already the
   * scheduler's again.
   */
  record SchedulerReclaimed(String allocId, ReclaimReason reason) implements Report {
    public SchedulerReclaimed {
      Objects.requireNonNull(allocId, "allocId");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * A tool (or the scheduler) finalized or lost its connection: its namespace terminates
   * (decisions.md #11).
   */
  record ToolDeparted(String namespace, boolean connectionLost) implements Report {
    public ToolDeparted {
      Objects.requireNonNull(namespace, "namespace");
    }
  }

  /** Time passed; the core acts on deadlines at or before now (session time limits). */
  record Tick() implements Report {}

  /** The DVM is going down: every session ends, scheduler nodes go back, every process dies. */
  record Teardown() implements Report {}
}
