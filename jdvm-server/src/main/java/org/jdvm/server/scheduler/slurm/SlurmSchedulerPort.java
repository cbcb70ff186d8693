package org.jdvm.server.scheduler.slurm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.server.remote.AgentStarter;
import org.jdvm.server.scheduler.Ask;
import org.jdvm.server.scheduler.NodeGrant;
import org.jdvm.server.scheduler.SchedulerEvent;
import org.jdvm.server.scheduler.SchedulerPort;

/**
 * {@code --scheduler slurm}: the scheduler port over a real Slurm (architecture.md §5). Each NEW
 * ask is one {@code salloc --no-shell} job; an EXTEND with nodes is another job in the same
 * allocation with the allocation's remaining time, as PRRTE's Slurm expander jobs are
 * (prrte-behavior.md §2 #11, §3 #31). The allocation's id is its first job's id.
 *
 * <ul>
 *   <li>salloc runs as a child process read line by line, so the port's thread never waits for
 *       Slurm's queue: "Pending job allocation N" is {@code Queued}, "Granted job allocation N" is
 *       {@code Granted} (nodes and slots from {@code scontrol show job}); a queued ask is cancelled
 *       with {@code scancel}. A request Slurm can never serve (more nodes than the partition) pends
 *       forever in Slurm: it is cancelled and refused.
 *   <li>Release shrinks a job ({@code scontrol update NodeList=}) or cancels it when it keeps no
 *       node; end cancels every job of the allocation.
 *   <li>Time: Slurm's EndTime (whole minutes, so a limit is rounded up) is the deadline. The port
 *       warns at the ask's lead before it and, at it, cancels the jobs and reports the allocation
 *       reclaimed, rather than waiting up to 30 s for slurmctld's own time-limit tick.
 *   <li>Every {@code pollMs} one {@code squeue} reads all jobs: a job ended from outside ({@code
 *       scancel} by an admin, node failure, Slurm's time limit) is reclaimed — the whole allocation
 *       if it was the first job, else its nodes; nodes gone from a job are reclaimed; a moved
 *       EndTime moves the deadline.
 *   <li>LEND and REAQUIRE are refused: Slurm has no loans.
 * </ul>
 *
 * <p>All state lives on one thread; commands are argv lists of validated names ({@link
 * SlurmNames}), never shell text.
 */
public final class SlurmSchedulerPort implements SchedulerPort {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.scheduler");
  private static final long NS_PER_SECOND = 1_000_000_000L;
  private static final Pattern PENDING = Pattern.compile("Pending job allocation ([0-9]+)");
  private static final Pattern GRANTED = Pattern.compile("Granted job allocation ([0-9]+)");

  /**
   * How the port talks to Slurm.
   *
   * @param partition the partition to allocate from, or {@code null} for Slurm's default
   * @param pollMs how often {@code squeue} looks for jobs ended or changed from outside
   * @param commandTimeoutMs the bound on one squeue/scontrol/scancel
   */
  public record Config(String partition, long pollMs, long commandTimeoutMs) {
    public Config {
      if (partition != null) {
        SlurmNames.partition(partition);
      }
      if (pollMs < 10 || commandTimeoutMs < 100) {
        throw new IllegalArgumentException("poll at least every 10 ms, commands get 100 ms");
      }
    }

    /** The default partition, a poll every 2 s, 15 s per command. */
    public static Config defaults() {
      return new Config(null, 2000, 15_000);
    }

    /**
     * The defaults, with {@code JDVM_SLURM_POLL_MS} setting the poll interval. The partition is
     * Slurm's own business: salloc reads {@code SALLOC_PARTITION}.
     */
    public static Config fromEnvironment(Map<String, String> env) {
      String poll = env.get("JDVM_SLURM_POLL_MS");
      if (poll == null) {
        return defaults();
      }
      if (!poll.matches("[0-9]{1,9}")) {
        throw new IllegalArgumentException("JDVM_SLURM_POLL_MS must be a number of milliseconds");
      }
      return new Config(null, Long.parseLong(poll), defaults().commandTimeoutMs());
    }
  }

