package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.SessionOp;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.body.AllocRequest;
import org.jdvm.pmix.body.SessionCtrlRequest;

/**
 * Allocation and session control (spec §8.2.1; decisions.md #1–#9, #13–#14): {@code
 * PMIx_Allocation_request} (ALLOC) and {@code PMIx_Session_control} (SESSION_CTRL), read into the
 * core's typed requests and answered {@code STATUS | SIZE n | INFO…}. An attribute both carry is
 * read by one {@link Values} method for both ({@code PMIX_ALLOC_TIME}: {@link Values#seconds};
 * inheritance: {@link Values#inheritance}), so it is accepted and refused the same way. Every
 * value's type is checked here ({@code PMIX_ERR_BAD_PARAM} before the core sees anything); unknown
 * keys are ignored.
 */
public final class AllocationOps {
  /** ALLOC ({@link AllocRequest}); answered {@code STATUS | SIZE n | INFO}. */
  void allocate(Exchange x) throws BadRequest {
    AllocRequest request = AllocRequest.read(x.in(), x.checks());
    RequestId id = x.nextId();
    x.submit(id, allocate(id, x.self(), request.directive(), request.infos()), x::replyInfos);
  }

  /** SESSION_CTRL ({@link SessionCtrlRequest}); answered like an allocation. */
  void sessionControl(Exchange x) throws BadRequest {
    SessionCtrlRequest request = SessionCtrlRequest.read(x.in(), x.checks());
    RequestId id = x.nextId();
    x.submit(
        id, sessionControl(id, x.self(), request.sessionId(), request.directives()), x::replyInfos);
  }

  // ---- allocation ----------------------------------------------------------------------------

  /**
   * {@code PMIx_Allocation_request}. The count and node list are "required" when either carries the
   * REQD flag: a scheduler refuses a required request it can never satisfy, and queues one that is
   * not (decisions.md #4).
   */
  static Request.Allocate allocate(RequestId id, Proc requester, int directive, List<Info> infos)
      throws BadRequest {
    AllocDirective d = AllocDirective.fromCode(directive);
    if (d == null) {
      throw BadRequest.param("allocation directive " + directive);
    }
    var b = Request.Allocate.builder(id, requester, d);
    boolean required = true;
    boolean sawAmount = false;
    for (Info i : infos) {
      switch (i.key()) {
        case PmixKeys.ALLOC_TARGET -> b.target(Values.string(i));
        case PmixKeys.ALLOC_SHARE -> b.share(Values.bool(i));
        case PmixKeys.ALLOC_INHERITANCE -> b.inheritance(Values.inheritance(i));
        case PmixKeys.ALLOC_ID -> b.allocId(Values.string(i));
        case PmixKeys.ALLOC_REQ_ID -> b.allocReqId(Values.string(i));
        case PmixKeys.ALLOC_NUM_NODES -> {
          b.nodeCount(Values.count(i));
          required = amountRequired(sawAmount, required, i);
          sawAmount = true;
        }
        case PmixKeys.ALLOC_NODE_LIST -> {
          b.nodeList(List.of(Values.text(i).split(",", -1)));
          required = amountRequired(sawAmount, required, i);
          sawAmount = true;
        }
        case PmixKeys.ALLOC_TIME -> b.timeLimitSeconds(Values.seconds(i));
        case PmixKeys.ALLOC_WARN_TIMEOUT -> b.warnTimeoutSeconds(Values.unsigned(i));
        case PmixKeys.ALLOC_LEND -> b.lendSeconds(Values.seconds(i));
        case PmixKeys.ALLOC_CHILD_SEP -> b.childSeparated(Values.bool(i));
        default -> {}
      }
    }
    return b.required(required).build();
  }

  private static boolean amountRequired(boolean sawAmount, boolean soFar, Info i) {
    return sawAmount ? soFar || i.isRequired() : i.isRequired();
  }

  // ---- session control -----------------------------------------------------------------------

  private static final List<String> CHOOSING_KEYS =
      List.of(
          PmixKeys.ALLOC_NUM_NODES,
          PmixKeys.ALLOC_NUM_CPUS,
          PmixKeys.ALLOC_NUM_CPU_LIST,
          PmixKeys.ALLOC_MEM_SIZE);

  private static final List<String> CHOOSING_RESOURCE_KEYS =
      List.of(PmixKeys.ALLOC_CPU_LIST, PmixKeys.ALLOC_FABRIC, PmixKeys.ALLOC_QUEUE);

