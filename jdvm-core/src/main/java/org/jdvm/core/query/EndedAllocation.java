package org.jdvm.core.query;

import java.util.List;
import org.jdvm.core.AllocationEnd;
import org.jdvm.pmix.AllocInheritance;

/**
 * An allocation that ended, as the core remembers it (spec §8.2.1.9): what it was, how it ended and
 * which nodes went with it. The memory is bounded ({@code State}'s history keeps the latest ones)
 * and covers what happened since the controller started or last read a snapshot: it explains, it
 * decides nothing.
 *
 * @param ownerEnded whether the owning namespace had terminated when the allocation ended: then a
 *     RELEASED end was its NONE or CHILD disposition and an UNRESERVED one its DEFAULT or
 *     CHILD_DEFAULT disposition (spec §8.2.1.9.2); otherwise an owner's release or the scheduler
 * @param nodes the member nodes it had when it ended
 * @param nodesGone those of them that left the DVM with it (back to the scheduler)
 */
public record EndedAllocation(
    String allocId,
    String allocReqId,
    long sessionId,
    String owner,
    boolean ownerEnded,
    List<String> owners,
    AllocInheritance inheritance,
    boolean reserved,
    AllocationEnd how,
    List<String> nodes,
    List<String> nodesGone) {
  public EndedAllocation {
    owners = List.copyOf(owners);
    nodes = List.copyOf(nodes);
    nodesGone = List.copyOf(nodesGone);
  }
}
