package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdvm.core.Request;
import org.jdvm.core.query.AllocationStatus;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.EndedAllocation;
import org.jdvm.core.query.Explainer;
import org.jdvm.core.query.Explanation;
import org.jdvm.core.query.NodeFate;
import org.jdvm.core.query.ProcInitInfo;
import org.jdvm.pmix.Proc;

/**
 * The shell's queries (jdvm-core/README.md "Queries"), answered from the tables' own indexes:
 * lookups are hash lookups, listings are unmodifiable views of the tables, nothing is copied per
 * call except the small records a lookup returns.
 */
public final class StateQueries implements CoreView {
  private final State state;
  private final Explainer explainer;

  public StateQueries(State state, Explainer explainer) {
    this.state = state;
    this.explainer = explainer;
  }

  @Override
  public Explanation explain(Request.Spawn wouldBe, String node, String allocId) {
    return explainer.explain(wouldBe, node, allocId);
  }

  @Override
  public Optional<Explanation> explainJob(String namespace, String node, String allocId) {
    return explainer.explainJob(namespace, node, allocId);
  }

  @Override
  public Optional<EndedAllocation> endedAllocation(String allocIdOrReqId) {
    return Optional.ofNullable(state.history().ended(allocIdOrReqId));
  }

  @Override
  public Collection<EndedAllocation> endedAllocations() {
    return state.history().ended();
  }

  @Override
  public Optional<NodeFate> nodeFate(String node) {
    return Optional.ofNullable(state.history().fate(node));
  }

  @Override
  public Optional<Node> node(String name) {
    return Optional.ofNullable(state.nodes().get(name));
  }

  @Override
  public Collection<Node> nodes() {
    return state.nodes().all();
  }

  @Override
  public Optional<Allocation> allocation(String allocId) {
    return Optional.ofNullable(state.allocations().byAnyId(allocId));
  }

  @Override
  public Optional<Allocation> allocationByReqId(String allocReqId) {
    return Optional.ofNullable(state.allocations().byReqId(allocReqId));
  }

  @Override
  public Optional<AllocationStatus> allocationStatus(String id) {
    Allocation a = state.allocations().byAnyId(id);
    if (a == null) {
      a = state.allocations().byReqId(id);
    }
    if (a != null) {
      AllocationStatus.State s =
          a.terminating() ? AllocationStatus.State.TERMINATING : AllocationStatus.State.ACTIVE;
      return Optional.of(new AllocationStatus(s, a, null));
    }
    Ask ask = state.asks().newByAllocId(id);
    if (ask == null) {
      ask = state.asks().newByReqId(id);
    }
    if (ask == null) {
      return Optional.empty();
    }
    AllocationStatus.State s =
        ask.queued() ? AllocationStatus.State.QUEUED : AllocationStatus.State.PENDING;
    return Optional.of(new AllocationStatus(s, null, ask));
  }

  @Override
  public Collection<String> allocationIds() {
    return state.allocations().ids();
  }

  @Override
  public Collection<Allocation> allocations() {
    return state.allocations().all();
  }

  @Override
  public Collection<Ask> pending() {
    return state.asks().all();
  }

  @Override
  public Optional<Job> job(String namespace) {
    return Optional.ofNullable(state.jobs().get(namespace));
  }

  @Override
  public Collection<Job> jobs() {
    return state.jobs().all();
  }

  @Override
  public Optional<ProcInitInfo> procInfo(Proc proc) {
    Job job = state.jobs().get(proc.nspace());
    ProcRecord me = job == null ? null : job.proc(proc.rank());
    if (me == null) {
      return Optional.empty();
    }
    List<Integer> peers = new ArrayList<>();
    for (ProcRecord p : me.nodeRecord().residents()) {
      if (p.job() == job) {
        peers.add(p.rank());
      }
    }
    peers.sort(null);
    Allocation primary = state.allocations().bySession(job.primarySessionId());
    String allocId = primary != null && primary.liveJobs().contains(job) ? primary.allocId() : null;
    return Optional.of(
        new ProcInitInfo(
            job.namespace(),
            me.rank(),
            job.size(),
            me.node(),
            peers,
            me.appIndex(),
            job.primarySessionId(),
            allocId));
  }

  @Override
  public boolean tornDown() {
    return state.tornDown();
  }
}
