package org.jdvm.core;

import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * An instruction for the shell. The shell executes the effects of one outcome in order; see the
 * module README for the obligations (e.g. {@link AddNodes} precedes the {@link LaunchProcs} that
 * use the nodes, {@link ShrinkNodes} precedes the {@link HandBackNodes} of the same nodes).
 */
public sealed interface Effect {

  /** Answer a request. Every request gets exactly one. */
  record Reply(RequestId requestId, int status, List<Info> infos) implements Effect {
    public Reply {
      Objects.requireNonNull(requestId, "requestId");
      infos = List.copyOf(infos);
    }

    public boolean succeeded() {
      return status == PmixStatus.SUCCESS;
    }
  }

  /**
   * Ask the scheduler (decisions.md #4, #8). The scheduler answers with a report naming {@code
   * askId}: granted, refused, queued, or (for a queued ask) cancelled.
   *
   * @param kind what the scheduler is asked for. An EXTEND or REAQUIRE of an allocation the
   *     scheduler gave nothing to ({@code schedulerAllocId} null) is asked as NEW: the answer still
   *     goes to the EXTEND or REAQUIRE, and the granted nodes join its allocation
   * @param allocId the allocation an EXTEND, REAQUIRE or LEND is for; for NEW, the id asked for
   * @param schedulerAllocId the scheduler's own id of that allocation, if it gave one
   * @param nodeCount how many nodes (0 when named, or for a time-only EXTEND)
   * @param nodeNames the nodes asked for by name (to get, to get back, or to lend)
   * @param required whether a request the scheduler can never satisfy is refused (else it queues)
   */
  record AskScheduler(
      long askId,
      AskKind kind,
      String allocId,
      String schedulerAllocId,
      int nodeCount,
      List<String> nodeNames,
      Long timeLimitSeconds,
      Long warnTimeoutSeconds,
      boolean required,
      Long lendSeconds)
      implements Effect {
    public AskScheduler {
      Objects.requireNonNull(kind, "kind");
      nodeNames = List.copyOf(nodeNames);
    }
  }

  /** Withdraw an ask that is still waiting for (or queued by) the scheduler. */
  record CancelAsk(long askId) implements Effect {}

  /**
   * Give nodes back to the scheduler: they have already been shrunk out of the DVM (or never joined
   * it). With {@code lendSeconds} they are lent, and the allocation may reacquire them. {@code
   * allocId} is {@code null} for nodes the scheduler granted to an ask that no longer exists, or in
   * a grant the core did not take because it would pass a {@link Limits} bound.
   */
  record HandBackNodes(
      String allocId, String schedulerAllocId, List<String> nodeNames, Long lendSeconds)
      implements Effect {
    public HandBackNodes {
      nodeNames = List.copyOf(nodeNames);
    }
  }

  /** Start agents on these nodes: they join the DVM. */
  record AddNodes(List<NodeSpec> nodes) implements Effect {
    public AddNodes {
      nodes = List.copyOf(nodes);
    }
  }

  /**
   * Take these nodes out of the DVM: kill everything on them and stop their agents. Never names the
   * controller's own node. The core already counts their processes as ended.
   */
  record ShrinkNodes(List<String> nodeNames) implements Effect {
    public ShrinkNodes {
      nodeNames = List.copyOf(nodeNames);
    }
  }

  /**
   * One process to start: its rank, its app, the environment the core adds, and whether its
   * standard input is a pipe its spawner may write to (else it reads {@code /dev/null}).
   */
  record ProcLaunch(int rank, int appIndex, App app, List<String> env, boolean stdin) {
    public ProcLaunch {
      env = List.copyOf(env);
    }
  }

  /** Start these processes of a job on one node; the agent reports launched or failed for each. */
  record LaunchProcs(String node, String namespace, List<ProcLaunch> procs) implements Effect {
    public LaunchProcs {
      procs = List.copyOf(procs);
    }
  }

  /** Send a signal to these running processes of a job on one node. */
  record SignalProcs(String node, String namespace, List<Integer> ranks, int signal)
      implements Effect {
    public SignalProcs {
      ranks = List.copyOf(ranks);
    }
  }

  /** Kill these processes of a job on one node; each will be reported exited. */
  record KillProcs(String node, String namespace, List<Integer> ranks) implements Effect {
    public KillProcs {
      ranks = List.copyOf(ranks);
    }
  }

  /** Deliver a PMIx event to one process only (a directed event, never a broadcast). */
  record NotifyProc(Proc target, int status, Proc source, List<Info> infos) implements Effect {
    public NotifyProc {
      infos = List.copyOf(infos);
    }
  }

  /** One job of a completed session and how it ended. */
  record JobStatus(String namespace, int status, int exitCode) {}

  /**
   * Tell the scheduler a session it instantiated is complete ({@code PMIX_SESSION_COMPLETE}), once,
   * with each job that ran in it. A job still running on nodes that stayed in the DVM is listed
   * with {@code PMIX_OPERATION_IN_PROGRESS}.
   */
  record ReportSessionComplete(long sessionId, String allocId, List<JobStatus> jobs)
      implements Effect {
    public ReportSessionComplete {
      jobs = List.copyOf(jobs);
    }
  }
}
