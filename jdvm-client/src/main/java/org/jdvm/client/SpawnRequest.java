package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * A {@code PMIx_Spawn}: one or more apps and the job's attributes (spec §8.2.1.6, decisions.md
 * #15), built with a {@link Builder}. By default the job's output is forwarded to the client and
 * its end is notified ({@code PMIX_NOTIFY_COMPLETION}), so {@link Job#awaitEnd()} works.
 *
 * <pre>{@code
 * SpawnRequest r = SpawnRequest.of("hostname").procs(4)
 *     .target(alloc.allocId()).orDefaultSession()   // my reservation and the general pool
 *     .mapBy("node").build();
 * }</pre>
 *
 * @param apps the apps, at least one
 * @param infos the job-level attributes
 */
public record SpawnRequest(List<App> apps, List<Info> infos) {
  public SpawnRequest {
    apps = List.copyOf(apps);
    infos = List.copyOf(infos);
    if (apps.isEmpty()) {
      throw new IllegalArgumentException("a spawn needs an app");
    }
  }

  /** A job running {@code command} with {@code args}, one process, in the caller's directory. */
  public static Builder of(String command, String... args) {
    return new Builder().app(command, List.of(args));
  }

  /** A job of this command line ({@code argv[0]} is the command). */
  public static Builder of(List<String> argv) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("an empty command line");
    }
    return new Builder().app(argv.get(0), argv.subList(1, argv.size()));
  }

  /** Builds a spawn; the last app added is the one {@link #procs}, {@link #env}, ... change. */
  public static final class Builder {
    private final List<MutableApp> apps = new ArrayList<>();
    private final List<Info> infos = new ArrayList<>();
    private final List<String> targets = new ArrayList<>();
    private boolean forward = true;
    private boolean notify = true;

    private static final class MutableApp {
      final String cmd;
      final List<String> argv = new ArrayList<>();
      final List<String> env = new ArrayList<>();
      final List<Info> info = new ArrayList<>();
      String cwd = System.getProperty("user.dir");
      int procs = 1;

      MutableApp(String cmd, List<String> args) {
        this.cmd = cmd;
        argv.add(cmd);
        argv.addAll(args);
      }
    }

    private Builder() {}

    /** Another app of the same job. */
    public Builder app(String command, List<String> args) {
      apps.add(new MutableApp(Objects.requireNonNull(command, "command"), args));
      return this;
    }

    /** How many processes of the last app ({@code maxprocs}). */
    public Builder procs(int n) {
      last().procs = n;
      return this;
    }

    /** An environment variable for the last app's processes. */
    public Builder env(String name, String value) {
      last().env.add(name + "=" + value);
      return this;
    }

    /** The last app's working directory (default: the caller's). */
    public Builder cwd(String dir) {
      last().cwd = dir;
      return this;
    }

    /** {@code PMIX_SPAWN_TARGET}: may map onto these allocations (their union). */
    public Builder target(String... allocIds) {
      targets.addAll(List.of(allocIds));
      return this;
    }

    /** Adds the default session to the targets (the invalid namespace, {@code ""}). */
    public Builder orDefaultSession() {
      targets.add("");
      return this;
    }

    /** {@code PMIX_MAPBY}: "slot" (fill nodes) or "node" (round-robin over nodes). */
    public Builder mapBy(String policy) {
      return info(Info.of(PmixKeys.MAPBY, Value.string(policy)));
    }

    // ---- placement and binding, as PRRTE takes them ------------------------------------------

    /**
     * {@code PMIX_BINDTO}: none, hwthread, core, package (socket), numa; {@code :overload-allowed}.
     */
    public Builder bindTo(String policy) {
      return info(Info.of(PmixKeys.BINDTO, Value.string(policy)));
    }

    /** {@code PMIX_CPUS_PER_PROC}: cpus (cores) per process, bound to them. */
    public Builder cpusPerProc(int n) {
      return info(Info.of(PmixKeys.CPUS_PER_PROC, Value.uint32(n)));
    }

    /** {@code PMIX_REPORT_BINDINGS}: one line per process on the job's stderr saying its cpus. */
    public Builder reportBindings(boolean on) {
      return info(Info.of(PmixKeys.REPORT_BINDINGS, Value.bool(on)));
    }

    /** {@code PMIX_RANKBY}: how ranks are numbered over the placed processes. */
    public Builder rankBy(String policy) {
      return info(Info.of(PmixKeys.RANKBY, Value.string(policy)));
    }

    /** {@code PMIX_NO_OVERSUBSCRIBE}: true refuses more processes than slots, false allows it. */
    public Builder noOversubscribe(boolean on) {
      return info(Info.of(PmixKeys.NO_OVERSUBSCRIBE, Value.bool(on)));
    }

    /** {@code PMIX_SESSION_ID}: the legacy single-session target. */
    public Builder sessionId(long sessionId) {
      return info(Info.of(PmixKeys.SESSION_ID, Value.uint32(sessionId)));
    }

    /** Whether the job's stdout and stderr come to this client (default true). */
    public Builder forwardOutput(boolean on) {
      this.forward = on;
      return this;
    }

    /**
     * {@code PMIX_STDIN_TGT}: this rank's stdin is a pipe the spawner feeds ({@link
     * JdvmClient#forwardStdin}); {@code Proc.RANK_WILDCARD} for every rank. Without it every
     * process reads {@code /dev/null}.
     */
    public Builder stdin(int rank) {
      return info(Info.of(PmixKeys.STDIN_TGT, Value.proc(new Proc("", rank))));
    }

    /**
     * {@code PMIX_JOB_RECOVERABLE}: a process that exits with a non-zero code or is killed leaves
     * the others running. By default the DVM ends the job then, as {@code mpirun} does.
     */
    public Builder recoverable(boolean on) {
      return info(Info.of(PmixKeys.JOB_RECOVERABLE, Value.bool(on)));
    }

    /**
     * {@code PMIX_IOF_MERGE_STDERR_STDOUT}: each process's stderr is its stdout (one pipe), so what
     * it writes to either arrives in order, forwarded as stdout. It also costs the node one open
     * file a process instead of two, so a node holds about twice as many such processes.
     */
    public Builder mergeStderr(boolean on) {
      return info(Info.of(PmixKeys.IOF_MERGE_STDERR_STDOUT, Value.bool(on)));
    }

    // ---- output formats and files (docs/cli.md "Output") ----

    /**
     * {@code PMIX_IOF_TAG_OUTPUT}: each line of output is shown as {@code [JOB,RANK]<stdout>: ...}
     * (by this client, as libpmix shows a tool its job's output; {@link OutputFormat}).
     */
    public Builder tagOutput(boolean on) {
      return info(Info.of(PmixKeys.IOF_TAG_OUTPUT, Value.bool(on)));
    }

    /** {@code PMIX_IOF_TAG_FULLNAME_OUTPUT}: as {@link #tagOutput}, with the whole namespace. */
    public Builder tagFullnameOutput(boolean on) {
      return info(Info.of(PmixKeys.IOF_TAG_FULLNAME_OUTPUT, Value.bool(on)));
    }

    /** {@code PMIX_IOF_RANK_OUTPUT}: each line shown as {@code [RANK]<stdout>: ...}. */
    public Builder rankOutput(boolean on) {
      return info(Info.of(PmixKeys.IOF_RANK_OUTPUT, Value.bool(on)));
    }

    /** {@code PMIX_IOF_TIMESTAMP_OUTPUT}: each line starts with {@code [ctime]}. */
    public Builder timestampOutput(boolean on) {
      return info(Info.of(PmixKeys.IOF_TIMESTAMP_OUTPUT, Value.bool(on)));
    }

    /** srun's {@code -l} ({@code jdvm.iof.label}): each line shown as {@code RANK: ...}. */
    public Builder labelOutput(boolean on) {
      return info(Info.of(org.jdvm.pmix.JdvmProtocol.IOF_LABEL, Value.bool(on)));
    }

    /**
     * {@code PMIX_IOF_OUTPUT_TO_DIRECTORY}: the DVM writes each rank's output to {@code
     * DIR/JOB/rank.N/stdout} and {@code stderr}, JOB the namespace, or {@code jobDir} when not
     * {@code null} ({@code jdvm.iof.jobdir}; Open MPI 4.1's layout with {@code "1"}).
     */
    public Builder outputDirectory(String dir, String jobDir) {
      info(Info.of(PmixKeys.IOF_OUTPUT_TO_DIRECTORY, Value.string(dir)));
      return jobDir == null
          ? this
          : info(Info.of(org.jdvm.pmix.JdvmProtocol.IOF_JOBDIR, Value.string(jobDir)));
    }

    /**
     * {@code PMIX_IOF_OUTPUT_TO_FILE}: the DVM writes {@code PREFIX.NSPACE.N.out} and {@code .err}.
     */
    public Builder outputFile(String prefix) {
      return info(Info.of(PmixKeys.IOF_OUTPUT_TO_FILE, Value.string(prefix)));
    }

    /** {@code PMIX_IOF_FILE_ONLY}: the output goes to the files only, not to this client. */
    public Builder fileOnly(boolean on) {
      return info(Info.of(PmixKeys.IOF_FILE_ONLY, Value.bool(on)));
    }

    // ---- end of output formats and files ----

    // ---- docs/cli.md "Environment, working directory, time limit" ----------------------------

    /**
     * {@code PMIX_SET_ENVAR} in the last app's info: the variable is {@code value} in its
     * processes, whatever the environment had (applied in order with the other directives, on the
     * node that starts each process, before jdvm's own variables, which always win).
     */
    public Builder setEnv(String name, String value) {
      return appInfo(PmixKeys.SET_ENVAR, new Envar(name, value, (byte) 0));
    }

    /** {@code PMIX_UNSET_ENVAR}: the variable is not in the last app's processes' environment. */
    public Builder unsetEnv(String name) {
      last().info.add(Info.of(PmixKeys.UNSET_ENVAR, Value.string(name)));
      return this;
    }

    /** {@code PMIX_PREPEND_ENVAR}: {@code value}, {@code separator}, then what was there. */
    public Builder prependEnv(String name, String value, char separator) {
      return appInfo(PmixKeys.PREPEND_ENVAR, new Envar(name, value, (byte) separator));
    }

    /** {@code PMIX_APPEND_ENVAR}: what was there, {@code separator}, then {@code value}. */
    public Builder appendEnv(String name, String value, char separator) {
      return appInfo(PmixKeys.APPEND_ENVAR, new Envar(name, value, (byte) separator));
    }

    /** {@code PMIX_WDIR} in the last app's info: its processes' working directory. */
    public Builder wdir(String dir) {
      last().info.add(Info.of(PmixKeys.WDIR, Value.string(dir)));
      return this;
    }

    /**
     * {@code PMIX_JOB_TIMEOUT}: the DVM ends the job this many seconds after it launched it, with
     * {@code PMIX_ERR_TIMEOUT} as its status.
     */
    public Builder jobTimeout(int seconds) {
      return info(Info.of(PmixKeys.JOB_TIMEOUT, Value.integer(seconds)));
    }

    private Builder appInfo(String key, Envar e) {
      last().info.add(Info.of(key, new Value(org.jdvm.pmix.DataType.ENVAR, e)));
      return this;
    }

    /** Whether the DVM tells this client when the job ends (default true). */
    public Builder notifyCompletion(boolean on) {
      this.notify = on;
      return this;
    }

    /** Any other job-level attribute. */
    public Builder info(Info info) {
      infos.add(Objects.requireNonNull(info, "info"));
      return this;
    }

    private MutableApp last() {
      return apps.get(apps.size() - 1);
    }

    public SpawnRequest build() {
      List<App> built = new ArrayList<>(apps.size());
      for (MutableApp a : apps) {
        built.add(new App(a.cmd, a.argv, a.env, a.cwd, a.procs, a.info));
      }
      List<Info> all = new ArrayList<>(infos.size() + 4);
      if (targets.size() == 1) {
        all.add(Info.of(PmixKeys.SPAWN_TARGET, Value.string(targets.get(0))));
      } else if (!targets.isEmpty()) {
        all.add(Info.of(PmixKeys.SPAWN_TARGET, Value.array(DataArray.ofStrings(targets))));
      }
      all.add(Info.of(PmixKeys.NOTIFY_COMPLETION, Value.bool(notify)));
      all.add(Info.of(PmixKeys.FWD_STDOUT, Value.bool(forward)));
      all.add(Info.of(PmixKeys.FWD_STDERR, Value.bool(forward)));
      all.addAll(infos);
      return new SpawnRequest(built, all);
    }
  }
}
