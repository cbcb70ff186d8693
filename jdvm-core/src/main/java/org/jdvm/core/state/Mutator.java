package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.Change;
import org.jdvm.core.Change.AllocationCreated;
import org.jdvm.core.Change.AllocationEnded;
import org.jdvm.core.Change.AskClosed;
import org.jdvm.core.Change.AskOpened;
import org.jdvm.core.Change.AskQueued;
import org.jdvm.core.Change.InheritanceChanged;
import org.jdvm.core.Change.JobAborting;
import org.jdvm.core.Change.JobLaunched;
import org.jdvm.core.Change.JobRetired;
import org.jdvm.core.Change.JobSpawned;
import org.jdvm.core.Change.JobTerminated;
import org.jdvm.core.Change.JobsContinued;
import org.jdvm.core.Change.JobsStopped;
import org.jdvm.core.Change.LoanReturned;
import org.jdvm.core.Change.NamespaceRegistered;
import org.jdvm.core.Change.NodesAdded;
import org.jdvm.core.Change.NodesJoined;
import org.jdvm.core.Change.NodesLeft;
import org.jdvm.core.Change.NodesLent;
import org.jdvm.core.Change.NodesRemoved;
import org.jdvm.core.Change.OwnerAdded;
import org.jdvm.core.Change.ProcsEnded;
import org.jdvm.core.Change.ProcsPlaced;
import org.jdvm.core.Change.ProcsStarted;
import org.jdvm.core.Change.RequesterRefreshed;
import org.jdvm.core.Change.SessionDeadlineSet;
import org.jdvm.core.Change.SessionSeparated;
import org.jdvm.core.Change.SessionTerminating;
import org.jdvm.core.Change.TimeLimitSet;
import org.jdvm.core.Change.TornDown;
import org.jdvm.core.JobKind;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.query.NodeView.Origin;
import org.jdvm.pmix.App;

/**
 * Applies each kind of {@link Change}. This class and the tables' package-private methods it calls
 * are the only code that writes state; each handler checks the change's preconditions first.
 */
final class Mutator {
  private final State state;
  private final NodeTable nodes;
  private final JobTable jobs;
  private final AllocationTable allocations;
  private final AskTable asks;

  Mutator(State state) {
    this.state = state;
    this.nodes = state.nodes();
    this.jobs = state.jobs();
    this.allocations = state.allocations();
    this.asks = state.asks();
  }

  void apply(Change change) {
    switch (change) {
      case NamespaceRegistered c ->
          jobs.add(new Job(c.namespace(), c.kind(), null, null, null, null, List.of(), null));
      case JobSpawned c -> spawned(c);
      case Change.JobDeadlineSet c -> jobs.setDeadline(live(c.namespace()), c.deadlineNs());
      case OwnerAdded c -> ownerAdded(allocation(c.allocId()), live(c.namespace()));
      case ProcsPlaced c -> placed(c);
      case ProcsStarted c -> started(c);
      case ProcsEnded c -> ended(c);
      case JobLaunched c -> launched(job(c.namespace()));
      case JobAborting c -> aborting(job(c.namespace()), c.status(), c.exitCode());
      case JobTerminated c -> terminated(c);
      case JobsStopped c -> c.namespaces().forEach(ns -> live(ns).stopped = true);
      case JobsContinued c -> c.namespaces().forEach(ns -> live(ns).stopped = false);
      case JobRetired c -> jobs.retire(job(c.namespace()));
      case AskOpened c -> askOpened(c);
      case AskQueued c -> ask(c.askId()).queued = true;
      case AskClosed c -> askClosed(ask(c.askId()));
      case AllocationCreated c -> created(c);
      case NodesAdded c -> added(c);
      case NodesJoined c -> joined(allocation(c.allocId()), c.nodes());
      case NodesLeft c -> left(allocation(c.allocId()), c.nodes());
      case NodesRemoved c -> removed(c.nodes());
      case RequesterRefreshed c -> allocation(c.allocId()).requester = c.requester();
      case InheritanceChanged c -> allocation(c.allocId()).inheritance = c.inheritance();
      case TimeLimitSet c -> allocation(c.allocId()).timeLimitSeconds = c.timeLimitSeconds();
      case SessionDeadlineSet c -> allocations.setDeadline(allocation(c.allocId()), c.deadlineNs());
      case SessionSeparated c -> separated(allocation(c.allocId()), c.separated());
      case SessionTerminating c -> allocation(c.allocId()).terminating = true;
      case NodesLent c -> lent(allocation(c.allocId()), c);
      case LoanReturned c -> allocation(c.allocId()).lent = List.of();
      case AllocationEnded c -> ended(allocation(c.allocId()), c);
      case TornDown c -> tornDown();
      case Change.ProcUsed c -> used(c);
    }
  }