  private final SlurmCommands commands;
  private final Config config;
  private final LongSupplier clockNs;
  private final LongSupplier wallMs;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "jdvm-slurm");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, SallocAsk> pending = new LinkedHashMap<>();
  private final Map<String, HeldAllocation> allocations = new LinkedHashMap<>();
  private final Map<String, String> jobOfNode = new ConcurrentHashMap<>();
  private Consumer<SchedulerEvent> listener;
  private ScheduledFuture<?> timer;
  private boolean pollFailing;

  /**
   * @param commands Slurm's client commands (their output must use {@code SLURM_TIME_FORMAT=%s};
   *     {@link #systemCommands} sets it)
   * @param clockNs the DVM's monotonic clock, in which deadlines are given
   * @param wallMs the wall clock in epoch milliseconds, against which Slurm's EndTime is read
   */
  public SlurmSchedulerPort(
      SlurmCommands commands, Config config, LongSupplier clockNs, LongSupplier wallMs) {
    this.commands = commands;
    this.config = config;
    this.clockNs = clockNs;
    this.wallMs = wallMs;
  }

  /** The real client commands on the PATH, with {@code extraEnv} and epoch-second times. */
  public static SlurmCommands systemCommands(Map<String, String> extraEnv) {
    Map<String, String> env = new LinkedHashMap<>(extraEnv);
    env.put("SLURM_TIME_FORMAT", "%s");
    return SlurmCommands.system(env);
  }

  @Override
  public void start(Consumer<SchedulerEvent> listener) {
    this.listener = listener;
    thread.scheduleWithFixedDelay(
        () -> guarded(this::poll), config.pollMs, config.pollMs, TimeUnit.MILLISECONDS);
  }

  /** The Slurm job holding {@code node} for this DVM, if any (for starting agents with srun). */
  public Optional<String> jobOf(String node) {
    return Optional.ofNullable(jobOfNode.get(node));
  }

  /** Starts agents on granted nodes with {@code srun --overlap --jobid <the node's job>}. */
  public AgentStarter agentStarter(SlurmCommands srunCommands) {
    return new SrunAgentStarter(
        srunCommands,
        node ->
            jobOf(node)
                .orElseThrow(
                    () -> new IllegalArgumentException("no Slurm job of this DVM holds " + node)));
  }

  // ---- the port --------------------------------------------------------------------------------

  @Override
  public void ask(Ask ask) {
    run(() -> onAsk(ask));
  }

  @Override
  public void cancel(String askId) {
    run(() -> onCancel(askId));
  }

  @Override
  public void release(String allocation, List<String> nodes) {
    run(() -> onRelease(allocation, List.copyOf(nodes)));
  }

  @Override
  public void lend(String allocation, List<String> nodes, long seconds) {
    throw new UnsupportedOperationException("Slurm takes no loans");
  }

  @Override
  public void end(String allocation) {
    run(
        () -> {
          HeldAllocation a = allocations.remove(allocation);
          if (a != null) {
            forgetNodes(a);
            scancel(List.copyOf(a.jobs.keySet()));
          }
        });
  }

  @Override
  public String describe() {
    return "slurm"
        + (config.partition == null ? "" : " partition " + config.partition)
        + ", polled every "
        + config.pollMs
        + " ms";
  }

  /** Gives every job and queued request back to Slurm, then stops the thread. Bounded. */
  @Override
  public void close() {
    try {
      thread
          .submit(
              () -> {
                for (SallocAsk p : pending.values()) {
                  p.salloc.destroy();
                  if (p.jobId != null) {
                    scancel(List.of(p.jobId));
                  }
                }
                pending.clear();
                List<String> jobs = new ArrayList<>();
                allocations.values().forEach(a -> jobs.addAll(a.jobs.keySet()));
                allocations.clear();
                jobOfNode.clear();
                if (!jobs.isEmpty()) {
                  scancel(jobs);
                }
              })
          .get(config.commandTimeoutMs + 5000, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "slurm: giving jobs back at close failed: " + e);
    }
    thread.shutdownNow();
  }

  // ---- asks ------------------------------------------------------------------------------------

  private void onAsk(Ask ask) {
    switch (ask.kind()) {
      case LEND ->
          refuse(
              ask,
              PmixStatus.ERR_NOT_SUPPORTED,
              "Slurm takes no loans: a Slurm job cannot lend nodes and claim them back later;"
                  + " release them instead");
      case REAQUIRE ->
          refuse(ask, PmixStatus.ERR_NOT_SUPPORTED, "Slurm took no loans: nothing to reacquire");
      case NEW, EXTEND -> allocate(ask);
    }
  }

  private void allocate(Ask ask) {
    HeldAllocation a = ask.allocation() == null ? null : allocations.get(ask.allocation());
    if (ask.kind() == Ask.Kind.EXTEND && a == null) {
      refuse(ask, PmixStatus.ERR_NOT_FOUND, "no Slurm allocation " + ask.allocation());
      return;
    }
    List<String> argv;
    try {
      if (ask.kind() == Ask.Kind.EXTEND && ask.timeLimitSeconds() != null && !addTime(a, ask)) {
        return;
      }
      if (ask.kind() == Ask.Kind.EXTEND && ask.names().isEmpty() && ask.count() == 0) {
        a.warnAfterChange(ask.warnSeconds());
        emit(new SchedulerEvent.Granted(ask.askId(), a.id, List.of(), a.deadlineNs));
        rearm();
        return;
      }
      argv =
          SlurmCli.salloc(
              ask.count(), ask.names(), minutesFor(ask, a), ask.required(), config.partition);
    } catch (IllegalArgumentException e) {
      refuse(ask, PmixStatus.ERR_BAD_PARAM, e.getMessage());
      return;
    }
    Process salloc;
    try {
      salloc = commands.start(argv);
      salloc.getOutputStream().close();
    } catch (IOException e) {
      refuse(ask, PmixStatus.ERR_NOT_SUPPORTED, "cannot run salloc: " + e.getMessage());
      return;
    }
    SallocAsk p = new SallocAsk(ask, salloc);
    pending.put(ask.askId(), p);
    Thread.ofVirtual()
        .name("jdvm-salloc-" + ask.askId())
        .start(
            () ->
                p.read(
                    line -> run(() -> onSallocLine(p, line)),
                    exit -> run(() -> onSallocExit(p, exit))));
  }

  /** The salloc time limit: the ask's for NEW, the allocation's time left for EXTEND. */
  private Long minutesFor(Ask ask, HeldAllocation a) {
    if (ask.kind() == Ask.Kind.NEW) {
      return ask.timeLimitSeconds() == null ? null : SlurmCli.minutes(ask.timeLimitSeconds());
    }
    if (a.deadlineNs == null) {
      return null;
    }
    long left = Math.ceilDiv(a.deadlineNs - clockNs.getAsLong(), NS_PER_SECOND);
    return SlurmCli.minutes(Math.max(1, left));
  }

  /** EXTEND's time: every job of the allocation gets the minutes; false if Slurm said no. */
  private boolean addTime(HeldAllocation a, Ask ask) {
    long minutes = SlurmCli.minutes(ask.timeLimitSeconds());
    for (String job : a.jobs.keySet()) {
      SlurmCommands.Result r = runQuietly(SlurmCli.addTime(job, minutes));
      if (r.exit() != 0) {
        SlurmCli.Failure f = SlurmCli.failure("did not extend job " + job, r.lastLine());
        refuse(ask, f.status(), f.reason());
        return false;
      }
    }
    refreshDeadline(a);
    return true;
  }

  private void onSallocLine(SallocAsk p, String line) {
    Matcher granted = GRANTED.matcher(line);
    Matcher queued = PENDING.matcher(line);
    if (granted.find()) {
      p.jobId = granted.group(1);
      if (p.cancelled || p.answered) {
        scancel(List.of(p.jobId));
      } else {
        p.answered = true;
        grant(p.ask, p.jobId);
      }
    } else if (queued.find()) {
      p.jobId = queued.group(1);
      if (p.never || p.cancelled) {
        scancel(List.of(p.jobId));
        p.salloc.destroy();
      } else if (!p.ask.required()) {
        long position = pending.values().stream().filter(q -> q.queued && !q.cancelled).count() + 1;
        p.queued = true;
        emit(new SchedulerEvent.Queued(p.ask.askId(), (int) position));
      }
    } else if (line.contains("configuration not available")
        || line.contains("configuration is not available")) {
      // Slurm queues a request that can never fit (PartitionNodeLimit) and waits for ever.
      p.never = true;
      p.lastError = line;
    } else if (line.contains("error") && !p.never) {
      p.lastError = line;
    }
  }

  private void onSallocExit(SallocAsk p, int exit) {
    pending.remove(p.ask.askId(), p);
    if (p.answered || p.cancelled) {
      return;
    }
    p.answered = true;
    if (p.jobId != null) {
      scancel(List.of(p.jobId));
    }
    String last = p.lastError != null ? p.lastError : "salloc exited with status " + exit;
    SlurmCli.Failure f =
        p.never
            ? new SlurmCli.Failure(
                PmixStatus.ERR_OUT_OF_RESOURCE,
                SlurmCli.failure("can never grant the nodes", last).reason())
            : SlurmCli.failure("did not grant the nodes", last);
    emit(new SchedulerEvent.Refused(p.ask.askId(), f.status(), f.reason()));
  }

  private void grant(Ask ask, String jobId) {
    pending.remove(ask.askId());
    SlurmCli.GrantedJob job;
    try {
      job = SlurmCli.parseShowJob(check(SlurmCli.showJob(jobId)).out());
    } catch (IllegalArgumentException | IllegalStateException e) {
      scancel(List.of(jobId));
      emit(
          new SchedulerEvent.Refused(
              ask.askId(),
              PmixStatus.ERROR,
              "Slurm job " + jobId + " was granted but cannot be read: " + e.getMessage()));
      return;
    }
    HeldAllocation a;
    if (ask.kind() == Ask.Kind.NEW) {
      a = new HeldAllocation(jobId);
      a.deadlineNs = toDeadlineNs(job.endEpochSeconds());
      allocations.put(a.id, a);
    } else {
      a = allocations.get(ask.allocation());
      if (a == null) {
        scancel(List.of(jobId));
        emit(
            new SchedulerEvent.Refused(
                ask.askId(),
                PmixStatus.ERR_NOT_FOUND,
                "allocation " + ask.allocation() + " ended while its extension waited"));
        return;
      }
    }
    a.warnAfterChange(ask.warnSeconds());
    List<String> names = job.nodes().stream().map(NodeGrant::name).toList();
    a.jobs.put(jobId, new LinkedHashSet<>(names));
    names.forEach(n -> jobOfNode.put(n, jobId));
    emit(new SchedulerEvent.Granted(ask.askId(), a.id, job.nodes(), a.deadlineNs));
    rearm();
  }

  private void onCancel(String askId) {
    SallocAsk p = pending.get(askId);
    if (p == null || p.answered || p.cancelled) {
      return;
    }
    p.cancelled = true;
    if (p.jobId != null) {
      scancel(List.of(p.jobId));
    }
    p.salloc.destroy();
    emit(new SchedulerEvent.Cancelled(askId));
  }

  // ---- release, time, polling ------------------------------------------------------------------

  private void onRelease(String allocation, List<String> nodes) {
    HeldAllocation a = allocations.get(allocation);
    if (a == null) {
      return;
    }
    for (var it = a.jobs.entrySet().iterator(); it.hasNext(); ) {
      var job = it.next();
      List<String> keep = job.getValue().stream().filter(n -> !nodes.contains(n)).toList();
      if (keep.size() == job.getValue().size()) {
        continue;
      }
      job.getValue().stream().filter(nodes::contains).forEach(jobOfNode::remove);
      if (keep.isEmpty()) {
        it.remove();
        scancel(List.of(job.getKey()));
      } else {
        job.getValue().retainAll(keep);
        SlurmCommands.Result r = runQuietly(SlurmCli.shrink(job.getKey(), keep));
        if (r.exit() != 0) {
          LOG.log(
              System.Logger.Level.WARNING,
              SlurmCli.failure("did not shrink job " + job.getKey(), r.lastLine()).reason());
        }
      }
    }
    if (a.jobs.isEmpty()) {
      allocations.remove(allocation);
    }
  }

  private void tick() {
    long now = clockNs.getAsLong();
    for (HeldAllocation a : List.copyOf(allocations.values())) {
      if (a.deadlineNs != null && a.deadlineNs <= now) {
        reclaimWhole(a);
      } else if (a.warnAtNs() != null && !a.warned && a.warnAtNs() <= now) {
        a.warned = true;
        emit(new SchedulerEvent.Warning(a.id, Math.ceilDiv(a.deadlineNs - now, NS_PER_SECOND)));
      }
    }
    rearm();
  }

  private void reclaimWhole(HeldAllocation a) {
    allocations.remove(a.id);
    forgetNodes(a);
    scancel(List.copyOf(a.jobs.keySet()));
    emit(new SchedulerEvent.Reclaimed(a.id, a.allNodes(), true));
  }

  private void poll() {
    if (allocations.isEmpty()) {
      return;
    }
    List<String> ids = new ArrayList<>();
    allocations.values().forEach(a -> ids.addAll(a.jobs.keySet()));
    SlurmCommands.Result r = runQuietly(SlurmCli.squeue(ids));
    if (r.exit() != 0 && !r.err().contains("Invalid job id")) {
      if (pollFailing) {
        return;
      }
      pollFailing = true;
      LOG.log(
          System.Logger.Level.WARNING,
          SlurmCli.failure("squeue failed", r.lastLine()).reason()
              + "; allocations are kept until Slurm answers");
      return;
    }
    pollFailing = false;
    Map<String, SlurmCli.JobRow> rows = SlurmCli.parseSqueue(r.out());
    for (HeldAllocation a : List.copyOf(allocations.values())) {
      reconcile(a, rows);
    }
    rearm();
  }

  /** What Slurm says of an allocation's jobs, against what the port holds. */
  private void reconcile(HeldAllocation a, Map<String, SlurmCli.JobRow> rows) {
    String first = a.jobs.keySet().iterator().next();
    for (String job : List.copyOf(a.jobs.keySet())) {
      SlurmCli.JobRow row = rows.get(job);
      boolean ended = row == null || !SlurmCli.LIVE_STATES.contains(row.state());
      if (ended && (job.equals(first) || a.jobs.size() == 1)) {
        LOG.log(
            System.Logger.Level.INFO,
            "slurm: job "
                + job
                + " ended outside the DVM ("
                + (row == null ? "gone" : row.state())
                + "): allocation "
                + a.id
                + " reclaimed");
        reclaimWhole(a);
        return;
      }
      List<String> lost =
          ended
              ? List.copyOf(a.jobs.get(job))
              : a.jobs.get(job).stream().filter(n -> !row.nodes().contains(n)).toList();
      if (ended) {
        a.jobs.remove(job);
      } else {
        a.jobs.get(job).removeAll(lost);
      }
      if (!lost.isEmpty()) {
        lost.forEach(jobOfNode::remove);
        emit(new SchedulerEvent.Reclaimed(a.id, lost, false));
      }
      if (job.equals(first) && row != null) {
        Long d = toDeadlineNs(row.endEpochSeconds());
        a.moveDeadline(d, clockNs.getAsLong());
      }
    }
  }

  private void refreshDeadline(HeldAllocation a) {
    String first = a.jobs.keySet().iterator().next();
    SlurmCli.JobRow row =
        SlurmCli.parseSqueue(runQuietly(SlurmCli.squeue(List.of(first))).out()).get(first);
    if (row != null) {
      a.moveDeadline(toDeadlineNs(row.endEpochSeconds()), clockNs.getAsLong());
    }
  }

  private Long toDeadlineNs(Long endEpochSeconds) {
    if (endEpochSeconds == null) {
      return null;
    }
    long leftMs = endEpochSeconds * 1000 - wallMs.getAsLong();
    return clockNs.getAsLong() + leftMs * 1_000_000L;
  }

  private void rearm() {
    if (timer != null) {
      timer.cancel(false);
    }
    long next = Long.MAX_VALUE;
    for (HeldAllocation a : allocations.values()) {
      if (a.deadlineNs != null) {
        next = Math.min(next, a.deadlineNs);
      }
      if (a.warnAtNs() != null && !a.warned) {
        next = Math.min(next, a.warnAtNs());
      }
    }
    if (next != Long.MAX_VALUE) {
      long delay = Math.max(0, next - clockNs.getAsLong());
      timer = thread.schedule(() -> guarded(this::tick), delay, TimeUnit.NANOSECONDS);
    }
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private void scancel(List<String> jobIds) {
    SlurmCommands.Result r = runQuietly(SlurmCli.scancel(jobIds));
    if (r.exit() != 0) {
      LOG.log(
          System.Logger.Level.WARNING,
          SlurmCli.failure("did not cancel " + jobIds, r.lastLine()).reason());
    }
  }

  private SlurmCommands.Result runQuietly(List<String> argv) {
    try {
      return commands.run(argv, config.commandTimeoutMs);
    } catch (IOException e) {
      return new SlurmCommands.Result(
          -1, "", "cannot run " + argv.getFirst() + ": " + e.getMessage());
    }
  }

  private SlurmCommands.Result check(List<String> argv) {
    SlurmCommands.Result r = runQuietly(argv);
    if (r.exit() != 0) {
      throw new IllegalStateException(r.lastLine());
    }
    return r;
  }

  private void forgetNodes(HeldAllocation a) {
    a.allNodes().forEach(jobOfNode::remove);
  }

  private void refuse(Ask ask, int status, String reason) {
    emit(new SchedulerEvent.Refused(ask.askId(), status, reason));
  }

  private void emit(SchedulerEvent e) {
    listener.accept(e);
  }

  private void run(Runnable step) {
    try {
      thread.execute(() -> guarded(step));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed: Slurm was given everything back already
    }
  }

  /** A bug in one step is logged and the port goes on: the thread must not die. */
  private static void guarded(Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "slurm scheduler port: " + e, e);
    }
  }
}
