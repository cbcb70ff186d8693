package org.jdvm.server.pmix.serve;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jdvm.core.MapBy;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Signal;
import org.jdvm.server.pmix.deliver.OutcomeWatcher;
import org.jdvm.server.pmix.deliver.OutputRouter;

/**
 * Jobs (spec §8.2.1.6; decisions.md #15; docs/protocol.md "How jdvm reads the standard commands"):
 * {@code PMIx_Spawn} (SPAWNNB), {@code PMIx_Job_control} (JOB_CONTROL) and {@code PMIx_Abort}
 * (ABORT), read into the core's typed requests. Every value's type is checked here, so a wrong one
 * is refused with {@code PMIX_ERR_BAD_PARAM} before the core sees anything; unknown keys are
 * ignored, as PMIx lets a host ignore what it does not know.
 */
public final class JobOps {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final OutcomeWatcher outcomes;

  public JobOps(OutcomeWatcher outcomes) {
    this.outcomes = outcomes;
  }

  // ---- spawn ---------------------------------------------------------------------------------

  /** SPAWNNB: {@code SIZE n | INFO | SIZE napps | APP}; answered {@code STATUS | STRING nspace}. */
  void spawn(Exchange x) throws BadRequest {
    List<Info> jobInfos = x.infos();
    List<App> apps = x.in().unpackApps();
    RequestId id = x.nextId();
    Spawn s = spawn(id, x.self(), x.peer().role().isToolClass(), jobInfos, apps);
    outcomes.expectSpawn(
        id, new OutcomeWatcher.SpawnIntent(x.connection(), s.channels(), s.notifyCompletion()));
    try {
      x.submit(
          id,
          s.request(),
          answer -> {
            outcomes.spawnAnswered(id);
            boolean ok = answer.status() == PmixStatus.SUCCESS;
            x.reply(
                x.packer()
                    .packStatus(answer.status())
                    .packString(ok ? answer.info(PmixKeys.NSPACE) : null)
                    .toByteArray());
          });
    } catch (BadRequest e) {
      outcomes.spawnAnswered(id);
      throw e;
    }
  }

  /** A spawn as the core takes it, and what the requester asked to hear of the job. */
  record Spawn(Request.Spawn request, int channels, boolean notifyCompletion) {}

  /**
   * {@code PMIx_Spawn}: targeting (decisions.md #15), the mapping policy, output forwarding and
   * completion notice. A tool gets its job's output unless it says otherwise, as a 4.2.2 server
   * forwards to a tool requester whatever its flags (pmix-interop-notes.md §3); an application only
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
    int channels = tool ? OutputRouter.STDOUT_CHANNEL | OutputRouter.STDERR_CHANNEL : 0;
    boolean notify = false;
    for (Info i : jobInfos) {
      switch (i.key()) {
        case PmixKeys.SPAWN_TARGET -> target = Values.strings(i);
        case PmixKeys.SESSION_ID -> sessionId = Values.unsigned(i);
        case PmixKeys.ALLOC_ID -> allocId = Values.string(i);
        case PmixKeys.ALLOC_REQ_ID -> allocReqId = Values.string(i);
        case PmixKeys.MAPBY -> mapBy = mapBy(i);
        case PmixKeys.NOTIFY_COMPLETION -> notify = Values.bool(i);
        case PmixKeys.FWD_STDOUT ->
            channels = flag(channels, OutputRouter.STDOUT_CHANNEL, Values.bool(i));
        case PmixKeys.FWD_STDERR ->
            channels = flag(channels, OutputRouter.STDERR_CHANNEL, Values.bool(i));
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

  /** Apps as the core can take them: each has a command and a non-negative process count. */
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

  /** JOB_CONTROL: {@code SIZE n | PROC… | SIZE n | INFO}; answered {@code STATUS | SIZE 0}. */
  void jobControl(Exchange x) throws BadRequest {
    List<Proc> targets = x.procs();
    List<Info> directives = x.infos();
    Proc self = x.self();
    List<Function<RequestId, Request>> requests = new ArrayList<>();
    for (JobAction a : jobControl(self, targets, directives)) {
      requests.add(id -> a.toRequest(id, self));
    }
    x.submitAll(requests, s -> x.reply(x.packer().packStatus(s).packSize(0).toByteArray()));
  }

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
        case PmixKeys.JOB_CTRL_SIGNAL -> signal = Values.signed(i);
        case PmixKeys.JOB_CTRL_TERMINATE, PmixKeys.JOB_CTRL_KILL -> terminate |= Values.bool(i);
        case PmixKeys.JOB_CTRL_PAUSE -> signal = Values.bool(i) ? Signal.STOP.number() : signal;
        case PmixKeys.JOB_CTRL_RESUME -> signal = Values.bool(i) ? Signal.CONT.number() : signal;
        case PmixKeys.JOB_CTRL_CANCEL,
            PmixKeys.JOB_CTRL_RESTART,
            PmixKeys.JOB_CTRL_CHECKPOINT,
            PmixKeys.JOB_CTRL_PROVISION,
            PmixKeys.JOB_CTRL_DEFINE_PSET ->
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

  // ---- abort ---------------------------------------------------------------------------------

  /** ABORT: {@code STATUS | STRING msg | SIZE n | PROC…}; ends the named jobs (none: its own). */
  void abort(Exchange x) throws BadRequest {
    int status = x.in().unpackStatus();
    String message = x.in().unpackString();
    List<Proc> procs = x.procs();
    Proc self = x.self();
    LOG.log(
        System.Logger.Level.INFO,
        "peer="
            + x.connection().index()
            + " proc="
            + self
            + " abort="
            + status
            + " msg=\""
            + message
            + "\"");
    List<String> nspaces = new ArrayList<>();
    for (Proc p : procs.isEmpty() ? List.of(self) : procs) {
      if (!nspaces.contains(p.nspace())) {
        nspaces.add(p.nspace());
      }
    }
    List<Function<RequestId, Request>> requests = new ArrayList<>();
    for (String ns : nspaces) {
      requests.add(id -> new Request.TerminateJob(id, self, ns));
    }
    x.submitAll(requests, s -> x.replyStatus(s));
  }
}
