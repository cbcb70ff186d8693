package org.jdvm.endpoint.serve;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.deliver.JobOutput;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.endpoint.deliver.OutputRouter;
import org.jdvm.host.Cleanup;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.AbortRequest;
import org.jdvm.pmix.body.InfosReply;
import org.jdvm.pmix.body.JobControlRequest;
import org.jdvm.pmix.body.SpawnNbRequest;
import org.jdvm.pmix.body.SpawnReply;

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

  /** SPAWNNB ({@link SpawnNbRequest}); answered with a {@link SpawnReply}. */
  void spawn(Exchange x) throws BadRequest {
    SpawnNbRequest request = SpawnNbRequest.read(x.in(), x.checks());
    List<Info> jobInfos = request.jobInfos();
    List<App> apps = request.apps();
    RequestId id = x.nextId();
    Spawn s = spawn(id, x.self(), x.peer().role().isToolClass(), jobInfos, apps);
    outcomes.expectSpawn(
        id,
        new OutcomeWatcher.SpawnIntent(
            x.connection(), s.channels(), s.notifyCompletion(), s.output()));
    try {
      x.submit(
          id,
          s.request(),
          answer -> {
            outcomes.spawnAnswered(id);
            boolean ok = answer.status() == PmixStatus.SUCCESS;
            x.reply(
                new SpawnReply(answer.status(), ok ? answer.info(PmixKeys.NSPACE) : null)
                    .write(x.format()));
            if (s.output().formatted()) {
              outcomes.spawnReplied(id, ok);
            }
          });
    } catch (BadRequest e) {
      outcomes.spawnAnswered(id);
      throw e;
    }
  }

  /** A spawn as the core takes it, and what the requester asked to hear of the job. */
  record Spawn(Request.Spawn request, int channels, boolean notifyCompletion, JobOutput output) {}

  /**
   * {@code PMIx_Spawn}: targeting (decisions.md #15), the mapping policy, output forwarding,
   * completion notice, which rank reads forwarded stdin ({@code PMIX_STDIN_TGT}, or rank 0 with
   * {@code PMIX_FWD_STDIN}), whether a failing process leaves the others running ({@code
   * PMIX_JOB_RECOVERABLE}, or {@code PMIX_ABORT_NON_ZERO_TERM} false) and whether the processes'
   * stderr is merged into their stdout ({@link #mergeStderr}). A tool gets its job's output unless
   * it says otherwise, as a 4.2.2 server forwards to a tool requester whatever its flags
   * (pmix-interop-notes.md §3); an application only what it asks for.
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
    boolean recoverable = false;
    Integer stdinRank = null;
    boolean fwdStdin = false;
    Boolean merge = null;
    Integer timeout = null;
    Integer spawnTimeout = null;
    for (Info i : jobInfos) {
      switch (i.key()) {
        case PmixKeys.JOB_RECOVERABLE -> recoverable = Values.bool(i);
        case PmixKeys.ABORT_NON_ZERO_TERM -> recoverable = !Values.bool(i);
        case PmixKeys.STDIN_TGT -> stdinRank = stdinRank(i);
        case PmixKeys.FWD_STDIN -> fwdStdin = Values.bool(i);
        case PmixKeys.IOF_MERGE_STDERR_STDOUT, PmixKeys.MERGE_STDERR_STDOUT ->
            merge = Values.bool(i);
        case PmixKeys.SPAWN_TARGET -> target = Values.strings(i);
        case PmixKeys.SESSION_ID -> sessionId = Values.unsigned(i);
        case PmixKeys.ALLOC_ID -> allocId = Values.string(i);
        case PmixKeys.ALLOC_REQ_ID -> allocReqId = Values.string(i);
        case PmixKeys.JOB_TIMEOUT -> timeout = timeout(i);
        case PmixKeys.SPAWN_TIMEOUT -> spawnTimeout = timeout(i);
        case PmixKeys.NOTIFY_COMPLETION -> notify = Values.bool(i);
        case PmixKeys.FWD_STDOUT ->
            channels = flag(channels, OutputRouter.STDOUT_CHANNEL, Values.bool(i));
        case PmixKeys.FWD_STDERR ->
            channels = flag(channels, OutputRouter.STDERR_CHANNEL, Values.bool(i));
        default -> {}
      }
    }
    checkApps(apps);
    mapBy = SpawnPlacement.nodeMapBy(jobInfos);
    NodeFill fill = SpawnPlacement.nodeFill(jobInfos, apps);
    apps =
        workingDirectories(
            mergeStderr(SpawnPlacement.fold(jobInfos, EnvDirectives.apply(jobInfos, apps)), merge));
    apps =
        withTimeout(
            withTimeout(apps, PmixKeys.JOB_TIMEOUT, timeout), PmixKeys.SPAWN_TIMEOUT, spawnTimeout);
    JobOutput output = IofOptions.read(jobInfos, apps, Boolean.TRUE.equals(merge));
    if (fwdStdin && stdinRank == null) {
      stdinRank = 0; // PRRTE's default target
    }
    Request.Spawn request =
        new Request.Spawn(id, requester, apps, target, sessionId, allocId, allocReqId, mapBy)
            .withRecoverable(recoverable)
            .withStdin(stdinRank)
            .withFill(fill);
    return new Spawn(request, channels, notify, output);
  }

  /**
   * {@code PMIX_IOF_MERGE_STDERR_STDOUT} (or its older name {@code PMIX_MERGE_STDERR_STDOUT}), a
   * spawn directive as PRRTE takes it in the job's info, and taken from an app's own info too,
   * which wins for that app: its processes' stderr is their stdout (one pipe), forwarded as stdout.
   * Each app leaves here with the directive in its info once, as {@code
   * PMIX_IOF_MERGE_STDERR_STDOUT} true, or without it: that is what the launch reads ({@code
   * shell.Shell}).
   *
   * @param job the job-level value, {@code null} when absent
   */
  static List<App> mergeStderr(List<App> apps, Boolean job) throws BadRequest {
    List<App> out = new ArrayList<>(apps.size());
    for (App a : apps) {
      Boolean merge = job;
      List<Info> rest = new ArrayList<>(a.info().size());
      for (Info i : a.info()) {
        if (isMergeKey(i.key())) {
          merge = Values.bool(i);
        } else {
          rest.add(i);
        }
      }
      if (merge == null && rest.size() == a.info().size()) {
        out.add(a);
        continue;
      }
      if (Boolean.TRUE.equals(merge)) {
        rest.add(Info.of(PmixKeys.IOF_MERGE_STDERR_STDOUT, Value.bool(true)));
      }
      out.add(new App(a.cmd(), a.argv(), a.env(), a.cwd(), a.maxprocs(), rest));
    }
    return out;
  }

  /**
   * {@code PMIX_WDIR} in an app's info is its processes' working directory, over the app's own
   * {@code cwd}, as PRRTE takes it ({@code pmix_server_dyn.c}): Open MPI's {@code MPI_Comm_spawn}
   * never fills {@code cwd} but sends {@code PMIX_WDIR} with every app, the {@code "wdir"} info
   * key's value or else the spawning process's own directory ({@code dpm.c}), so without this a
   * child would not start where {@code mpirun} starts it (docs/wireup.md "Dynamic processes"). A
   * relative path is taken from the launching side's directory, as PRRTE's daemon takes it from its
   * own.
   */
  static List<App> workingDirectories(List<App> apps) throws BadRequest {
    List<App> out = new ArrayList<>(apps.size());
    for (App a : apps) {
      String cwd = a.cwd();
      for (Info i : a.info()) {
        if (i.key().equals(PmixKeys.WDIR)) {
          cwd = Values.string(i);
        }
      }
      out.add(
          java.util.Objects.equals(cwd, a.cwd())
              ? a
              : new App(a.cmd(), a.argv(), a.env(), cwd, a.maxprocs(), a.info()));
    }
    return out;
  }

  /** {@code PMIX_JOB_TIMEOUT}, {@code PMIX_SPAWN_TIMEOUT}: whole seconds, at least 1. */
  private static int timeout(Info i) throws BadRequest {
    int s = Values.signed(i);
    if (s < 1) {
      throw BadRequest.param(i.key() + " must be at least 1 second, not " + s);
    }
    return s;
  }

  /**
   * The job's {@code PMIX_JOB_TIMEOUT} or {@code PMIX_SPAWN_TIMEOUT} ({@code key}) goes to the core
   * in its first app's info, where the core's {@code job.JobTimeouts} reads it (and the state keeps
   * it with the job's apps).
   */
  static List<App> withTimeout(List<App> apps, String key, Integer seconds) {
    if (seconds == null || apps.isEmpty()) {
      return apps;
    }
    App a = apps.get(0);
    List<Info> info = new ArrayList<>(a.info());
    info.removeIf(i -> i.key().equals(key));
    info.add(Info.of(key, Value.integer(seconds)));
    List<App> out = new ArrayList<>(apps);
    out.set(0, new App(a.cmd(), a.argv(), a.env(), a.cwd(), a.maxprocs(), info));
    return out;
  }

  private static boolean isMergeKey(String key) {
    return key.equals(PmixKeys.IOF_MERGE_STDERR_STDOUT) || key.equals(PmixKeys.MERGE_STDERR_STDOUT);
  }

  /**
   * {@code PMIX_STDIN_TGT}: a PROC (4.2.2's type) whose rank is the target, WILDCARD for every
   * rank; an integer rank is taken too (earlier versions).
   */
  private static int stdinRank(Info i) throws BadRequest {
    if (i.value().type() == DataType.PROC) {
      return i.value().asProc().rank();
    }
    if (i.value().type() == DataType.PROC_RANK) {
      return (int) i.value().asLong();
    }
    return Values.count(i);
  }

  private static int flag(int bits, int bit, boolean on) {
    return on ? bits | bit : bits & ~bit;
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

  /**
   * JOB_CONTROL ({@link JobControlRequest}); answered {@code STATUS | SIZE 0}. A cleanup
   * registration (Open MPI's session directory and shared-memory segment, docs/wireup.md §c.9) is
   * kept by the targets' node agents, which remove the path when the job's processes there have
   * ended; a signal or termination goes to the core.
   */
  void jobControl(Exchange x) throws BadRequest {
    JobControlRequest request = JobControlRequest.read(x.in(), x.checks());
    List<Proc> targets = request.targets();
    List<Info> directives = request.directives();
    Proc self = x.self();
    Cleanup.Registration cleanup = cleanup(directives);
    if (cleanup != null && !signalsOrTerminates(directives)) {
      int status = x.upstream().registerCleanup(self, targets, cleanup);
      x.reply(InfosReply.status(status).write(x.format()));
      return;
    }
    List<Function<RequestId, Request>> requests = new ArrayList<>();
    for (JobAction a : jobControl(self, targets, directives)) {
      requests.add(id -> a.toRequest(id, self));
    }
    int registered =
        cleanup == null ? PmixStatus.SUCCESS : x.upstream().registerCleanup(self, targets, cleanup);
    x.submitAll(
        requests,
        s ->
            x.reply(InfosReply.status(s != PmixStatus.SUCCESS ? s : registered).write(x.format())));
  }

  private static boolean signalsOrTerminates(List<Info> directives) {
    for (Info i : directives) {
      switch (i.key()) {
        case PmixKeys.JOB_CTRL_SIGNAL,
            PmixKeys.JOB_CTRL_TERMINATE,
            PmixKeys.JOB_CTRL_KILL,
            PmixKeys.JOB_CTRL_PAUSE,
            PmixKeys.JOB_CTRL_RESUME -> {
          return true;
        }
        default -> {}
      }
    }
    return false;
  }

  /**
   * The cleanup a JOB_CONTROL registers ({@code PMIX_REGISTER_CLEANUP} a file, {@code
   * PMIX_REGISTER_CLEANUP_DIR} a directory, with {@code PMIX_CLEANUP_RECURSIVE}, {@code _EMPTY},
   * {@code _LEAVE_TOPDIR}, {@code _IGNORE}); {@code PMIX_CLEANUP_IGNORE} alone keeps a path; {@code
   * null} when it registers none.
   */
  static Cleanup.Registration cleanup(List<Info> directives) throws BadRequest {
    String file = null;
    String dir = null;
    List<String> ignore = new ArrayList<>();
    boolean recursive = false;
    boolean empty = false;
    boolean leaveTop = false;
    for (Info i : directives) {
      switch (i.key()) {
        case PmixKeys.REGISTER_CLEANUP -> file = Values.text(i);
        case PmixKeys.REGISTER_CLEANUP_DIR -> dir = Values.text(i);
        case PmixKeys.CLEANUP_RECURSIVE -> recursive = Values.bool(i);
        case PmixKeys.CLEANUP_EMPTY -> empty = Values.bool(i);
        case PmixKeys.CLEANUP_LEAVE_TOPDIR -> leaveTop = Values.bool(i);
        case PmixKeys.CLEANUP_IGNORE -> ignore.addAll(List.of(Values.text(i).split(",")));
        default -> {}
      }
    }
    if (file != null && dir != null) {
      throw BadRequest.notSupported("a file and a directory in one cleanup registration");
    }
    if (file == null && dir == null) {
      return ignore.isEmpty()
          ? null
          : new Cleanup.Registration(path(ignore.get(0)), false, false, false, false, ignore, true);
    }
    return new Cleanup.Registration(
        path(dir != null ? dir : file), dir != null, recursive, leaveTop, empty, ignore, false);
  }

  private static Path path(String s) throws BadRequest {
    if (s.length() > Cleanup.MAX_PATH_CHARS || !s.startsWith("/")) {
      throw BadRequest.param(
          "a cleanup path must be absolute and at most " + Cleanup.MAX_PATH_CHARS + " characters");
    }
    try {
      return Path.of(s);
    } catch (InvalidPathException e) {
      throw BadRequest.param("not a path: " + e.getMessage());
    }
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
      if (directives.isEmpty()) {
        throw BadRequest.param("no directive: nothing to do");
      }
      // Properties alone (PMIX_JOB_CTRL_PREEMPTIBLE, ...): PRRTE's host answers NOT_SUPPORTED too.
      List<String> keys = directives.stream().map(Info::key).toList();
      throw BadRequest.notSupported(
          "job control with only "
              + keys
              + ": the DVM signals, terminates, kills, pauses, resumes and registers cleanups");
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

  /**
   * ABORT ({@link AbortRequest}, docs/wireup.md §c.8); ends the named jobs (none: its own), each
   * with the status as its exit code, as {@code mpirun} exits with {@code MPI_Abort}'s code. Open
   * MPI does not wait for the reply: it exits at once.
   */
  void abort(Exchange x) throws BadRequest {
    AbortRequest request = AbortRequest.read(x.in(), x.checks());
    int status = request.status();
    String message = request.message();
    List<Proc> procs = request.procs();
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
      requests.add(id -> new Request.AbortJob(id, self, ns, status));
    }
    x.submitAll(requests, s -> x.replyStatus(s));
  }
}
