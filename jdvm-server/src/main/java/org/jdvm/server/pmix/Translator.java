package org.jdvm.server.pmix;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.SessionOp;
import org.jdvm.core.Signals;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;

/**
 * PMIx infos into the core's typed requests (issue 4, "Translation"). Every value's type is checked
 * here, so a wrong one is refused with {@code PMIX_ERR_BAD_PARAM} before the core sees anything;
 * unknown keys are ignored, as PMIx lets a host ignore what it does not know.
 */
final class Translator {
  private Translator() {}

  static final String FWD_STDOUT = "pmix.fwd.stdout";
  static final String FWD_STDERR = "pmix.fwd.stderr";

  /** The IOF channel bits (pmix_iof_channel_t). */
  static final int STDOUT_CHANNEL = 0x02;

  static final int STDERR_CHANNEL = 0x04;

  // ---- allocation ----------------------------------------------------------------------------

  /**
   * {@code PMIx_Allocation_request}. The count and node list are "required" when either carries the
   * REQD flag: a scheduler refuses a required request it can never satisfy, and queues one that is
   * not (decisions.md 4).
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

  // ---- spawn ---------------------------------------------------------------------------------

  /** A spawn as the core takes it, and what the requester asked to hear of the job. */
  record Spawn(Request.Spawn request, int channels, boolean notifyCompletion) {}

  /**
   * {@code PMIx_Spawn}: targeting (decisions.md 15), the mapping policy, output forwarding and
   * completion notice. A tool gets its job's output unless it says otherwise, as a 4.2.2 server
   * forwards to a tool requester whatever its flags (research REPORT.md §4.3); an application only
   * what it asks for.
   */
  static Spawn spawn(
      RequestId id, Proc requester, boolean tool, List<Info> jobInfos, List<App> apps)
      throws BadRequest {
    List<String> target = null;
    Long sessionId = null;
    String allocId = null;
    String allocReqId = null;
    MapBy mapBy = MapBy.SLOT;
    int channels = tool ? STDOUT_CHANNEL | STDERR_CHANNEL : 0;
    boolean notify = false;
    for (Info i : jobInfos) {
      switch (i.key()) {
        case PmixKeys.SPAWN_TARGET -> target = Values.strings(i);
        case PmixKeys.SESSION_ID -> sessionId = Values.unsigned(i);
        case PmixKeys.ALLOC_ID -> allocId = Values.string(i);
        case PmixKeys.ALLOC_REQ_ID -> allocReqId = Values.string(i);
        case PmixKeys.MAPBY -> mapBy = mapBy(i);
        case PmixKeys.NOTIFY_COMPLETION -> notify = Values.bool(i);
        case FWD_STDOUT -> channels = flag(channels, STDOUT_CHANNEL, Values.bool(i));
        case FWD_STDERR -> channels = flag(channels, STDERR_CHANNEL, Values.bool(i));
        default -> {}
      }
    }
    checkApps(apps);
    Request.Spawn request =
        new Request.Spawn(id, requester, apps, target, sessionId, allocId, allocReqId, mapBy);
    return new Spawn(request, channels, notify);
  }

  private static int flag(int bits, int bit, boolean on) {
    return on ? bits | bit : bits & ~bit;
  }

  private static MapBy mapBy(Info i) throws BadRequest {
    String policy = Values.string(i);
    String base = policy == null ? "" : policy.split(":", 2)[0].toLowerCase(Locale.ROOT);
    return switch (base) {
      case "slot" -> MapBy.SLOT;
      case "node" -> MapBy.NODE;
      default -> throw BadRequest.notSupported("mapping policy \"" + policy + "\"");
    };
  }

  static void checkApps(List<App> apps) throws BadRequest {
    for (App a : apps) {
      if ((a.cmd() == null || a.cmd().isEmpty()) && a.argv().isEmpty()) {
        throw BadRequest.param("an app without a command");
      }
      if (a.maxprocs() < 0) {
        throw BadRequest.param("an app with " + a.maxprocs() + " processes");
      }
    }
  }

  // ---- job control ---------------------------------------------------------------------------

  /** One thing to do to one job. */
  record JobAction(String nspace, int signal, boolean terminate) {
    Request toRequest(RequestId id, Proc requester) {
      return terminate
          ? new Request.TerminateJob(id, requester, nspace)
          : new Request.SignalJob(id, requester, nspace, signal);
    }
  }

  /**
   * {@code PMIx_Job_control}: signal (also pause and resume, as STOP and CONT) or terminate whole
   * jobs. A target naming one rank is refused NOT_SUPPORTED rather than widened to its job.
   */
  static List<JobAction> jobControl(Proc requester, List<Proc> targets, List<Info> directives)
      throws BadRequest {
    Integer signal = null;
    boolean terminate = false;
    for (Info i : directives) {
      switch (i.key()) {
        case "pmix.jctrl.sig" -> signal = Values.signed(i);
        case "pmix.jctrl.term", "pmix.jctrl.kill" -> terminate |= Values.bool(i);
        case "pmix.jctrl.pause" -> signal = Values.bool(i) ? Signals.STOP : signal;
        case "pmix.jctrl.resume" -> signal = Values.bool(i) ? Signals.CONT : signal;
        case "pmix.jctrl.cancel",
            "pmix.jctrl.restart",
            "pmix.jctrl.ckpt",
            "pmix.jctrl.pvn",
            "pmix.jctrl.defpset" ->
            throw BadRequest.notSupported(i.key());
        default -> {
          if (i.isRequired()) {
            throw BadRequest.notSupported(i.key());
          }
        }
      }
    }
    if (signal == null && !terminate) {
      throw BadRequest.param("no signal and no termination");
    }
    List<String> nspaces = new ArrayList<>();
    for (Proc t : targets.isEmpty() ? List.of(Proc.wildcard(requester.nspace())) : targets) {
      if (t.rank() != Proc.RANK_WILDCARD) {
        throw BadRequest.notSupported("job control of one process (" + t + ")");
      }
      if (!nspaces.contains(t.nspace())) {
        nspaces.add(t.nspace());
      }
    }
    List<JobAction> actions = new ArrayList<>();
    for (String ns : nspaces) {
      actions.add(new JobAction(ns, signal == null ? 0 : signal, terminate));
    }
    return actions;
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
   * {@code PMIx_Session_control} (decisions.md 13–14). Every directive is collected; the core
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
        case PmixKeys.ALLOC_TIME -> b.allocTime(allocTime(i));
        case PmixKeys.TIMEOUT -> b.timeoutSeconds((long) Values.signed(i));
        case PmixKeys.ALLOC_INHERITANCE -> b.inheritance(Values.inheritance(i));
        case PmixKeys.NSPACE -> namespaces.add(Values.text(i));
        case PmixKeys.SESSION_CTRL_ID -> b.ctrlId(Values.string(i));
        default -> choose[0] |= CHOOSING_KEYS.contains(i.key());
      }
    }
    if (job && apps.isEmpty()) {
      throw BadRequest.param("PMIX_SESSION_JOB without PMIX_SESSION_APP");
    }
    checkApps(apps);
    return b.operations(ops.toArray(SessionOp[]::new))
        .nodes(nodes)
        .namespaces(namespaces)
        .apps(apps)
        .nodeCount(choose[0] ? 1 : null)
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

  private static String allocTime(Info i) throws BadRequest {
    if (i.value().type() == DataType.STRING) {
      return i.value().asString();
    }
    return Long.toString(Values.unsigned(i));
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
