package org.jdvm.scheduler.slurm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jdvm.core.journal.Entry;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerJournal;
import org.jdvm.scheduler.SchedulerNotes;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.scheduler.SchedulerRestart;

/**
 * {@code --scheduler slurm}: the scheduler port over a real Slurm (architecture.md §5). What to do
 * is {@link SlurmScheduler}'s to decide; this is its shell: one thread that feeds it each input
 * with the time, runs the commands it asks for ({@code salloc --no-shell} as a child read line by
 * line, so the thread never waits for Slurm's queue; {@code scancel}, {@code scontrol}, {@code
 * squeue} with a bound), journals its state after each step and only then lets the step's events
 * leave, arms a timer for its next deadline, and polls Slurm every {@code pollMs} for jobs ended or
 * changed from outside.
 *
 * <p>All state lives on one thread; commands are argv lists of validated names ({@link
 * SlurmNames}), never shell text.
 */
public final class SlurmSchedulerPort implements SchedulerPort {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.scheduler");

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

  /** What a restart's recovery did, for its log line. */
  public record Recovered(int adopted, int reclaimed, int waiting, int cancelled, int resent) {}

  private final SlurmCommands commands;
  private final Config config;
  private final LongSupplier clockNs;
  private final LongSupplier wallMs;
  private final SlurmScheduler slurm;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "jdvm-slurm");
            t.setDaemon(true);
            return t;
          });
  private final Map<SallocAsk, SallocProcess> sallocs = new IdentityHashMap<>();

  /** Events of the current step: they leave once its state is journaled. */
  private final List<SchedulerEvent> outbox = new ArrayList<>();

  private Consumer<SchedulerEvent> listener;
  private ScheduledFuture<?> timer;
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
    this.slurm = new SlurmScheduler(config.partition(), newTag());
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
    return slurm.jobName();
  }

  // ---- journal and recovery --------------------------------------------------------------------

  /** The notes that journal one step of the port: its state and its answers. */
  public static List<Entry.Note> notes(SlurmRecovery.Saved saved, List<SchedulerEvent> answers) {
    return SchedulerNotes.step(
        SchedulerNotes.SLURM_SCHEDULER, SlurmRecovery.Saved.class, saved, answers);
  }

  /** The DVM's stop closes the journal before the port gives its jobs back: nothing to keep. */
  @Override
  public void journalTo(SchedulerJournal journal) {
    persistWith(
        (saved, answers) -> {
          if (!journal.isClosed()) {
            journal.notes(notes(saved, answers));
          }
        });
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

  @Override
  public void restore(Map<String, Entry.Note> notes) {
    SlurmRecovery.Saved saved =
        SchedulerNotes.saved(notes, SchedulerNotes.SLURM_SCHEDULER, SlurmRecovery.Saved.class);
    if (saved != null) {
      restore(saved, SchedulerNotes.answers(notes));
    }
  }

  /**
   * After a controller restart, before {@link #start}: the state its predecessor journaled, and the
   * answers it gave that the core had not yet closed (given again when asked again). Nothing is
   * trusted until {@link #recover} has asked Slurm.
   */
  public void restore(SlurmRecovery.Saved saved, List<SchedulerEvent> given) {
    slurm.restore(saved, given);
    lastSaved = saved;
  }

  /**
   * Before anything is asked again, each journaled Slurm job is re-adopted, reclaimed or cancelled
   * by what Slurm says of it now ({@link #recover(Set, Map, Set)}); then the effects and asks go
   * out again.
   */
  @Override
  public SchedulerRestart.Summary recover(SchedulerRestart restart) {
    // A terminating allocation already gave its nodes back (the port's end or release).
    Recovered r = recover(restart.waitingAsks(), restart.holds(true), restart.relayedWarnings());
    restart.redispatch();
    restart.askAgain();
    return new SchedulerRestart.Summary(
        r.resent(),
        "recovered=slurm jobs_readopted="
            + r.adopted()
            + " reclaimed="
            + r.reclaimed()
            + " asks_still_queued="
            + r.waiting()
            + " jobs_cancelled="
            + r.cancelled());
  }

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
          .submit(() -> onRecover(stillWaiting, coreHolds, relayed))
          .get(config.commandTimeoutMs * 3 + 5000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.log(System.Logger.Level.ERROR, "slurm: recovering the Slurm jobs failed: " + e);
      return new Recovered(0, 0, 0, 0, 0);
    }
  }

  private Recovered onRecover(
      Set<String> stillWaiting, Map<String, List<String>> coreHolds, Set<String> relayed) {
    try {
      SlurmCommands.Result squeue = runQuietly(SlurmCli.squeueNamed(slurm.jobName()));
      SlurmRecovering.Result r;
      try {
        r = slurm.recover(squeue, stillWaiting, coreHolds, relayed, now());
      } catch (SlurmScheduler.StepFailed e) {
        perform(e.done);
        throw e;
      }
      perform(r.effects());
      return r.counts();
    } finally {
      rearm();
      flush();
    }
  }

  // ---- the port --------------------------------------------------------------------------------

  @Override
  public void start(Consumer<SchedulerEvent> listener) {
    this.listener = listener;
    run(List::of); // the tag is journaled before any salloc can run
    thread.scheduleWithFixedDelay(
        () -> guarded(this::poll), config.pollMs, config.pollMs, TimeUnit.MILLISECONDS);
  }

  @Override
  public boolean grantsInJobs() {
    return true;
  }

  /** The Slurm job holding {@code node} for this DVM, if any (for starting agents with srun). */
  @Override
  public Optional<String> jobOf(String node) {
    return slurm.jobOf(node);
  }

  @Override
  public void ask(Ask ask) {
    run(() -> slurm.ask(ask, now()));
  }

  @Override
  public void cancel(String askId) {
    run(() -> slurm.cancel(askId));
  }

  @Override
  public void release(String allocation, List<String> nodes) {
    List<String> copy = List.copyOf(nodes);
    run(() -> slurm.release(allocation, copy));
  }

  @Override
  public void lend(String allocation, List<String> nodes, long seconds) {
    throw new UnsupportedOperationException("Slurm takes no loans");
  }

  @Override
  public void end(String allocation) {
    run(() -> slurm.end(allocation));
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
          .submit(() -> perform(slurm.close()))
          .get(config.commandTimeoutMs + 5000, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "slurm: giving jobs back at close failed: " + e);
    }
    thread.shutdownNow();
  }

  // ---- carrying out ----------------------------------------------------------------------------

  /** Carries out a step's effects in order; a query's continuation where the query stands. */
  private void perform(List<SlurmEffect> effects) {
    for (SlurmEffect e : effects) {
      switch (e) {
        case SlurmEffect.Emit x -> outbox.add(x.event());
        case SlurmEffect.Run x -> {
          SlurmCommands.Result r = runQuietly(x.argv());
          if (r.exit() != 0) {
            LOG.log(
                System.Logger.Level.WARNING, SlurmCli.failure(x.failure(), r.lastLine()).reason());
          }
        }
        case SlurmEffect.Query q -> perform(slurm.answer(q, runQuietly(q.argv()), now()));
        case SlurmEffect.StartSalloc s -> startSalloc(s.salloc(), s.argv());
        case SlurmEffect.EndSalloc x -> {
          SallocProcess p = sallocs.get(x.salloc());
          if (p != null) {
            p.end();
          }
        }
        case SlurmEffect.Log x -> LOG.log(x.level(), x.message());
      }
    }
  }

  private void startSalloc(SallocAsk p, List<String> argv) {
    SallocProcess salloc;
    try {
      salloc = SallocProcess.start(commands, argv);
    } catch (IOException e) {
      perform(slurm.sallocNotStarted(p, e.getMessage()));
      return;
    }
    sallocs.put(p, salloc);
    salloc.read(
        p.ask.askId(),
        line -> run(() -> slurm.sallocLine(p, line)),
        exit ->
            run(
                () -> {
                  sallocs.remove(p);
                  return slurm.sallocExit(p, exit);
                }));
  }

  private void poll() {
    List<String> ids = slurm.pollJobs();
    if (ids != null) {
      perform(slurm.polled(runQuietly(SlurmCli.squeue(ids)), now()));
    }
  }

  private void tick() {
    perform(slurm.tick(now()));
  }

  private void rearm() {
    if (timer != null) {
      timer.cancel(false);
    }
    long next = slurm.nextDeadlineNs();
    if (next != Long.MAX_VALUE) {
      long delay = Math.max(0, next - clockNs.getAsLong());
      timer = thread.schedule(() -> guarded(this::tick), delay, TimeUnit.NANOSECONDS);
    }
  }

  /** After each step: the state journaled if it changed, then the step's events leave. */
  private void flush() {
    List<SchedulerEvent> out = List.copyOf(outbox);
    outbox.clear();
    List<SchedulerEvent> given = out.stream().filter(SlurmSchedulerPort::isAnswer).toList();
    SlurmRecovery.Saved now = slurm.save();
    if (!now.equals(lastSaved) || !given.isEmpty()) {
      persist.accept(now, given);
      lastSaved = now;
    }
    for (SchedulerEvent e : out) {
      listener.accept(e);
    }
  }

  private static boolean isAnswer(SchedulerEvent e) {
    return e instanceof SchedulerEvent.Granted
        || e instanceof SchedulerEvent.Refused
        || e instanceof SchedulerEvent.Cancelled;
  }

  private SlurmScheduler.Time now() {
    return new SlurmScheduler.Time(clockNs.getAsLong(), wallMs.getAsLong());
  }

  private SlurmCommands.Result runQuietly(List<String> argv) {
    try {
      return commands.run(argv, config.commandTimeoutMs);
    } catch (IOException e) {
      return new SlurmCommands.Result(
          -1, "", "cannot run " + argv.getFirst() + ": " + e.getMessage());
    }
  }

  private void run(Supplier<List<SlurmEffect>> step) {
    try {
      thread.execute(() -> guarded(() -> perform(step.get())));
    } catch (RejectedExecutionException e) {
      // closed: Slurm was given everything back already
    }
  }

  /**
   * A bug in one step is logged and the port goes on: the thread must not die. What the step did
   * before it is carried out; the step's state is journaled and its events leave after it.
   */
  private void guarded(Runnable step) {
    try {
      step.run();
    } catch (SlurmScheduler.StepFailed e) {
      LOG.log(System.Logger.Level.ERROR, "slurm scheduler port: " + e.getCause(), e.getCause());
      guarded(() -> perform(e.done));
      return;
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "slurm scheduler port: " + e, e);
    }
    rearm();
    try {
      flush();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "slurm scheduler port: journaling failed: " + e, e);
    }
  }
}
