package org.jdvm.core.session;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.Rejection;
import org.jdvm.core.Request.SessionControl;
import org.jdvm.core.SessionOp;
import org.jdvm.core.alloc.NodeRequest;
import org.jdvm.core.alloc.Ownership;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.Value;

/**
 * {@code PMIx_Session_control} (decisions.md #13–#14; prrte-behavior.md §1.14). Everything is
 * parsed and checked first; then one operation runs on one session, or on every session the
 * requester may act on when the id is {@code UINT32_MAX}. Only the scheduler instantiates; the
 * scheduler and a session's owners may operate on it.
 */
public final class SessionControls {
  private SessionControls() {}

  public static void control(SessionControl r, Txn txn) {
    State state = txn.state();
    Job requester = Requesters.job(state, r.requester());
    ParsedControl p = ParsedControl.of(r, state);
    Rejection why = common(p);
    List<Allocation> sessions = List.of();
    if (why == null && p.op() == SessionOp.INSTANTIATE) {
      why = Instantiation.check(p, requester, state);
    } else if (why == null) {
      sessions = sessions(r, requester, state);
      why = checkExisting(p, sessions, requester, state);
    }
    if (why != null) {
      txn.reject(r.requestId(), why);
      return;
    }
    if (p.op() == SessionOp.INSTANTIATE) {
      Instantiation.instantiate(p, requester, txn);
      return;
    }
    for (Allocation s : sessions) {
      SessionOps.operate(p, s, txn);
    }
    Allocation single =
        sessions.size() == 1 && p.op() != SessionOp.TERMINATE ? sessions.get(0) : null;
    txn.effect(new Reply(r.requestId(), PmixStatus.SUCCESS, replyInfos(r.ctrlId(), single)));
  }

  /** CTRL_ID (if given), then SESSION_ID, ALLOC_ID and ALLOC_REQ_ID (if any) of the session. */
  static List<Info> replyInfos(String ctrlId, Allocation session) {
    List<Info> infos = new ArrayList<>(4);
    if (ctrlId != null) {
      infos.add(Info.of(PmixKeys.SESSION_CTRL_ID, Value.string(ctrlId)));
    }
    if (session != null) {
      infos.add(Info.of(PmixKeys.SESSION_ID, Value.uint32(session.sessionId())));
      infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(session.allocId())));
      if (session.allocReqId() != null) {
        infos.add(Info.of(PmixKeys.ALLOC_REQ_ID, Value.string(session.allocReqId())));
      }
    }
    return infos;
  }

  private static SessionRejection common(ParsedControl p) {
    SessionControl r = p.request();
    if (r.operations().size() > 1) {
      return SessionRejection.MORE_THAN_ONE_OPERATION;
    } else if (p.op() == null && r.separate() == null) {
      return SessionRejection.NO_OPERATION;
    } else if (p.op() == SessionOp.COMPLETE) {
      return SessionRejection.COMPLETE_IS_OUTBOUND;
    } else if (r.provision()) {
      return SessionRejection.PROVISIONING;
    } else if (r.nodeCount() != null) {
      return SessionRejection.DVM_CHOOSES_NODES;
    } else if (!r.apps().isEmpty() && p.op() != SessionOp.INSTANTIATE) {
      return SessionRejection.APPS_WITHOUT_INSTANTIATE;
    } else if (p.badTime()) {
      return SessionRejection.BAD_TIME_LIMIT;
    } else if (p.op() == SessionOp.SIGNAL
        && (r.signal() == null || !Signal.isSignalNumber(r.signal()))) {
      return SessionRejection.BAD_SIGNAL;
    } else if (p.inheritanceRefused()) {
      return SessionRejection.INHERITANCE_NOT_SUPPORTED;
    } else if (!NodeRequest.wellFormed(ParsedControl.names(r.nodes()))) {
      return SessionRejection.BAD_NODES;
    }
    return null;
  }

  /** The sessions an operation names: one by id, or every one the requester may act on. */
  private static List<Allocation> sessions(SessionControl r, Job requester, State state) {
    if (r.sessionId() != SessionControl.ALL_SESSIONS) {
      Allocation a = state.allocations().bySession(r.sessionId());
      return a == null ? List.of() : List.of(a);
    }
    List<Allocation> all = new ArrayList<>();
    for (Allocation a : state.allocations().all()) {
      if (Ownership.mayActOn(a, requester)) {
        all.add(a);
      }
    }
    return all;
  }

  private static Rejection checkExisting(
      ParsedControl p, List<Allocation> sessions, Job requester, State state) {
    if (sessions.isEmpty()) {
      return SessionRejection.SESSION_NOT_FOUND;
    }
    for (Allocation s : sessions) {
      if (!Ownership.mayActOn(s, requester)) {
        return SessionRejection.NOT_AUTHORIZED;
      }
    }
    SessionControl r = p.request();
    if (p.op() == SessionOp.EXTEND
        && r.nodes().isEmpty()
        && p.timeLimitSeconds() == null
        && p.inheritance() == null) {
      return SessionRejection.NOTHING_TO_EXTEND;
    }
    if (p.op() == SessionOp.EXTEND
        && !r.nodes().isEmpty()
        && r.sessionId() == SessionControl.ALL_SESSIONS) {
      return SessionRejection.NODES_FOR_EVERY_SESSION;
    }
    if ((p.op() == SessionOp.PREEMPT || p.op() == SessionOp.RESTORE)
        && !r.namespaces().isEmpty()
        && sessions.stream().allMatch(s -> SessionOps.named(s, r.namespaces()).isEmpty())) {
      return SessionRejection.NAMESPACES_NOT_IN_SESSION;
    }
    if (p.op() == SessionOp.EXTEND && !p.nodes().available()) {
      return SessionRejection.NODE_UNAVAILABLE;
    }
    if (p.op() == SessionOp.EXTEND) {
      return LimitChecks.nodes(r.nodes().size(), p.fresh().size(), state);
    }
    return null;
  }
}