  private void used(Change.ProcUsed c) {
    ProcRecord proc = Check.found(job(c.namespace()).proc(c.rank()), "process", c.rank());
    Check.state(!proc.live(), "usage of a live process", c.namespace() + "." + c.rank());
    proc.usage = c.usage();
  }

  private void spawned(JobSpawned c) {
    Job parent = live(c.parent());
    long[] targets = c.targetSessions().stream().mapToLong(Long::longValue).toArray();
    Check.state(targets.length > 0, "a job without a session", c.namespace());
    Job job =
        new Job(
            c.namespace(),
            JobKind.APPLICATION,
            parent,
            c.spawner(),
            c.replyTo(),
            targets,
            c.apps(),
            c.mapBy());
    job.replyInfos = c.replyInfos();
    job.recoverable = c.recoverable();
    job.stdinRank = c.stdinRank();
    job.fill = c.fill();
    int size = 0;
    for (App app : c.apps()) {
      size += app.maxprocs();
    }
    Check.state(size > 0, "a job without processes", c.namespace());
    job.procs = new ProcRecord[size];
    jobs.add(job);
    Allocation primary = allocations.bySession(targets[0]);
    if (primary != null) {
      primary.jobs.add(job);
    }
  }

  private void ownerAdded(Allocation a, Job job) {
    Check.state(a.owners.add(job.namespace()), "owner added twice", job);
    job.ownerOf = plus(job.ownerOf, a);
  }

  private void placed(ProcsPlaced c) {
    Job job = live(c.namespace());
    for (Change.Placement p : c.placements()) {
      Check.state(job.proc(p.rank()) == null && p.rank() < job.size(), "rank placed twice", p);
      ProcRecord proc = new ProcRecord(job, p.rank(), node(p.node()), p.appIndex());
      job.procs[p.rank()] = proc;
      nodes.place(proc);
      job.liveProcs++;
    }
  }

  private void started(ProcsStarted c) {
    Job job = live(c.namespace());
    for (var launched : c.procs()) {
      ProcRecord proc = Check.found(job.proc(launched.rank()), "process", launched);
      Check.state(proc.state == ProcRecord.State.PLACED, "process started twice", launched);
      proc.state = ProcRecord.State.RUNNING;
      proc.pid = launched.pid();
      job.startedProcs++;
    }
  }

  private void ended(ProcsEnded c) {
    Job job = live(c.namespace());
    for (int rank : c.ranks()) {
      ProcRecord proc = Check.found(job.proc(rank), "process", rank);
      Check.state(proc.live(), "process ended twice", c.namespace() + "." + rank);
      proc.state = ProcRecord.State.ENDED;
      proc.end = c.end();
      nodes.free(proc);
      job.liveProcs--;
      if (job.firstAbnormal == null && c.end().abnormal()) {
        job.firstAbnormal = c.end();
      }
    }
  }

  private void launched(Job job) {
    Check.state(job.state == Job.State.LAUNCHING, "job launched twice", job);
    job.state = Job.State.RUNNING;
    job.replyTo = null;
  }

  private void aborting(Job job, int status, Integer exitCode) {
    Check.state(job.live() && job.kind() == JobKind.APPLICATION, "only a live job aborts", job);
    job.state = Job.State.ABORTING;
    job.status = status;
    job.abortExitCode = exitCode;
    job.replyTo = null;
  }

  private void terminated(JobTerminated c) {
    Job job = live(c.namespace());
    Check.state(job.asksFor.isEmpty(), "a namespace terminated with asks for it", job);
    job.status = c.status();
    job.exitCode = c.exitCode();
    job.replyTo = null;
    for (Allocation a : job.ownerOf) {
      a.owners.remove(job.namespace());
    }
    job.ownerOf = List.of();
    Allocation primary = allocations.bySession(job.primarySessionId());
    if (primary != null && primary.jobs.remove(job) && primary.schedulerSession()) {
      primary.history.add(
          new org.jdvm.core.Effect.JobStatus(job.namespace(), c.status(), c.exitCode()));
    }
    jobs.terminate(job, ++state.terminationSeq);
  }

  private void askOpened(AskOpened c) {
    List<Node> claimed = new ArrayList<>(c.claimedNodes().size());
    for (String name : c.claimedNodes()) {
      Node n = node(name);
      nodes.claim(n, c.askId());
      claimed.add(n);
    }
    Ask ask = new Ask(c.askId(), c.kind(), c.replyTo(), c.requester(), c.terms(), claimed);
    asks.add(ask);
    if (c.kind() == AskKind.NEW) {
      Job owner = live(c.terms().owner());
      owner.asksFor = plus(owner.asksFor, ask);
    } else {
      allocation(c.terms().allocId());
    }
  }

  private void askClosed(Ask ask) {
    for (Node n : ask.claimed) {
      nodes.unclaim(n, ask.askId());
    }
    asks.remove(ask);
    if (ask.kind() == AskKind.NEW) {
      Job owner = job(ask.terms().owner());
      owner.asksFor = minus(owner.asksFor, ask);
    }
  }

