package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change.AllocationCreated;
import org.jdvm.core.Change.NodesAdded;
import org.jdvm.core.Change.NodesJoined;
import org.jdvm.core.Effect.AddNodes;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Proc;

/**
 * Creating an allocation once its nodes are known (spec §8.2.1.5): nodes new to the DVM join it
 * (their agents are started first), the allocation is recorded with its owning namespace seeding
 * the owner set, and every node becomes its member. Nothing is reserved before nodes are granted:
 * an empty reservation is never created (decisions.md #4).
 */
public final class Creation {
  private Creation() {}

  /** Adds nodes new to the DVM: the change, then the effect that starts their agents. */
  public static void addNodes(List<NodeSpec> fresh, Txn txn) {
    if (!fresh.isEmpty()) {
      txn.change(new NodesAdded(fresh));
      txn.effect(new AddNodes(fresh));
    }
  }

  /** Creates a dynamic allocation (NEW) with these nodes; returns it. */
  public static Allocation create(
      AskTerms terms,
      Proc requester,
      String schedulerAllocId,
      Long timeLimitSeconds,
      List<Node> carved,
      List<NodeSpec> fresh,
      Txn txn) {
    State state = txn.state();
    long sessionId = state.allocations().nextSessionId();
    String allocId = chooseId(terms, schedulerAllocId, sessionId, state);
    addNodes(fresh, txn);
    Long parent = terms.parentSessionId();
    if (parent != null && state.allocations().bySession(parent) == null) {
      parent = null;
    }
    AllocInheritance inheritance =
        terms.inheritance() == null ? AllocInheritance.DEFAULT : terms.inheritance();
    txn.change(
        new AllocationCreated(
            allocId,
            sessionId,
            terms.allocReqId(),
            terms.owner(),
            requester,
            inheritance,
            terms.reserved(),
            parent,
            terms.separated(),
            false,
            schedulerAllocId,
            timeLimitSeconds,
            null));
    txn.change(new NodesJoined(allocId, names(carved, fresh)));
    return state.allocations().byAllocId(allocId);
  }

  /**
   * The allocation id: the one the request asked for (kept unique since), else the scheduler's own
   * if unused, else {@code <owner>.<session id>} as PRRTE mints it (made unique if a request chose
   * that very string).
   */
  static String chooseId(AskTerms terms, String schedulerAllocId, long sessionId, State state) {
    if (terms.allocId() != null) {
      return terms.allocId();
    }
    if (schedulerAllocId != null && !inUse(schedulerAllocId, state)) {
      return schedulerAllocId;
    }
    String minted = terms.owner() + "." + sessionId;
    for (int k = 1; inUse(minted, state); k++) {
      minted = terms.owner() + "." + sessionId + "." + k;
    }
    return minted;
  }

  /** Whether an allocation id is taken by a live allocation or a pending NEW. */
  public static boolean inUse(String allocId, State state) {
    return state.allocations().byAnyId(allocId) != null
        || state.asks().newByAllocId(allocId) != null;
  }

  /** Whether a request id is taken by a live allocation or a pending NEW. */
  public static boolean reqIdInUse(String allocReqId, State state) {
    return state.allocations().byReqId(allocReqId) != null
        || state.asks().newByReqId(allocReqId) != null;
  }

  static List<String> names(List<Node> carved, List<NodeSpec> fresh) {
    List<String> names = new ArrayList<>(carved.size() + fresh.size());
    for (Node n : carved) {
      names.add(n.name());
    }
    for (NodeSpec s : fresh) {
      names.add(s.name());
    }
    return names;
  }
}
