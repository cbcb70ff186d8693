package org.jdvm.scheduler.slurm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerPort;

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

  /** How long an ended salloc has to exit on SIGTERM before it is killed. */
  private static final long SALLOC_GRACE_S = 5;

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

  /** Asks a previous controller left waiting in Slurm's queue, by ask id (no salloc watches). */
  private final Map<String, SlurmRecovery.Waiting> adopted = new LinkedHashMap<>();

  /** Answers a previous controller gave that its core may not have heard, by ask id. */
  private final Map<String, SchedulerEvent> answers = new LinkedHashMap<>();

  /** Asks recovery answered with the job Slurm granted meanwhile: asked again, they get nothing. */
  private final Set<String> answeredAtRecovery = new java.util.HashSet<>();

  /** Events of the current step: they leave once its state is journaled. */
  private final List<SchedulerEvent> outbox = new ArrayList<>();

  private Consumer<SchedulerEvent> listener;
  private ScheduledFuture<?> timer;
  private boolean pollFailing;
  private String tag = newTag();
  private List<SlurmRecovery.Waiting> restoredWaiting = List.of();
  private boolean awaitingRecovery;
  private volatile BiConsumer<SlurmRecovery.Saved, List<SchedulerEvent>> persist = (s, a) -> {};
  private SlurmRecovery.Saved lastSaved;

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

  private static String newTag() {
    byte[] b = new byte[6];
    new java.security.SecureRandom().nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }

  /** The name of this DVM's Slurm jobs, {@code jdvm-TAG} (its tag is journaled). */
  public String jobName() {
    return SlurmCli.jobName(tag);
  }

  /**
   * Journals the port's state (its allocations with their Slurm jobs, nodes and deadlines, the asks
   * waiting in Slurm's queue with their job ids, the DVM's job tag) and each step's answers, after
   * the step and before its events leave, so no grant is given that a restart would forget. Set
   * before {@link #start}.
   */
  public void persistWith(BiConsumer<SlurmRecovery.Saved, List<SchedulerEvent>> persist) {
    this.persist = persist;
  }

  /**
   * After a controller restart, before {@link #start}: the state its predecessor journaled, and the
   * answers it gave that the core had not yet closed (given again when asked again). Nothing is
   * trusted until {@link #recover} has asked Slurm.
   */
  public void restore(SlurmRecovery.Saved saved, List<SchedulerEvent> given) {
    tag = saved.tag();
    SlurmCli.jobName(tag);
    for (SlurmRecovery.Held h : saved.allocations()) {
      HeldAllocation a = new HeldAllocation(h.id());
      for (SlurmRecovery.Job j : h.jobs()) {
        a.jobs.put(SlurmNames.jobId(j.id()), new LinkedHashSet<>(j.nodes()));
        j.nodes().forEach(n -> jobOfNode.put(n, j.id()));
      }
      a.deadlineNs = h.deadlineNs();
      a.warnSeconds = h.warnSeconds();
      a.warned = h.warned();
      if (!a.jobs.isEmpty()) {
        allocations.put(a.id, a);
      }
    }
    restoredWaiting = saved.waiting();
    awaitingRecovery = true;
    for (SchedulerEvent e : given) {
      answers.put(SchedulerEvent.askIdOf(e), e);
    }
    lastSaved = saved;
  }

  /** What a restart's recovery did, for its log line. */
  public record Recovered(int adopted, int reclaimed, int waiting, int cancelled, int resent) {}

  /**
   * After {@link #restore} and {@link #start}, before the core's waiting asks are sent again: asks
   * Slurm ({@code squeue --name=jdvm-TAG}) about every job of this DVM and applies {@link
   * SlurmRecovery#decide}: running jobs are adopted (their EndTime read again), jobs that ended
   * while the controller was away are reclaimed now, a waiting ask keeps its queued job (or gets
   * it, if Slurm granted it meanwhile), and a job nobody holds or waits for is cancelled. Then
   * sends again a timeout warning that went out but that the core never relayed ({@code relayed}
   * are those it did). Blocks until done (bounded by the command timeout).
   *
   * @param stillWaiting ask ids the recovered core still waits on
   * @param coreHolds the recovered core's allocations from this scheduler, with their nodes
   */
  public Recovered recover(
      Set<String> stillWaiting, Map<String, List<String>> coreHolds, Set<String> relayed) {
    try {
      return thread
          .submit(
              () -> {
                try {
                  return onRecover(stillWaiting, coreHolds, relayed);
                } finally {
                  flush();
                }
              })
          .get(config.commandTimeoutMs * 3 + 5000, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException
        | java.util.concurrent.TimeoutException
        | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.log(System.Logger.Level.ERROR, "slurm: recovering the Slurm jobs failed: " + e);
      return new Recovered(0, 0, 0, 0, 0);
    }
  }

  @Override
  public void start(Consumer<SchedulerEvent> listener) {
    this.listener = listener;
    run(() -> {}); // the tag is journaled before any salloc can run
    thread.scheduleWithFixedDelay(
        () -> guarded(this::poll), config.pollMs, config.pollMs, TimeUnit.MILLISECONDS);
  }

  /** The Slurm job holding {@code node} for this DVM, if any (for starting agents with srun). */
  public Optional<String> jobOf(String node) {
    return Optional.ofNullable(jobOfNode.get(node));
  }

  // ---- the port --------------------------------------------------------------------------------

  @Override
  public void ask(Ask ask) {
    run(() -> onAsk(ask));
  }

  // ---- recovery --------------------------------------------------------------------------------

  private Recovered onRecover(
      Set<String> stillWaiting, Map<String, List<String>> coreHolds, Set<String> relayed) {
    awaitingRecovery = false;
    SlurmCommands.Result r = runQuietly(SlurmCli.squeueNamed(jobName()));
    if (r.exit() != 0) {
      // Slurm does not answer: keep everything; the poll reconciles once it does.
      LOG.log(
          System.Logger.Level.WARNING,
          SlurmCli.failure("squeue failed at recovery", r.lastLine()).reason()
              + "; the journaled Slurm jobs are kept until Slurm answers");
      for (SlurmRecovery.Waiting w : restoredWaiting) {
        if (w.jobId() != null && stillWaiting.contains(w.ask().askId())) {
          adopted.put(w.ask().askId(), w);
        }
      }
      restoredWaiting = List.of();
      return new Recovered(allocations.size(), 0, adopted.size(), 0, resendWarnings(relayed));
    }
    Map<String, SlurmCli.JobRow> rows = SlurmCli.parseSqueue(r.out());
    SlurmRecovery.Saved saved = new SlurmRecovery.Saved(tag, save().allocations(), restoredWaiting);
    restoredWaiting = List.of();
    Map<String, SlurmRecovery.Waiting> waitingById = new LinkedHashMap<>();
    saved.waiting().forEach(w -> waitingById.put(w.ask().askId(), w));
    int adoptedJobs = 0;
    int reclaimed = 0;
    int cancelled = 0;
    List<SlurmRecovery.Decision> decisions =
        SlurmRecovery.decide(saved, rows, stillWaiting, coreHolds);
    for (SlurmRecovery.Decision d : decisions) {
      switch (d) {
        case SlurmRecovery.ReclaimUnheld u -> {
          reclaimed++;
          LOG.log(
              System.Logger.Level.WARNING,
              "slurm: allocation "
                  + u.allocation()
                  + " ended before the controller died, unheard: reclaimed now");
          emit(new SchedulerEvent.Reclaimed(u.allocation(), u.nodes(), true));
        }
        case SlurmRecovery.Adopt x -> {
          adoptedJobs++;
          LOG.log(
              System.Logger.Level.INFO,
              "slurm: job " + x.job() + " still runs: re-adopted for allocation " + x.allocation());
        }
        case SlurmRecovery.Reclaim x -> {
          reclaimed++;
          if (x.whole()) {
            // A grant the core never heard of must not be given again for a job that is gone.
            answers
                .values()
                .removeIf(
                    e ->
                        e instanceof SchedulerEvent.Granted g
                            && g.allocation().equals(x.allocation()));
          }
        }
        case SlurmRecovery.KeepWaiting x -> {
          adopted.put(x.askId(), waitingById.get(x.askId()));
          LOG.log(
              System.Logger.Level.INFO,
              "slurm: job " + x.job() + " still waits in Slurm's queue for request " + x.askId());
        }
        case SlurmRecovery.GrantNow x -> {
          LOG.log(
              System.Logger.Level.INFO,
              "slurm: job "
                  + x.job()
                  + " was granted while the controller was away: request "
                  + x.askId()
                  + " gets it");
          grant(waitingById.get(x.askId()).ask(), x.job());
          answeredAtRecovery.add(x.askId());
        }
        case SlurmRecovery.AskAgain x ->
            LOG.log(
                System.Logger.Level.INFO,
                "slurm: request " + x.askId() + " lost its Slurm job: it is asked for again");
        case SlurmRecovery.Cancel x -> {
          cancelled++;
          LOG.log(
              System.Logger.Level.WARNING,
              "slurm: job " + x.job() + " cancelled at recovery: " + x.why());
          scancel(List.of(x.job()));
        }
      }
    }
    // The jobs that ended are reclaimed as the poll reclaims them (an admin's scancel): the same
    // events, once; nodes Slurm took from a running job are reclaimed too, EndTime read again.
    for (HeldAllocation a : List.copyOf(allocations.values())) {
      reconcile(a, rows);
    }
    rearm();
    return new Recovered(
        adoptedJobs, reclaimed, adopted.size(), cancelled, resendWarnings(relayed));
  }

  /** Warnings that went out that the core never relayed go out again; none twice. */
  private int resendWarnings(Set<String> relayed) {
    int n = 0;
    long now = clockNs.getAsLong();
    for (HeldAllocation a : allocations.values()) {
      if (a.warned && !relayed.contains(a.id) && a.deadlineNs != null && a.deadlineNs > now) {
        emit(new SchedulerEvent.Warning(a.id, Math.ceilDiv(a.deadlineNs - now, NS_PER_SECOND)));
        n++;
      }
    }
    return n;
  }

  private static boolean isAnswer(SchedulerEvent e) {
    return e instanceof SchedulerEvent.Granted
        || e instanceof SchedulerEvent.Refused
        || e instanceof SchedulerEvent.Cancelled;
  }

  /** The state as the journal keeps it. */
  private SlurmRecovery.Saved save() {
    List<SlurmRecovery.Held> held = new ArrayList<>();
    for (HeldAllocation a : allocations.values()) {
      List<SlurmRecovery.Job> jobs = new ArrayList<>();
      a.jobs.forEach((id, nodes) -> jobs.add(new SlurmRecovery.Job(id, List.copyOf(nodes))));
      held.add(new SlurmRecovery.Held(a.id, jobs, a.deadlineNs, a.warnSeconds, a.warned));
    }
    List<SlurmRecovery.Waiting> waiting = new ArrayList<>(restoredWaiting);
    for (SallocAsk p : pending.values()) {
      if (!p.answered && !p.cancelled) {
        waiting.add(new SlurmRecovery.Waiting(p.ask, p.jobId));
      }
    }
    waiting.addAll(adopted.values());
    return new SlurmRecovery.Saved(tag, held, waiting);
  }

  /** After each step: the state journaled if it changed, then the step's events leave. */
  private void flush() {
    List<SchedulerEvent> out = List.copyOf(outbox);
    outbox.clear();
    List<SchedulerEvent> given = out.stream().filter(SlurmSchedulerPort::isAnswer).toList();
    SlurmRecovery.Saved now = save();
    if (!now.equals(lastSaved) || !given.isEmpty()) {
      persist.accept(now, given);
      lastSaved = now;
    }
    for (SchedulerEvent e : out) {
      listener.accept(e);
    }
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
                  end(p.salloc);
                  if (p.jobId != null) {
                    scancel(List.of(p.jobId));
                  }
                }
                pending.clear();
                List<String> jobs = new ArrayList<>();
                adopted.values().forEach(w -> jobs.add(w.jobId()));
                adopted.clear();
                restoredWaiting.stream()
                    .filter(w -> w.jobId() != null)
                    .forEach(w -> jobs.add(w.jobId()));
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
    SchedulerEvent again = answers.remove(ask.askId());
    if (again != null) {
      emit(again); // answered before the restart; the core had not heard
      return;
    }
    if (adopted.containsKey(ask.askId())
        || pending.containsKey(ask.askId())
        || answeredAtRecovery.remove(ask.askId())) {
      return; // its job still waits in Slurm's queue, or it was answered by the recovery
    }
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
              ask.count(),
              ask.names(),
              minutesFor(ask, a),
              ask.required(),
              config.partition,
              jobName());
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
      if (p.never) {
        refuseNever(p);
      } else if (p.cancelled) {
        scancel(List.of(p.jobId));
        end(p.salloc);
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
      if (p.jobId != null) {
        refuseNever(p);
      }
    } else if (line.contains("error") && !p.never) {
      p.lastError = line;
    }
  }

  /**
   * A request Slurm queued but can never serve is refused as soon as its job id is known, its job
   * cancelled first: the answer does not wait for salloc to notice the cancel and exit.
   */
  private void refuseNever(SallocAsk p) {
    if (p.answered || p.cancelled) {
      return;
    }
    p.answered = true;
    pending.remove(p.ask.askId(), p);
    scancel(List.of(p.jobId));
    end(p.salloc);
    emit(
        new SchedulerEvent.Refused(
            p.ask.askId(),
            PmixStatus.ERR_OUT_OF_RESOURCE,
            SlurmCli.failure("can never grant the nodes", p.lastError).reason()));
  }

  /**
   * Ends a salloc the port no longer needs: SIGTERM, and SIGKILL if it still runs after {@link
   * #SALLOC_GRACE_S} seconds, so no salloc outlives its ask whatever state Slurm left it in.
   */
  private static void end(Process salloc) {
    salloc.destroy();
    salloc
        .onExit()
        .completeOnTimeout(salloc, SALLOC_GRACE_S, TimeUnit.SECONDS)
        .thenAccept(
            s -> {
              if (s.isAlive()) {
                s.destroyForcibly();
              }
            });
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
    SlurmRecovery.Waiting w = adopted.remove(askId);
    if (w != null) {
      scancel(List.of(w.jobId()));
      emit(new SchedulerEvent.Cancelled(askId));
      return;
    }
    SallocAsk p = pending.get(askId);
    if (p == null || p.answered || p.cancelled) {
      return;
    }
    p.cancelled = true;
    if (p.jobId != null) {
      scancel(List.of(p.jobId));
    }
    end(p.salloc);
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
    if (awaitingRecovery || (allocations.isEmpty() && adopted.isEmpty())) {
      return;
    }
    List<String> ids = new ArrayList<>();
    allocations.values().forEach(a -> ids.addAll(a.jobs.keySet()));
    adopted.values().forEach(w -> ids.add(w.jobId()));
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
    for (SlurmRecovery.Waiting w : List.copyOf(adopted.values())) {
      SlurmCli.JobRow row = rows.get(w.jobId());
      if (SlurmRecovery.pending(row)) {
        continue;
      }
      adopted.remove(w.ask().askId());
      if (SlurmRecovery.holds(row)) {
        grant(w.ask(), w.jobId());
      } else {
        LOG.log(
            System.Logger.Level.INFO,
            "slurm: job "
                + w.jobId()
                + " of request "
                + w.ask().askId()
                + " ended while it waited: asked for again");
        allocate(w.ask());
      }
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
    outbox.add(e);
  }

  private void run(Runnable step) {
    try {
      thread.execute(() -> guarded(step));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed: Slurm was given everything back already
    }
  }

  /**
   * A bug in one step is logged and the port goes on: the thread must not die. The step's state is
   * journaled and its events leave after it.
   */
  private void guarded(Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "slurm scheduler port: " + e, e);
    }
    try {
      flush();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "slurm scheduler port: journaling failed: " + e, e);
    }
  }
}
