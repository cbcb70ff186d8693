package org.jdvm.core;

import java.util.List;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/**
 * A change of the core's state, past tense. {@code State.apply(Change)} is the only code that
 * mutates state; replaying an outcome's changes in order through it rebuilds the state exactly.
 * Every value a change needs (minted ids, node lists) is in the change itself.
 */
public sealed interface Change {

  /** A tool or the scheduler registered this namespace. */
  record NamespaceRegistered(String namespace, JobKind kind) implements Change {}

  /**
   * The core accepted a spawn: a new application namespace, a child of {@code parent}, whose
   * primary session is the first of its target sessions ({@code 0xFFFFFFFF} = default session).
   *
   * @param replyTo the request to answer once every process is launched (a spawn, or the session
   *     instantiation that launches this job)
   * @param replyInfos what that reply carries before {@code PMIX_NSPACE} (a session's ids)
   * @param fill how full the job may make a node ({@code null}: its free slots); replay needs only
   *     the placements, the state keeps it so a node beyond its slots is known to be allowed
   */
  record JobSpawned(
      String namespace,
      String parent,
      Proc spawner,
      RequestId replyTo,
      List<Info> replyInfos,
      List<Long> targetSessions,
      List<App> apps,
      MapBy mapBy,
      boolean recoverable,
      Integer stdinRank,
      NodeFill fill)
      implements Change {
    public JobSpawned {
      replyInfos = List.copyOf(replyInfos);
      targetSessions = List.copyOf(targetSessions);
      apps = List.copyOf(apps);
    }
  }

  /** A namespace joined a reservation's owner set (spec §8.2.1.7). */
  record OwnerAdded(String allocId, String namespace) implements Change {}

  /** One process's place: its rank, its node, and the index of its app. */
  record Placement(int rank, String node, int appIndex) {}

  /** A job's processes were placed on nodes; each takes a slot. */
  record ProcsPlaced(String namespace, List<Placement> placements) implements Change {
    public ProcsPlaced {
      placements = List.copyOf(placements);
    }
  }

  /** Processes of a job started and have pids. */
  record ProcsStarted(String namespace, List<Report.LaunchedProc> procs) implements Change {
    public ProcsStarted {
      procs = List.copyOf(procs);
    }
  }

  /** Processes of a job ended; their slots are free. */
  record ProcsEnded(String namespace, List<Integer> ranks, ProcEnd end) implements Change {
    public ProcsEnded {
      ranks = List.copyOf(ranks);
    }
  }

  /** Every process of the job was launched and the spawn was answered. */
  record JobLaunched(String namespace) implements Change {}

  /**
   * The job is being ended (a launch failed, a process failed, it was told to terminate, or one of
   * its processes called {@code PMIx_Abort}): processes that report launched from now on are
   * killed, and {@code status} is its termination status. {@code exitCode} is the exit code an
   * abort request decided, {@code null} when the job's processes decide it.
   */
  record JobAborting(String namespace, int status, Integer exitCode) implements Change {
    public JobAborting(String namespace, int status) {
      this(namespace, status, null);
    }
  }

  /** The namespace terminated: its last process ended, or the tool departed. */
  record JobTerminated(String namespace, int status, int exitCode) implements Change {}

  /** These jobs were stopped (SIGSTOP) by a session pause or preemption. */
  record JobsStopped(List<String> namespaces) implements Change {
    public JobsStopped {
      namespaces = List.copyOf(namespaces);
    }
  }

  /** These stopped jobs were continued (SIGCONT). */
  record JobsContinued(List<String> namespaces) implements Change {
    public JobsContinued {
      namespaces = List.copyOf(namespaces);
    }
  }

  /** A terminated job nothing refers to any more left the job table (the retention bound). */
  record JobRetired(String namespace) implements Change {}

  /**
   * A request now waits for the scheduler. Nodes named by the request that are already in the DVM
   * (start-up nodes to carve, or an allocation's nodes to lend) are claimed by the ask meanwhile.
   */
  record AskOpened(
      long askId,
      AskKind kind,
      RequestId replyTo,
      Proc requester,
      AskTerms terms,
      List<String> claimedNodes)
      implements Change {
    public AskOpened {
      claimedNodes = List.copyOf(claimedNodes);
    }
  }

  /** The scheduler queued the ask. */
  record AskQueued(long askId) implements Change {}

