package org.jdvm.core.alloc;

import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change.NodesJoined;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.JobKind;
import org.jdvm.core.OverLimit;
import org.jdvm.core.Rejection;
import org.jdvm.core.Request.Allocate;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.PmixStatus;

/**
 * PMIX_ALLOC_NEW and PMIX_ALLOC_EXTEND (spec §8.2.1.5; decisions.md #1–#6, #9).
 *
 * <p>Routing, by requester class: a tool may name PMIX_ALLOC_TARGET, which becomes the owning
 * namespace; an application may not. PMIX_ALLOC_SHARE makes the allocation shared (its nodes in the
 * default session) but still tracked, owned and subject to its disposition (decisions.md #2). NEW
 * always mints a fresh allocation; EXTEND names its target by PMIX_ALLOC_ID or PMIX_ALLOC_REQ_ID
 * and needs ownership, whatever SHARE says. Nodes come from the scheduler, except named start-up
 * nodes of the default session, which the core carves out itself; a request satisfied entirely from
 * those involves no scheduler and is answered at once.
 */
public final class AllocationRequests {
  private AllocationRequests() {}

  public static void allocate(Allocate request, Txn txn) {
    State state = txn.state();
    Job requester = Requesters.job(state, request.requester());
    ParsedRequest p = ParsedRequest.of(request, state);
    Rejection why = check(request, p, requester, state);
    if (why != null) {
      txn.reject(request.requestId(), why);
    } else if (request.directive() == AllocDirective.NEW) {
      create(request, p, requester, txn);
    } else {
      extend(request, p, txn);
    }
  }

  static Rejection check(Allocate r, ParsedRequest p, Job requester, State state) {
    boolean isNew = r.directive() == AllocDirective.NEW;
    if (p.inheritanceRefused()) {
      return AllocateRejection.INHERITANCE_NOT_SUPPORTED;
    }
    if (p.target() != null && requester.kind() == JobKind.APPLICATION) {
      return AllocateRejection.TARGET_FROM_APPLICATION;
    }
    if (isNew && p.target() != null && !live(p.target(), state)) {
      return AllocateRejection.TARGET_NOT_FOUND;
    }
    if (p.malformed()) {
      return AllocateRejection.BAD_NODE_REQUEST;
    }
    if (p.nothingRequested(isNew)) {
      return AllocateRejection.NOTHING_REQUESTED;
    }
    AllocateRejection why = isNew ? checkNew(r, p, state) : checkExtend(r, p, requester);
    return why != null ? why : limits(r, p, state);
  }

  /** The limits, after every other check: nodes, one more allocation, one more ask. */
  private static OverLimit limits(Allocate r, ParsedRequest p, State state) {
    boolean isNew = r.directive() == AllocDirective.NEW;
    long named = r.nodeList() == null ? 0 : r.nodeList().size();
    OverLimit over =
        LimitChecks.nodes(p.count() + named, p.count() + p.nodes().absent().size(), state);
    if (over == null && isNew) {
      over = LimitChecks.allocation(state);
    }
    if (over == null && asksScheduler(r, p)) {
      over = LimitChecks.ask(r.requester(), state);
    }
    return over;
  }

  /**
   * Whether the request waits for the scheduler, or is answered from the DVM's own nodes. A NEW
   * asks for nodes only. An EXTEND asks for nodes, or for time or a warning on an allocation the
   * scheduler knows; an allocation it gave nothing to (start-up nodes only) has nothing there to
   * extend, so its time limit is the core's to record at once (a policy that once lived in the
   * shell, which granted such asks unasked).
   */
  private static boolean asksScheduler(Allocate r, ParsedRequest p) {
    boolean nodesFromScheduler = p.count() > 0 || !p.nodes().absent().isEmpty();
    if (r.directive() == AllocDirective.NEW) {
      return nodesFromScheduler;
    }
    boolean schedulerKnowsIt = p.extendTarget().schedulerAllocId() != null;
    return nodesFromScheduler
        || schedulerKnowsIt && (r.timeLimitSeconds() != null || p.warnTimeoutSeconds() != null);
  }

