package org.jdvm.core.query;

import java.util.Collection;
import java.util.Optional;
import org.jdvm.core.Request;
import org.jdvm.pmix.Proc;

/**
 * The read-only views the shell serves queries from. They are live views of the core's state, not
 * copies: read them on the controller thread between commands, and copy what must outlive that.
 * Every lookup is a hash lookup; listings are views of the tables.
 */
public interface CoreView {
  Optional<? extends NodeView> node(String name);

  /** Every node of the DVM, start-up pool first. */
  Collection<? extends NodeView> nodes();

  /** A live allocation by {@code PMIX_ALLOC_ID} (or the scheduler's own id). */
  Optional<? extends AllocationView> allocation(String allocId);

  /** A live allocation by its {@code PMIX_ALLOC_REQ_ID}. */
  Optional<? extends AllocationView> allocationByReqId(String allocReqId);

  /** {@code PMIX_QUERY_ALLOC_STATUS}: by allocation id first, then by request id. */
  Optional<AllocationStatus> allocationStatus(String allocIdOrReqId);

  /** {@code PMIX_QUERY_ALLOC_IDS}. */
  Collection<String> allocationIds();

  /** Every live allocation, oldest first. */
  Collection<? extends AllocationView> allocations();

  /** Every request waiting for the scheduler, oldest first. */
  Collection<? extends PendingView> pending();

  Optional<? extends JobView> job(String namespace);

  /** Every namespace the job table holds (terminated ones until they are retired). */
  Collection<? extends JobView> jobs();

  /** What a launched process learns at init, or empty if it is not a placed process. */
  Optional<ProcInitInfo> procInfo(Proc proc);

  /**
   * {@code jdvm explain}: what this spawn would do now and why, per node (spec §8.2.1.6–§8.2.1.8):
   * every node of the DVM, or only {@code node}, or only allocation {@code allocId}'s nodes.
   * Decided by the spawn's own functions, so it agrees with {@code Core.handle} of the same spawn
   * in the same state; changes nothing.
   */
  Explanation explain(Request.Spawn wouldBe, String node, String allocId);

  /** {@code jdvm explain JOB}: where a job's processes are, and why not elsewhere. */
  Optional<Explanation> explainJob(String namespace, String node, String allocId);

  /** A remembered ended allocation, by allocation id or request id (bounded memory). */
  Optional<EndedAllocation> endedAllocation(String allocIdOrReqId);

  /** Every remembered ended allocation, oldest first. */
  Collection<EndedAllocation> endedAllocations();

  /** What last happened to a node that left an allocation or the DVM, if remembered. */
  Optional<NodeFate> nodeFate(String node);

  /** Whether the DVM has torn down. */
  boolean tornDown();
}