  /**
   * {@code PMIx_Session_control} (decisions.md #13–#14). Every directive is collected; the core
   * checks them all. Node lists are {@code name[:slots]} entries, a bare name being one slot, given
   * directly or inside {@code PMIX_SESSION_RESOURCES}.
   */
  static Request.SessionControl sessionControl(
      RequestId id, Proc requester, long sessionId, List<Info> infos) throws BadRequest {
    var b = Request.SessionControl.builder(id, requester, sessionId);
    List<SessionOp> ops = new ArrayList<>();
    List<NodeSpec> nodes = new ArrayList<>();
    List<String> namespaces = new ArrayList<>();
    List<App> apps = new ArrayList<>();
    boolean[] choose = {false};
    boolean job = false;
    for (Info i : infos) {
      switch (i.key()) {
        case PmixKeys.SESSION_INSTANTIATE -> op(i, SessionOp.INSTANTIATE, ops);
        case PmixKeys.SESSION_TERMINATE -> op(i, SessionOp.TERMINATE, ops);
        case PmixKeys.SESSION_EXTEND -> op(i, SessionOp.EXTEND, ops);
        case PmixKeys.SESSION_PAUSE -> op(i, SessionOp.PAUSE, ops);
        case PmixKeys.SESSION_RESUME -> op(i, SessionOp.RESUME, ops);
        case PmixKeys.SESSION_PREEMPT -> op(i, SessionOp.PREEMPT, ops);
        case PmixKeys.SESSION_RESTORE -> op(i, SessionOp.RESTORE, ops);
        case PmixKeys.SESSION_COMPLETE -> op(i, SessionOp.COMPLETE, ops);
        case PmixKeys.SESSION_SIGNAL -> {
          ops.add(SessionOp.SIGNAL);
          b.signal(Values.signed(i));
        }
        case PmixKeys.SESSION_SEP -> b.separate(Values.bool(i));
        case PmixKeys.ALLOC_ID -> b.allocId(Values.string(i));
        case PmixKeys.ALLOC_REQ_ID -> b.allocReqId(Values.string(i));
        case PmixKeys.ALLOC_NODE_LIST -> nodes.addAll(nodeSpecs(Values.string(i)));
        case PmixKeys.SESSION_RESOURCES -> resources(Values.infos(i), nodes, choose);
        case PmixKeys.SESSION_PROVISION_NODES, PmixKeys.SESSION_PROVISION_IMAGE ->
            b.provision(true);
        case PmixKeys.SESSION_APP -> apps.addAll(apps(i));
        case PmixKeys.SESSION_JOB -> job = Values.infos(i) != null;
        case PmixKeys.ALLOC_TIME -> b.allocTimeSeconds(Values.seconds(i));
        case PmixKeys.TIMEOUT -> b.timeoutSeconds(Values.signed(i));
        case PmixKeys.ALLOC_INHERITANCE -> b.inheritance(Values.inheritance(i));
        case PmixKeys.NSPACE -> namespaces.add(Values.text(i));
        case PmixKeys.SESSION_CTRL_ID -> b.ctrlId(Values.string(i));
        default -> choose[0] |= CHOOSING_KEYS.contains(i.key());
      }
    }
    if (job && apps.isEmpty()) {
      throw BadRequest.param("PMIX_SESSION_JOB without PMIX_SESSION_APP");
    }
    JobOps.checkApps(apps);
    if (choose[0]) {
      b.nodeCount(1);
    }
    return b.operations(ops.toArray(SessionOp[]::new))
        .nodes(nodes)
        .namespaces(namespaces)
        .apps(apps)
        .build();
  }

  private static void op(Info i, SessionOp op, List<SessionOp> ops) throws BadRequest {
    if (Values.bool(i)) {
      ops.add(op);
    }
  }

  private static void resources(List<Info> infos, List<NodeSpec> nodes, boolean[] choose)
      throws BadRequest {
    for (Info i : infos) {
      if (i.key().equals(PmixKeys.ALLOC_NODE_LIST)) {
        nodes.addAll(nodeSpecs(Values.string(i)));
      } else if (CHOOSING_KEYS.contains(i.key()) || CHOOSING_RESOURCE_KEYS.contains(i.key())) {
        choose[0] = true;
      }
    }
  }

  private static List<App> apps(Info i) throws BadRequest {
    var v = i.value();
    if (v.type() == DataType.DATA_ARRAY && v.asArray().type() == DataType.APP) {
      return v.asArray().elementsAs(App.class);
    }
    throw Values.wrongType(i, "an array of apps");
  }

  /** {@code name[:slots],...}; a bare name has one slot. */
  static List<NodeSpec> nodeSpecs(String list) throws BadRequest {
    List<NodeSpec> specs = new ArrayList<>();
    if (list == null) {
      return specs;
    }
    for (String entry : list.split(",", -1)) {
      int colon = entry.lastIndexOf(':');
      String name = colon < 0 ? entry : entry.substring(0, colon);
      int slots = 1;
      if (colon >= 0) {
        try {
          slots = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw BadRequest.param("node entry \"" + entry + "\"");
        }
      }
      if (name.isEmpty() || slots < 1) {
        throw BadRequest.param("node entry \"" + entry + "\"");
      }
      specs.add(new NodeSpec(name, slots));
    }
    return specs;
  }
}
