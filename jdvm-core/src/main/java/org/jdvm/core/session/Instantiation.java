package org.jdvm.core.session;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change.AllocationCreated;
import org.jdvm.core.Change.NodesJoined;
import org.jdvm.core.Change.ScheduledSession;
import org.jdvm.core.Change.SessionDeadlineSet;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.JobKind;
import org.jdvm.core.Limits;
import org.jdvm.core.MapBy;
import org.jdvm.core.OverLimit;
import org.jdvm.core.Rejection;
import org.jdvm.core.Request.SessionControl;
import org.jdvm.core.alloc.Creation;
import org.jdvm.core.spawn.SpawnRule;
import org.jdvm.core.spawn.Targets;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.Sessions;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;

/**
 * Session instantiation by the scheduler (decisions.md #13). Without apps it is a standing
 * reservation that lasts until terminated, timed out, or the DVM ends; with apps the scheduler's
 * job is launched into it, the answer waits for the launch, and the session completes when its jobs
 * have ended. A session is detached from its requester (its disposition never fires) unless
 * PMIX_SESSION_SEP is false. Its nodes are listed by the scheduler: nodes new to the DVM are added,
 * free start-up nodes are carved.
 */
final class Instantiation {
  private Instantiation() {}

  /** In {@link SessionRejection} order, with the limits before {@code APPS_DO_NOT_FIT}. */
  static Rejection check(ParsedControl p, Job requester, State state) {
    SessionControl r = p.request();
    if (requester.kind() != JobKind.SCHEDULER) {
      return SessionRejection.NOT_SCHEDULER;
    } else if (r.sessionId() < 0 || r.sessionId() > Sessions.MAX_ID) {
      return SessionRejection.DEFAULT_SESSION_ID;
    } else if (state.allocations().bySession(r.sessionId()) != null) {
      return SessionRejection.SESSION_EXISTS;
    } else if (!r.apps().isEmpty() && r.nodes().isEmpty()) {
      return SessionRejection.APPS_WITHOUT_NODES;
    } else if (r.allocId() != null && Creation.inUse(r.allocId(), state)) {
      return SessionRejection.ALLOC_ID_IN_USE;
    } else if (r.allocReqId() != null && Creation.reqIdInUse(r.allocReqId(), state)) {
      return SessionRejection.REQ_ID_IN_USE;
    } else if (!p.nodes().available()) {
      return SessionRejection.NODE_UNAVAILABLE;
    } else if (!r.apps().isEmpty() && !SpawnRule.hasProcesses(r.apps())) {
      return SessionRejection.APPS_DO_NOT_FIT;
    }
    OverLimit over = r.apps().isEmpty() ? null : LimitChecks.spawn(r.apps(), state);
    if (over == null) {
      over = LimitChecks.nodes(r.nodes().size(), p.fresh().size(), state);
    }
    if (over == null) {
      over = LimitChecks.allocation(state);
    }
    if (over != null) {
      return over;
    }
    if (!r.apps().isEmpty() && p.slots() < LimitChecks.processes(r.apps())) {
      return SessionRejection.APPS_DO_NOT_FIT;
    }
    return null;
  }

  static void instantiate(ParsedControl p, Job requester, Txn txn) {
    SessionControl r = p.request();
    State state = txn.state();
    String allocId = r.allocId() != null ? r.allocId() : mintId(requester, r.sessionId(), state);
    boolean separate = r.separate() == null || r.separate();
    AllocInheritance inheritance =
        p.inheritance() == null ? AllocInheritance.DEFAULT : p.inheritance();
    Creation.addNodes(p.fresh(), txn);
    txn.change(
        new AllocationCreated(
            allocId,
            r.sessionId(),
            r.allocReqId(),
            requester.namespace(),
            r.requester(),
            inheritance,
            true,
            null,
            separate,
            separate,
            null,
            p.timeLimitSeconds(),
            new ScheduledSession(!r.apps().isEmpty())));
    join(allocId, p, txn);
    if (p.timeLimitSeconds() != null && p.timeLimitSeconds() > 0) {
      txn.change(new SessionDeadlineSet(allocId, deadline(txn, p.timeLimitSeconds())));
    }
    Allocation session = state.allocations().byAllocId(allocId);
    List<Info> infos = SessionControls.replyInfos(r.ctrlId(), session);
    if (r.apps().isEmpty()) {
      txn.effect(new Reply(r.requestId(), PmixStatus.SUCCESS, infos));
      return;
    }
    Targets targets = Targets.of(List.of(session), state);
    SpawnRule.launch(
        requester,
        r.requester(),
        r.requestId(),
        infos,
        targets,
        r.apps(),
        MapBy.SLOT,
        SpawnRule.Policy.DEFAULT,
        txn);
  }

  /** The listed nodes join the session: carved start-up nodes first, then the new ones. */
  static void join(String allocId, ParsedControl p, Txn txn) {
    List<String> names = new ArrayList<>();
    for (Node n : p.nodes().present()) {
      names.add(n.name());
    }
    names.addAll(p.nodes().absent());
    if (!names.isEmpty()) {
      txn.change(new NodesJoined(allocId, names));
    }
  }

  /**
   * The deadline {@code seconds} from now. Durations are at most {@link Limits#MAX_SECONDS}, which
   * is checked before anything changes, so this cannot overflow for any clock reading below about
   * 4.9e18 ns (155 years of uptime); beyond, it saturates.
   */
  static long deadline(Txn txn, long seconds) {
    long ns = seconds * 1_000_000_000L;
    long at = txn.nowNs() + ns;
    return at < txn.nowNs() ? Long.MAX_VALUE - 1 : at;
  }

  private static String mintId(Job requester, long sessionId, State state) {
    String id = requester.namespace() + "." + sessionId;
    for (int k = 1; Creation.inUse(id, state); k++) {
      id = requester.namespace() + "." + sessionId + "." + k;
    }
    return id;
  }
}