  private static AllocateRejection checkNew(Allocate r, ParsedRequest p, State state) {
    if (r.allocId() != null && Creation.inUse(r.allocId(), state)) {
      return AllocateRejection.ALLOC_ID_IN_USE;
    }
    if (r.allocReqId() != null && Creation.reqIdInUse(r.allocReqId(), state)) {
      return AllocateRejection.REQ_ID_IN_USE;
    }
    return p.nodes().available() ? null : AllocateRejection.NODE_UNAVAILABLE;
  }

  private static AllocateRejection checkExtend(Allocate r, ParsedRequest p, Job requester) {
    if (r.allocId() == null && r.allocReqId() == null) {
      return AllocateRejection.EXTEND_WITHOUT_ID;
    }
    if (p.extendTarget() == null) {
      return AllocateRejection.EXTEND_NOT_FOUND;
    }
    if (!Ownership.mayActOn(p.extendTarget(), requester)) {
      return AllocateRejection.EXTEND_NOT_OWNER;
    }
    return p.nodes().available() ? null : AllocateRejection.NODE_UNAVAILABLE;
  }

  private static void create(Allocate r, ParsedRequest p, Job requester, Txn txn) {
    String owner = p.target() != null ? p.target() : requester.namespace();
    AskTerms terms =
        new AskTerms(
            owner,
            !p.share(),
            p.inheritance(),
            r.allocId(),
            r.allocReqId(),
            parentSession(requester, txn.state()),
            r.childSeparated(),
            p.count(),
            p.nodes().absent(),
            r.timeLimitSeconds(),
            p.warnTimeoutSeconds(),
            r.required(),
            null);
    if (!asksScheduler(r, p)) {
      Allocation a =
          Creation.create(terms, r.requester(), null, null, p.nodes().present(), List.of(), txn);
      List<String> nodes = p.nodes().presentNames();
      txn.effect(reply(r, Replies.allocation(a, r.allocReqId(), nodes)));
      return;
    }
    Asking.open(
        AskKind.NEW, r.requestId(), r.requester(), terms, p.nodes().presentNames(), null, txn);
  }

  private static void extend(Allocate r, ParsedRequest p, Txn txn) {
    Allocation a = p.extendTarget();
    if (!asksScheduler(r, p)) {
      List<String> nodes = p.nodes().presentNames();
      if (!nodes.isEmpty()) {
        txn.change(new NodesJoined(a.allocId(), nodes));
      }
      Extension.finish(a, p.inheritance(), r.requester(), r.timeLimitSeconds(), txn);
      txn.effect(reply(r, Replies.allocation(a, r.allocReqId(), nodes)));
      return;
    }
    AskTerms terms =
        new AskTerms(
            a.owner(),
            a.reserved(),
            p.inheritance(),
            a.allocId(),
            r.allocReqId(),
            null,
            false,
            p.count(),
            p.nodes().absent(),
            r.timeLimitSeconds(),
            p.warnTimeoutSeconds(),
            r.required(),
            null);
    Asking.open(
        AskKind.EXTEND,
        r.requestId(),
        r.requester(),
        terms,
        p.nodes().presentNames(),
        a.schedulerAllocId(),
        txn);
  }

  /** The session an application requester runs in, whose child a new allocation becomes. */
  static Long parentSession(Job requester, State state) {
    if (requester.kind() != JobKind.APPLICATION) {
      return null;
    }
    Allocation primary = state.allocations().bySession(requester.primarySessionId());
    return primary != null && primary.liveJobs().contains(requester) ? primary.sessionId() : null;
  }

  private static boolean live(String namespace, State state) {
    Job job = state.jobs().get(namespace);
    return job != null && job.live();
  }

  private static Reply reply(Allocate r, List<org.jdvm.pmix.Info> infos) {
    return new Reply(r.requestId(), PmixStatus.SUCCESS, infos);
  }
}
