package org.jdvm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.Contact;
import org.jdvm.core.Feature;
import org.jdvm.core.Limits;
import org.jdvm.core.engine.Recovery;
import org.jdvm.scheduler.slurm.SlurmAllocation;
import org.jdvm.scheduler.slurm.SlurmSchedulerPort;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmHome;
import org.jdvm.server.home.DvmLogging;
import org.jdvm.server.journal.FsyncPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm start}: a DVM on this machine, the embedded default (docs/cli.md). In the foreground
 * it runs until stopped or interrupted; with {@code --detach} it starts itself again as a daemon in
 * its own session and returns once that DVM accepts connections.
 */
@Command(
    description = "Start a DVM on this machine (virtual nodes running local processes).",
    mixinStandardHelpOptions = true)
public final class StartCommand implements Callable<Integer> {
  @Option(
      names = "--nodes",
      paramLabel = "N",
      description = "Start-up nodes (default 4, or the Slurm allocation's nodes inside one).")
  Integer nodes;

  @Option(names = "--slots", paramLabel = "S", description = "Slots per node (default 2).")
  Integer slots;

  @Option(
      names = "--spare",
      paramLabel = "M",
      description = "Spare nodes the embedded scheduler grants from (default 8).")
  int spare = 8;

  @Option(
      names = "--scheduler",
      paramLabel = "KIND",
      description =
          "embedded (the default outside Slurm), slurm (the default inside a Slurm allocation)"
              + " or none.")
  String scheduler;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "The DVM's directory (default ~/.jdvm).")
  Path dir;

  @Option(names = "--detach", description = "Run in the background; return once it is ready.")
  boolean detach;

  /**
   * Set by {@code --detach} on the DVM it starts: its output is {@code dvm.out}, which gets no copy
   * of the log and is bounded (DvmLogging#DVM_OUT_BYTES).
   */
  @Option(names = "--detached-child", hidden = true)
  boolean detachedChild;

  @Option(
      names = "--without",
      paramLabel = "LIST",
      split = ",",
      description =
          "Run without these attributes: target, share, inheritance, warn-timeout, spawn-target.")
  List<String> without = new ArrayList<>();

  @Option(
      names = "--limit",
      paramLabel = "NAME=N",
      description =
          "Set one of the core's limits (repeatable): procs-per-spawn, live-procs, apps-per-spawn,"
              + " nodes-in-dvm, nodes-per-request, live-allocations, pending-asks-per-requester.")
  List<String> limits = new ArrayList<>();

  @Option(
      names = "--fsync",
      paramLabel = "POLICY",
      description =
          "When the journal forces its writes to the disk: interval (default: every 100 ms),"
              + " always (before each batch's effects), never; off: no journal. See"
              + " docs/journal.md.")
  String fsync = "interval";

  @Option(
      names = "--discard-journal-after",
      paramLabel = "SEGMENT:BYTE",
      description =
          "Recover a damaged journal by giving up every record from byte BYTE of SEGMENT on and"
              + " every later segment (kept as *.corrupt), as the refusal to start names it. See"
              + " docs/journal.md.")
  String discardJournalAfter;

  @Option(
      names = "--grace",
      paramLabel = "MS",
      description =
          "How long processes get between TERM and KILL when jdvm ends them (default 1000, as"
              + " mpirun).")
  long graceMillis = 1000;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "The DVM's name (default jdvm-<pid>).")
  String name;

  @Option(
      names = "--hosts",
      paramLabel = "H1,H2:S,...",
      description = "Run across these hosts (agents started by ssh); H:S gives slots.")
  String hosts;

  @Option(
      names = "--hostfile",
      paramLabel = "FILE",
      description = "Run across the hosts of an Open MPI hostfile (slots=N, # comments).")
  Path hostfile;

  @Option(
      names = "--launcher",
      paramLabel = "CMD",
      description = "The ssh command that starts agents, split at spaces (default ssh).")
  String launcher = "ssh";

  @Option(
      names = "--listen",
      paramLabel = "ADDR",
      description = "The address agents connect back to (default: this host's name).")
  String listen;

  @Option(
      names = "--agent-command",
      paramLabel = "CMD",
      description = "How a host runs jdvm, split at spaces (default: this JVM and class path).")
  String agentCommand;

  @Option(
      names = "--heartbeat-ms",
      paramLabel = "MS",
      description = "Agent heartbeat interval (default 1000).")
  long heartbeatMillis = AgentHub.Settings.DEFAULT.heartbeatMillis();

  @Option(
      names = "--missed-heartbeats",
      paramLabel = "N",
      description = "Silent intervals before a host is down (default 5).")
  int missedHeartbeats = AgentHub.Settings.DEFAULT.missedHeartbeats();

  @Option(
      names = "--join-timeout-ms",
      paramLabel = "MS",
      description = "How long start-up waits for every agent (default 60000).")
  long joinTimeoutMillis = 60_000;

  @Option(
      names = "--rejoin-ms",
      paramLabel = "MS",
      description =
          "Restarting on the directory of a DVM across hosts whose controller died: how long to"
              + " wait for its agents before their hosts are down (default 10000).")
  long rejoinMillis = DvmServer.DEFAULT_REJOIN_MILLIS;

  @picocli.CommandLine.Mixin StartToolOptions tools = new StartToolOptions();

  PrintStream out = System.out;
  PrintStream err = System.err;

  /** The environment a Slurm allocation is read from (SLURM_JOB_ID, SLURM_JOB_NODELIST, ...). */
  Map<String, String> environment = System.getenv();

  /** The Slurm allocation the start-up nodes come from, once {@link #config} has run. */
  SlurmAllocation slurm;

  @Override
  public Integer call() {
    DvmConfig config;
    RemoteHosts remote;
    try {
      config = config();
      remote = remote();
    } catch (IllegalArgumentException e) {
      err.println("jdvm start: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    if (hosts != null || hostfile != null) {
      config = config.withScheduler(DvmConfig.SchedulerKind.NONE);
    }
    return detach ? new DetachedStart(this).run(config) : foreground(config, remote);
  }

  DvmConfig config() {
    if (graceMillis < 0) {
      throw new IllegalArgumentException("--grace must be at least 0");
    }
    if ((nodes != null && nodes < 1) || (slots != null && slots < 1) || spare < 0) {
      throw new IllegalArgumentException(
          "--nodes and --slots must be at least 1, --spare at least 0");
    }
    if (rejoinMillis < 0) {
      throw new IllegalArgumentException("--rejoin-ms must be at least 0");
    }
    // Inside a Slurm allocation its nodes are the start-up nodes, as for mpirun; --nodes opts out.
    slurm =
        nodes == null && slots == null
            ? SlurmAllocation.fromEnvironment(environment).orElse(null)
            : null;
    DvmConfig.SchedulerKind kind = schedulerKind();
    Set<Feature> disabled = disabledFeatures();
    if (dir != null && dir.toString().isBlank()) {
      throw new IllegalArgumentException("--dir must name a directory");
    }
    Path home = dir != null ? dir : Contact.defaultDir();
    String n = name != null ? name : "jdvm-" + ProcessHandle.current().pid();
    Limits limits = limits();
    if (nodes != null && nodes > limits.nodesInDvm()) {
      // The start-up pool counts against the DVM's own bound on nodes, like every other node.
      throw new IllegalArgumentException(
          "--nodes " + nodes + " is above the DVM's limit nodes-in-dvm=" + limits.nodesInDvm());
    }
    int spareNodes = kind == DvmConfig.SchedulerKind.EMBEDDED ? spare : 0;
    DvmConfig base =
        slurm == null
            ? DvmConfig.embedded(
                n, nodes != null ? nodes : 4, slots != null ? slots : 2, spareNodes, home)
            : DvmConfig.embedded(n, 1, 1, 0, home).withStartupNodes(slurm.nodes());
    return base.withScheduler(kind)
        .without(disabled)
        .limitedBy(limits)
        .withFsync(FsyncPolicy.parse(fsync))
        .discardingJournalAfter(
            discardJournalAfter == null ? null : Recovery.Discard.parse(discardJournalAfter))
        .withShrinkGrace(graceMillis)
        .withRendezvous(tools.mode());
  }

  /** {@code --scheduler}, or Slurm inside a Slurm allocation, else the embedded scheduler. */
  private DvmConfig.SchedulerKind schedulerKind() {
    String schedulerName = scheduler != null ? scheduler : slurm != null ? "slurm" : "embedded";
    DvmConfig.SchedulerKind kind =
        switch (schedulerName) {
          case "embedded" -> DvmConfig.SchedulerKind.EMBEDDED;
          case "none" -> DvmConfig.SchedulerKind.NONE;
          case "slurm" -> DvmConfig.SchedulerKind.SLURM;
          default ->
              throw new IllegalArgumentException("--scheduler takes embedded, slurm or none");
        };
    if (kind == DvmConfig.SchedulerKind.SLURM) {
      SlurmSchedulerPort.Config.fromEnvironment(environment);
    }
    return kind;
  }

  /** The features {@code --without} turns off. */
  private Set<Feature> disabledFeatures() {
    Set<Feature> disabled = EnumSet.noneOf(Feature.class);
    for (String w : without) {
      try {
        disabled.add(Feature.valueOf(w.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--without takes target, share, inheritance, warn-timeout, spawn-target; not '"
                + w
                + "'");
      }
    }
    return disabled;
  }

  /** {@code --limit NAME=N} applied, in order, over the defaults. */
  private Limits limits() {
    Limits l = Limits.DEFAULT;
    for (String entry : limits) {
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("--limit takes NAME=N, not '" + entry + "'");
      }
      int value;
      try {
        value = Integer.parseInt(entry.substring(eq + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--limit " + entry + ": N must be a number");
      }
      l = l.with(entry.substring(0, eq).trim(), value);
    }
    return l;
  }

  /**
   * The hosts of a DVM across hosts, or {@code null} for one on this machine: {@code --hosts} or
   * {@code --hostfile} with agents started by ssh, else the nodes of the Slurm allocation this runs
   * in with agents started by {@code srun --overlap}, else, under {@code --scheduler slurm}, no
   * start-up hosts but agents for the nodes Slurm grants ({@link #config} must have run).
   */
  RemoteHosts remote() {
    StartAgents agents =
        new StartAgents(
            listen,
            agentCommand,
            new AgentHub.Settings(heartbeatMillis, missedHeartbeats),
            joinTimeoutMillis,
            line -> {
              out.println(line);
              out.flush();
            });
    if (hosts == null && hostfile == null) {
      if (slurm != null) {
        return agents.inSlurm(slurm);
      }
      return schedulerKind() == DvmConfig.SchedulerKind.SLURM ? agents.slurmGrants() : null;
    }
    if (hosts != null && hostfile != null) {
      throw new IllegalArgumentException("give --hosts or --hostfile, not both");
    }
    List<HostList.Host> list;
    if (hosts != null) {
      list = HostList.parseHosts(hosts);
    } else {
      try {
        if (Files.size(hostfile) > (4 << 20)) {
          throw new IllegalArgumentException(hostfile + " is larger than 4 MiB");
        }
        list = HostList.parseHostfile(Files.readString(hostfile));
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read " + hostfile + ": " + e.getMessage());
      }
    }
    return agents.bySsh(list, StartAgents.words(launcher, "--launcher"));
  }

  private int foreground(DvmConfig config, RemoteHosts remote) {
    DvmServer server;
    DvmLogging.useOwnManager(); // before anything logs: the last lines survive a SIGTERM
    if (detachedChild) {
      DvmLogging.boundConsole(DvmLogging.DVM_OUT_BYTES);
      err = System.err;
      out = System.out;
    }
    try {
      DvmHome.prepare(config.home());
      // Detached, standard error is dvm.out: the log is in dvm.log already, not copied there.
      DvmLogging.configure(config.home().resolve(DvmHome.LOG), !detachedChild);
      server = DvmServer.start(config, remote, rejoinMillis);
    } catch (IllegalStateException e) {
      err.println("jdvm start: " + e.getMessage());
      return Main.EXIT_FAILURE;
    } catch (IOException e) {
      err.println("jdvm start: cannot start the DVM in " + config.home() + ": " + e.getMessage());
      return Main.EXIT_FAILURE;
    }
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(server::close));
    // Any throwable no thread caught ends the DVM (DvmServer#fail), never a zombie.
    Thread.setDefaultUncaughtExceptionHandler((thread, t) -> server.fail(t));
    describe(
        server.dvm().config(),
        server.endpoint().uri(),
        server.rendezvous() == null ? null : server.rendezvous().dir());
    out.flush();
    try {
      long failedAt = 0;
      while (!server.awaitStop(500)) {
        if (server.failure() != null) {
          failedAt = failedAt == 0 ? System.nanoTime() : failedAt;
          if (System.nanoTime() - failedAt > TimeUnit.SECONDS.toNanos(FAIL_STOP_SECONDS)) {
            err.println("jdvm start: the DVM failed and did not stop in time; exiting");
            Runtime.getRuntime().halt(Main.EXIT_FAILURE);
          }
        }
      }
    } catch (InterruptedException e) {
      server.close();
    }
    if (server.failure() != null) {
      err.println(
          "jdvm start: the DVM failed ("
              + server.failure()
              + ") and stopped; see "
              + config.home().resolve(DvmHome.LOG));
      return Main.EXIT_FAILURE;
    }
    return Main.EXIT_OK;
  }

  /**
   * What the JVM of a DVM does on its first OutOfMemoryError, whichever thread it hits: stop the
   * way SIGTERM stops it, ordered (every job ended, the contact file removed, a last log line),
   * rather than go on half-working. The launcher passes the same option.
   */
  /**
   * What a DVM's JVM must allow: native calls (the process host's {@code posix_spawn}, epoll, ...)
   * and reading a socket channel's descriptor, so that connections send without waking a writer.
   */
  static final List<String> DVM_JVM_ACCESS =
      List.of(
          "--enable-native-access=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");

  static final String ON_OUT_OF_MEMORY = "-XX:OnOutOfMemoryError=kill -TERM %p";

  /** How long a failed DVM may take to end its jobs before the process exits anyway. */
  private static final long FAIL_STOP_SECONDS = 30;

  void describe(DvmConfig config, String uri, Path tools) {
    out.println("jdvm: DVM " + config.name() + " is running");
    out.println(
        "  nodes:     "
            + config.startupNodes().size()
            + " ("
            + config.startupNodes().get(0).name()
            + ".."
            + config.startupNodes().getLast().name()
            + "), "
            + slotsText(config)
            + (slurm != null ? ", from Slurm job " + slurm.jobId() : ""));
    out.println(
        "  scheduler: "
            + switch (config.scheduler()) {
              case EMBEDDED -> "embedded, " + config.spareNodes().size() + " spare nodes";
              case SLURM -> "slurm (new nodes are Slurm jobs)";
              case NONE -> "none (start-up nodes only)";
            });
    if (!config.disabledFeatures().isEmpty()) {
      out.println("  without:   " + config.disabledFeatures());
    }
    out.println("  contact:   " + config.home().resolve(DvmHome.CONTACT));
    out.println("  PMIx URI:  " + uri);
    if (tools != null) {
      // What libpmix tools (pps, pattrs, pevent, python3-pmix) search: found with no flags.
      out.println("  PMIx tools: find it alone; with other DVMs, PMIX_SYSTEM_TMPDIR=" + tools);
    }
    out.println("  log:       " + config.home().resolve(DvmHome.LOG));
    String processes = org.jdvm.host.os.Containment.recordedDescription(config.home());
    if (processes != null) {
      out.println("  processes: contained by " + processes);
    }
    out.println("  grace:     " + config.shrinkGraceMillis() + " ms between TERM and KILL");
    out.println("  stop with: jdvm stop" + (dir != null ? " --dir " + dir : ""));
  }

  private static String slotsText(DvmConfig config) {
    List<Integer> slots =
        config.startupNodes().stream().map(org.jdvm.core.NodeSpec::slots).distinct().toList();
    return slots.size() == 1 ? slots.getFirst() + " slots each" : "slots " + slots;
  }
}
