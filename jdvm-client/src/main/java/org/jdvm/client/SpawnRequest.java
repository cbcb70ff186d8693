package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataArray;
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
        built.add(new App(a.cmd, a.argv, a.env, a.cwd, a.procs, List.of()));
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