  /** The ask was answered, cancelled or abandoned; its claims are dropped. */
  record AskClosed(long askId) implements Change {}

  /**
   * The part of a new allocation that only a scheduler-instantiated session has.
   *
   * @param autoComplete whether it ends when its last job ends (it was instantiated with apps)
   */
  record ScheduledSession(boolean autoComplete) {}

  /**
   * A new allocation, with no nodes yet ({@link NodesJoined} follows in the same outcome).
   *
   * @param parentSession the session it is a child of (decisions.md #14), or {@code null}
   * @param detached whether the owner's termination leaves it alone (session-control sessions)
   * @param scheduled non-null for a session the scheduler instantiated
   */
  record AllocationCreated(
      String allocId,
      long sessionId,
      String allocReqId,
      String owner,
      Proc requester,
      AllocInheritance inheritance,
      boolean reserved,
      Long parentSession,
      boolean separated,
      boolean detached,
      String schedulerAllocId,
      Long timeLimitSeconds,
      ScheduledSession scheduled)
      implements Change {}

  /** Nodes the scheduler granted joined the DVM (in the default session, in no allocation). */
  record NodesAdded(List<NodeSpec> nodes) implements Change {
    public NodesAdded {
      nodes = List.copyOf(nodes);
    }
  }

  /** Nodes became members of an allocation (and of its reservation, if it is reserved). */
  record NodesJoined(String allocId, List<String> nodes) implements Change {
    public NodesJoined {
      nodes = List.copyOf(nodes);
    }
  }

  /** Nodes stopped being members of an allocation and reverted to the default session. */
  record NodesLeft(String allocId, List<String> nodes) implements Change {
    public NodesLeft {
      nodes = List.copyOf(nodes);
    }
  }

  /** Nodes left the DVM. They were in no allocation and ran no live process. */
  record NodesRemoved(List<String> nodes) implements Change {
    public NodesRemoved {
      nodes = List.copyOf(nodes);
    }
  }

  /** An EXTEND's requester became the allocation's requester (spec §8.2.1.9.5). */
  record RequesterRefreshed(String allocId, Proc requester) implements Change {}

  /** An EXTEND or a session EXTEND replaced the disposition. */
  record InheritanceChanged(String allocId, AllocInheritance inheritance) implements Change {}

  /** The scheduler set (or changed) the allocation's time limit. */
  record TimeLimitSet(String allocId, Long timeLimitSeconds) implements Change {}

  /** A session's time limit was armed ({@code deadlineNs}) or disarmed ({@code null}). */
  record SessionDeadlineSet(String allocId, Long deadlineNs) implements Change {}

  /** PMIX_SESSION_SEP: detached from its requester and separated from its parent, or not. */
  record SessionSeparated(String allocId, boolean separated) implements Change {}

  /** The session is terminating: it ends when its last job retires. */
  record SessionTerminating(String allocId) implements Change {}

  /** The scheduler accepted a loan of these nodes; the allocation may reacquire them. */
  record NodesLent(String allocId, List<NodeSpec> nodes, long lendSeconds) implements Change {
    public NodesLent {
      nodes = List.copyOf(nodes);
    }
  }

  /** The allocation's loan is over: the scheduler gave the nodes back. */
  record LoanReturned(String allocId) implements Change {}

  /** The allocation ended; it had no member nodes left (spec §8.2.1.9). */
  record AllocationEnded(String allocId, AllocationEnd how) implements Change {}

  /** The DVM tore down: every job terminated, every allocation and ask is gone. */
  record TornDown() implements Change {}

  /**
   * A job's time limit ({@code PMIX_JOB_TIMEOUT}) was armed ({@code deadlineNs}, in the shell's
   * clock) or disarmed ({@code null}): at it, the job is ended with {@code PMIX_ERR_TIMEOUT}.
   * Declared last: a change's tag in the journal is its place here, so a new kind goes at the end
   * and the others keep theirs.
   */
  record JobDeadlineSet(String namespace, Long deadlineNs) implements Change {}

  /**
   * What an ended process used ({@link ProcUsage}), as its host reported it with its exit. It
   * follows the process's {@link ProcsEnded} in the same outcome; a process whose host could not
   * tell has none. Declared last: a change's journal tag is its place here.
   */
  record ProcUsed(String namespace, int rank, ProcUsage usage) implements Change {}
}
