package org.jdvm.core.session;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change.InheritanceChanged;
import org.jdvm.core.Change.JobsContinued;
import org.jdvm.core.Change.JobsStopped;
import org.jdvm.core.Change.SessionDeadlineSet;
import org.jdvm.core.Change.SessionSeparated;
import org.jdvm.core.Change.SessionTerminating;
import org.jdvm.core.Change.TimeLimitSet;
import org.jdvm.core.Request.SessionControl;
import org.jdvm.core.alloc.Creation;
import org.jdvm.core.job.Aborts;
import org.jdvm.core.lifecycle.Lifecycle;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Signal;

/**
 * The operations on an existing session (decisions.md #13–#14). Pause and preempt stop jobs with
 * SIGSTOP, resume and restore continue them with SIGCONT; which jobs are stopped is tracked, so no
 * job is stopped or continued twice. Terminate continues stopped jobs and kills every job; the
 * session ends when its last job has retired, and its children end with it unless separated.
 */
public final class SessionOps {
  private SessionOps() {}

  static void operate(ParsedControl p, Allocation s, Txn txn) {
    SessionControl r = p.request();
    if (p.op() != null) {
      switch (p.op()) {
        case TERMINATE -> terminate(s, txn);
        case PAUSE -> stop(s.liveJobs(), txn);
        case RESUME -> resume(s.liveJobs(), txn);
        case PREEMPT -> stop(selected(s, r.namespaces()), txn);
        case RESTORE -> resume(selected(s, r.namespaces()), txn);
        case SIGNAL -> s.liveJobs().forEach(j -> Aborts.signalRunning(j, r.signal(), txn));
        case EXTEND -> extend(p, s, txn);
        case INSTANTIATE, COMPLETE ->
            throw new IllegalStateException("not an operation: " + p.op());
      }
    }
    if (r.separate() != null && txn.state().allocations().byAllocId(s.allocId()) == s) {
      if (r.separate() != s.separated()) {
        txn.change(new SessionSeparated(s.allocId(), r.separate()));
      }
      Lifecycle.fireIfDue(s, txn);
    }
  }

  /**
   * Terminates a session and, first, its children that are not separated: every job is continued if
   * stopped and killed; the session completes when its last job ends (now, if it has none).
   */
  public static void terminate(Allocation s, Txn txn) {
    for (Allocation child : List.copyOf(s.children())) {
      if (!child.separated()) {
        terminate(child, txn);
      }
    }
    if (txn.state().allocations().byAllocId(s.allocId()) != s) {
      return;
    }
    if (!s.terminating()) {
      txn.change(new SessionTerminating(s.allocId()));
    }
    if (s.deadlineNs() != null) {
      txn.change(new SessionDeadlineSet(s.allocId(), null));
    }
    resume(s.liveJobs(), txn);
    for (Job j : List.copyOf(s.liveJobs())) {
      Aborts.abort(j, PmixStatus.ERR_JOB_CANCELED, txn);
    }
    Lifecycle.completeIfDone(s, txn);
  }

  private static void extend(ParsedControl p, Allocation s, Txn txn) {
    Creation.addNodes(p.fresh(), txn);
    Instantiation.join(s.allocId(), p, txn);
    Long limit = p.timeLimitSeconds();
    if (limit != null) {
      Long deadline = limit == 0 ? null : Instantiation.deadline(txn, limit);
      txn.change(new SessionDeadlineSet(s.allocId(), deadline));
      txn.change(new TimeLimitSet(s.allocId(), limit == 0 ? null : limit));
    }
    if (p.inheritance() != null && p.inheritance() != s.inheritance()) {
      txn.change(new InheritanceChanged(s.allocId(), p.inheritance()));
      Lifecycle.fireIfDue(s, txn);
    }
  }

  private static void stop(Iterable<Job> jobs, Txn txn) {
    List<String> stopped = new ArrayList<>();
    for (Job j : jobs) {
      if (!j.stopped()) {
        Aborts.signalRunning(j, Signal.STOP.number(), txn);
        stopped.add(j.namespace());
      }
    }
    if (!stopped.isEmpty()) {
      txn.change(new JobsStopped(stopped));
    }
  }

  private static void resume(Iterable<Job> jobs, Txn txn) {
    List<String> continued = new ArrayList<>();
    for (Job j : jobs) {
      if (j.stopped()) {
        Aborts.signalRunning(j, Signal.CONT.number(), txn);
        continued.add(j.namespace());
      }
    }
    if (!continued.isEmpty()) {
      txn.change(new JobsContinued(continued));
    }
  }

  /** PREEMPT/RESTORE qualifiers: the named jobs of the session, or all of them if none named. */
  private static List<Job> selected(Allocation s, List<String> namespaces) {
    return namespaces.isEmpty() ? List.copyOf(s.liveJobs()) : named(s, namespaces);
  }

  static List<Job> named(Allocation s, List<String> namespaces) {
    List<Job> out = new ArrayList<>();
    for (Job j : s.liveJobs()) {
      if (namespaces.contains(j.namespace())) {
        out.add(j);
      }
    }
    return out;
  }
}
