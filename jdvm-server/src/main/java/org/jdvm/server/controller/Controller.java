package org.jdvm.server.controller;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jdvm.core.Command;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.CoreView;

/**
 * The one thread that owns the core (architecture.md §1). Connection readers, process reapers, the
 * scheduler port and timers only {@link #submit} commands or {@link #read} the state; the
 * controller handles them one at a time, in arrival order, at the time it takes them, executes each
 * outcome's effects in order, and fires a {@link Report.Tick} when the core's deadline comes. No
 * lock guards the core because no other thread touches it.
 *
 * <p>What a failure means is decided by one table, {@link Failure}: a command the core failed on
 * before changing anything is refused (a request gets a reply with the row's status) and the DVM
 * goes on; a failure after changes were applied, or of the JVM, stops the DVM: the thread logs it,
 * fails every waiter, ends, and calls {@code onFatal}. The thread never dies silently.
 */
public final class Controller implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.controller");

  private sealed interface Task {}

  private record Handle(Command command, CompletableFuture<Outcome> done) implements Task {}

  private record Read<T>(Function<CoreView, T> query, CompletableFuture<T> done) implements Task {
    /** Runs the query; a {@link RuntimeException} fails the query alone, an Error is thrown. */
    void run(CoreView view) {
      try {
        done.complete(query.apply(view));
      } catch (RuntimeException e) {
        done.completeExceptionally(e);
      } catch (Error e) {
        done.completeExceptionally(e);
        throw e;
      }
    }
  }

  /** What the controller drives: the core, or in tests a stand-in that fails on demand. */
  interface Engine {
    Outcome handle(Command command, long nowNs);

    CoreView view();
  }

  private record Stop() implements Task {}

  /**
   * Where each outcome is written before its effects run, and told when they ran (docs/journal.md).
   * A failure to write stops the DVM: effects that could not be recovered must not happen.
   */
  public interface Journal {
    Journal NONE =
        new Journal() {
          @Override
          public void record(Command command, Outcome outcome, long nowNs) {}

          @Override
          public void dispatched() {}
        };

    /**
     * Whether the core may see {@code command} now. A command it may not see is a request the
     * journal might not be able to write (docs/journal.md "A full disk"): it is refused {@code
     * PMIX_ERR_OUT_OF_RESOURCE} before anything changes, since the core has no undo.
     */
    default boolean admits(Command command) {
      return true;
    }

    /** Before the outcome's effects: write it. */
    void record(Command command, Outcome outcome, long nowNs);

    /**
     * Before the effects of everything recorded since the last commit run: make it as durable as
     * the policy says. One commit may cover several queued commands (group commit).
     */
    default void commit() {}

    /** Whether the controller should record the commands waiting in its queue before a commit. */
    default boolean groupsCommits() {
      return false;
    }

    /** After the effects of everything committed were dispatched. */
    void dispatched();
  }

  /** A command decided and journaled whose effects wait for the group's commit. */
  private record Decided(
      Command command, Outcome outcome, long startNs, CompletableFuture<Outcome> done) {}

  /** At most this many commands share one commit. */
  private static final int MAX_GROUP = 64;

  private final java.util.ArrayList<Decided> group = new java.util.ArrayList<>();

  private volatile Journal journal = Journal.NONE;

  private final Engine core;
  private final LongSupplier clockNs;
  private final EffectSink effects;
  private final Consumer<Throwable> onFatal;
  private volatile Consumer<Outcome> observer = o -> {};
  private final LinkedBlockingQueue<Task> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean stopped;
  private volatile boolean dead;
  private long deadlineNs = Outcome.NO_DEADLINE;

  /**
   * @param clockNs the DVM's monotonic clock; the same one the scheduler port uses
   * @param effects executes each outcome's effects on the controller thread (must not block)
   * @param onFatal called once, from the controller thread as it ends, when a failure stops the DVM
   *     ({@link Failure}); it should close the DVM
   */
  public Controller(
      Core core, LongSupplier clockNs, EffectSink effects, Consumer<Throwable> onFatal) {
    this(
        new Engine() {
          @Override
          public Outcome handle(Command command, long nowNs) {
            return core.handle(command, nowNs);
          }

          @Override
          public CoreView view() {
            return core.view();
          }
        },
        clockNs,
        effects,
        onFatal);
  }

  Controller(Engine core, LongSupplier clockNs, EffectSink effects, Consumer<Throwable> onFatal) {
    this.core = core;
    this.clockNs = clockNs;
    this.effects = effects;
    this.onFatal = onFatal;
    this.thread = new Thread(this::loop, "jdvm-controller");
  }

  /** Journals every outcome from now on; set before {@link #start}. */
  public void journal(Journal journal) {
    this.journal = journal;
  }

  public void start() {
    thread.start();
  }

  /**
   * Sets who hears of every outcome that changed the state (the operator feed), on the controller
   * thread after its effects were dispatched. The observer must not block.
   */
  public void observe(Consumer<Outcome> observer) {
    this.observer = observer;
  }

  /** How many commands and reads wait in the queue now, for tests and the bench. */
  public int queued() {
    return queue.size();
  }

  /** Queues a command; the future completes with its outcome once its effects were dispatched. */
  public CompletableFuture<Outcome> submit(Command command) {
    CompletableFuture<Outcome> done = new CompletableFuture<>();
    if (stopped) {
      done.completeExceptionally(new IllegalStateException("the DVM has stopped"));
    } else {
      enqueue(new Handle(command, done));
    }
    return done;
  }

  /**
   * Runs a read-only query on the controller thread, between commands, and completes with its
   * result. The query sees live views: it must copy whatever it returns.
   */
  public <T> CompletableFuture<T> read(Function<CoreView, T> query) {
    CompletableFuture<T> done = new CompletableFuture<>();
    if (stopped) {
      done.completeExceptionally(new IllegalStateException("the DVM has stopped"));
    } else {
      enqueue(new Read<>(query, done));
    }
    return done;
  }

  private void enqueue(Task task) {
    queue.add(task);
    if (dead) {
      // The thread ended between our check and the add: nobody else will answer this task.
      drainAfterStop();
    }
  }

  private void loop() {
    try {
      while (true) {
        Task task = next();
        boolean goOn =
            switch (task) {
              case Stop s -> {
                flushGroup();
                yield false;
              }
              case Handle h -> handle(h.command(), h.done());
              case Read<?> r -> {
                if (flushGroup()) {
                  r.run(core.view());
                  yield true;
                }
                r.done().completeExceptionally(new IllegalStateException("DVM stopped"));
                yield false;
              }
            };
        if (!goOn) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      // Outside any one command (a read, the queue itself): still never a silent death.
      stop(Failure.of(t), null, t);
    } finally {
      stopped = true;
      for (Decided d : group) {
        d.done().completeExceptionally(new IllegalStateException("DVM stopped"));
      }
      group.clear();
      dead = true;
      drainAfterStop();
    }
  }

  /** The next task, or a tick if the core's deadline comes first. */
  private Task next() throws InterruptedException {
    while (true) {
      if (deadlineNs == Outcome.NO_DEADLINE) {
        return queue.take();
      }
      long wait = deadlineNs - clockNs.getAsLong();
      Task t = wait <= 0 ? queue.poll() : queue.poll(wait, TimeUnit.NANOSECONDS);
      if (t != null) {
        return t;
      }
      if (deadlineNs - clockNs.getAsLong() <= 0) {
        return new Handle(new Report.Tick(), new CompletableFuture<>());
      }
    }
  }

  /** Handles one command; returns false if a failure stopped the DVM. */
  private boolean handle(Command command, CompletableFuture<Outcome> done) {
    try {
      return handleNow(command, done);
    } catch (Error e) {
      // From the effects, the log or the observer: the waiter learns of it before the stop.
      done.completeExceptionally(e);
      throw e;
    }
  }

  private boolean handleNow(Command command, CompletableFuture<Outcome> done) {
    long start = clockNs.getAsLong();
    if (command instanceof Request r && !journal.admits(command)) {
      // What was decided before goes out first, in order.
      if (!flushGroup()) {
        done.completeExceptionally(new IllegalStateException("DVM stopped"));
        return false;
      }
      Effect.Reply reply = new Effect.Reply(r.requestId(), Failure.NO_SPACE.status(), List.of());
      reply(command, new Outcome(List.of(), List.of(reply), Failure.NO_SPACE, deadlineNs), done);
      CommandLog.handled(command, done.join(), clockNs.getAsLong() - start);
      return true;
    }
    Outcome outcome;
    try {
      outcome = core.handle(command, start);
    } catch (Throwable t) {
      // What was decided before this command goes out first, in order.
      boolean flushed = flushGroup();
      Failure kind = Failure.of(t);
      if (kind.verdict() == Failure.Verdict.STOP || !flushed) {
        done.completeExceptionally(t);
        if (flushed) {
          stop(kind, command, t);
        }
        return false;
      }
      refuse(kind, command, done, t);
      return true;
    }
    deadlineNs = outcome.nextDeadlineNs();
    try {
      journal.record(command, outcome, start);
    } catch (RuntimeException e) {
      done.completeExceptionally(e);
      if (flushGroup()) {
        stop(Failure.of(e), command, e);
      }
      return false;
    }
    group.add(new Decided(command, outcome, start, done));
    if (journal.groupsCommits() && group.size() < MAX_GROUP && queue.peek() instanceof Handle) {
      return true; // the next command shares this one's commit
    }
    return flushGroup();
  }

  /**
   * Commits the journal for every command decided since the last commit, then dispatches their
   * effects in order. Returns false if the commit failed, which stops the DVM: effects that could
   * not be recovered must not happen.
   */
  private boolean flushGroup() {
    if (group.isEmpty()) {
      return true;
    }
    try {
      journal.commit();
    } catch (RuntimeException e) {
      for (Decided d : group) {
        d.done().completeExceptionally(e);
      }
      Command first = group.get(0).command();
      group.clear();
      stop(Failure.of(e), first, e);
      return false;
    }
    for (Decided d : group) {
      dispatch(d.command(), d.outcome(), d.startNs());
    }
    try {
      journal.dispatched();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "the journal after a dispatch failed", e);
    }
    for (Decided d : group) {
      d.done().complete(d.outcome());
    }
    group.clear();
    return true;
  }

  private void dispatch(Command command, Outcome outcome, long start) {
    try {
      effects.execute(outcome.effects());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "effects of " + command + " failed", e);
    }
    CommandLog.handled(command, outcome, clockNs.getAsLong() - start);
    if (!outcome.changes().isEmpty()) {
      try {
        observer.accept(outcome);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "an outcome observer failed", e);
      }
    }
  }

  /**
   * Refuses a command the core failed on before changing anything: a request is answered with the
   * row's status like any refusal (so its future completes with that outcome); a report has nobody
   * to answer, and its future fails.
   */
  private void refuse(Failure kind, Command command, CompletableFuture<Outcome> done, Throwable t) {
    CommandLog.failed(command, kind, t);
    if (!(command instanceof Request r)) {
      done.completeExceptionally(t);
      return;
    }
    Effect.Reply reply = new Effect.Reply(r.requestId(), kind.status(), List.of());
    reply(command, new Outcome(List.of(), List.of(reply), kind, deadlineNs), done);
  }

  /** Sends a refusal that changed nothing and completes its future with it. */
  private void reply(Command command, Outcome refused, CompletableFuture<Outcome> done) {
    try {
      effects.execute(refused.effects());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "the refusal of " + command + " failed", e);
    }
    done.complete(refused);
  }

  /**
   * Stops the DVM for a failure the table says stops it: visibly (one ERROR line with the failure
   * and its stack), once; nothing more is handled, every waiter is told, and {@code onFatal} closes
   * the DVM. Runs on the controller thread, which ends right after.
   */
  private void stop(Failure kind, Command command, Throwable t) {
    stopped = true;
    try {
      if (command != null) {
        CommandLog.failed(command, kind, t);
      }
      LOG.log(System.Logger.Level.ERROR, "failure=" + kind + ": the DVM stops", t);
    } catch (Throwable logging) {
      // Out of memory even for the log line: the stop itself matters more.
    }
    try {
      onFatal.accept(t);
    } catch (Throwable ignored) {
      // Already failing; the original error is what matters.
    }
  }

  /** After a stop, nothing more is handled; whoever waits learns so. */
  private void drainAfterStop() {
    Task t;
    while ((t = queue.poll()) != null) {
      switch (t) {
        case Handle h -> h.done().completeExceptionally(new IllegalStateException("DVM stopped"));
        case Read<?> r -> r.done().completeExceptionally(new IllegalStateException("DVM stopped"));
        case Stop s -> {}
      }
    }
  }

  /** Handles {@link Report.Teardown}, then stops the thread. Returns the teardown's outcome. */
  public Outcome teardown(long timeoutMillis) {
    CompletableFuture<Outcome> done = submit(new Report.Teardown());
    Outcome o;
    try {
      o = done.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      o = null;
    }
    close();
    return o;
  }

  @Override
  public void close() {
    stopped = true;
    queue.add(new Stop());
    if (Thread.currentThread() != thread) {
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