  private void created(AllocationCreated c) {
    Job owner = live(c.owner());
    Allocation a = new Allocation(c, owner);
    allocations.add(a, c.scheduled() == null);
    owner.owning = plus(owner.owning, a);
    ownerAdded(a, owner);
    if (c.parentSession() != null) {
      Allocation parent = Check.found(allocations.bySession(c.parentSession()), "session", c);
      a.parent = parent;
      parent.children.add(a);
    }
  }

  private void added(NodesAdded c) {
    for (NodeSpec n : c.nodes()) {
      nodes.add(n, Origin.SCHEDULER, false);
      state.history().nodeArrived(n.name());
    }
  }

  private void left(Allocation a, List<String> names) {
    for (String n : names) {
      nodes.leave(a, node(n));
    }
    state.history().nodesLeft(a.allocId(), names);
  }

  private void removed(List<String> names) {
    for (String n : names) {
      removed(node(n));
    }
    state.history().nodesRemoved(names);
  }

  private void joined(Allocation a, List<String> names) {
    for (String name : names) {
      state.history().nodeArrived(name);
      Node n = node(name);
      Check.state(n.claimedBy == 0, "a claimed node joined an allocation", n);
      nodes.join(a, n);
    }
  }

  private void removed(Node n) {
    if (n.claimedBy != 0) {
      Ask ask = ask(n.claimedBy);
      ask.claimed.remove(n);
      nodes.unclaim(n, ask.askId());
    }
    nodes.remove(n);
  }

  private void separated(Allocation a, boolean separated) {
    a.separated = separated;
    a.detached = separated;
  }

  private void lent(Allocation a, NodesLent c) {
    List<NodeSpec> all = new ArrayList<>(a.lent);
    all.addAll(c.nodes());
    a.lent = List.copyOf(all);
    a.lendSeconds = c.lendSeconds();
  }

  private void ended(Allocation a, AllocationEnded c) {
    Check.state(a.members.isEmpty(), "an allocation ended with member nodes", a);
    state.history().allocationEnded(a, c.how());
    allocations.remove(a);
    Job owner = a.ownerJob();
    owner.owning = minus(owner.owning, a);
    for (String ns : a.owners) {
      Job j = job(ns);
      j.ownerOf = minus(j.ownerOf, a);
    }
    for (Allocation child : a.children) {
      child.parent = null;
    }
    if (a.parent != null) {
      a.parent.children.remove(a);
    }
    jobs.offerRetirable(owner);
  }

  /**
   * Teardown as primitive steps, in table order (so replay repeats it exactly): close every ask,
   * end every process, empty and end every allocation, terminate every namespace, and drop the
   * scheduler's nodes.
   */
  private void tornDown() {
    for (Ask ask : new ArrayList<>(asks.all())) {
      askClosed(ask);
    }
    for (Allocation a : new ArrayList<>(allocations.all())) {
      for (Node n : new ArrayList<>(a.members)) {
        nodes.leave(a, n);
      }
      ended(a, new AllocationEnded(a.allocId(), org.jdvm.core.AllocationEnd.TORN_DOWN));
    }
    for (Job job : new ArrayList<>(jobs.all())) {
      if (job.live()) {
        for (ProcRecord p : job.procs()) {
          if (p.live()) {
            p.state = ProcRecord.State.ENDED;
            p.end = org.jdvm.core.ProcEnd.DEPARTED;
            nodes.free(p);
            job.liveProcs--;
          }
        }
        terminated(new JobTerminated(job.namespace(), Job.TORN_DOWN_STATUS, job.exitCode));
      }
    }
    for (Node n : new ArrayList<>(nodes.all())) {
      if (n.origin() == Origin.SCHEDULER) {
        nodes.remove(n);
      }
    }
    state.tornDown = true;
  }

  private Job job(String namespace) {
    return Check.found(jobs.get(namespace), "namespace", namespace);
  }

  private Job live(String namespace) {
    Job job = job(namespace);
    Check.state(job.live(), "namespace is terminated", namespace);
    return job;
  }

  private Node node(String name) {
    return Check.found(nodes.get(name), "node", name);
  }

  private Allocation allocation(String allocId) {
    return Check.found(allocations.byAllocId(allocId), "allocation", allocId);
  }

  private Ask ask(long askId) {
    return Check.found(asks.get(askId), "ask", askId);
  }

  static <T> List<T> plus(List<T> list, T item) {
    if (list.isEmpty()) {
      return List.of(item);
    }
    List<T> out = list instanceof ArrayList<T> a ? a : new ArrayList<>(list);
    out.add(item);
    return out;
  }

  static <T> List<T> minus(List<T> list, T item) {
    if (list.size() == 1 && list.get(0) == item) {
      return List.of();
    }
    List<T> out = list instanceof ArrayList<T> a ? a : new ArrayList<>(list);
    Check.state(out.remove(item), "removed an item that was not listed", item);
    return out;
  }
}
