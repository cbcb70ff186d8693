package org.jdvm.server.controller;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jdvm.core.Command;
import org.jdvm.core.Core;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.query.CoreView;

/**
 * The one thread that owns the core (architecture.md §1). Connection readers, process reapers, the
 * scheduler port and timers only {@link #submit} commands or {@link #read} the state; the
 * controller handles them one at a time, in arrival order, at the time it takes them, executes each
 * outcome's effects in order, and fires a {@link Report.Tick} when the core's deadline comes. No
 * lock guards the core because no other thread touches it.
 */
public final class Controller implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.controller");

  private sealed interface Task {}

  private record Handle(Command command, CompletableFuture<Outcome> done) implements Task {}

  private record Read<T>(Function<CoreView, T> query, CompletableFuture<T> done) implements Task {
    void run(CoreView view) {
      try {
        done.complete(query.apply(view));
      } catch (RuntimeException e) {
        done.completeExceptionally(e);
      }
    }
  }

  private record Stop() implements Task {}

  private final Core core;
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
   * @param onFatal called once if the core reports a broken invariant; the DVM should stop
   */
  public Controller(
      Core core, LongSupplier clockNs, EffectSink effects, Consumer<Throwable> onFatal) {
    this.core = core;
    this.clockNs = clockNs;
    this.effects = effects;
    this.onFatal = onFatal;
    this.thread = new Thread(this::loop, "jdvm-controller");
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
    while (true) {
      Task task;
      try {
        task = next();
      } catch (InterruptedException e) {
        break;
      }
      switch (task) {
        case Stop s -> {
          dead = true;
          drainAfterStop();
          return;
        }
        case Handle h -> handle(h.command(), h.done());
        case Read<?> r -> r.run(core.view());
      }
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

  private void handle(Command command, CompletableFuture<Outcome> done) {
    long start = clockNs.getAsLong();
    Outcome outcome;
    try {
      outcome = core.handle(command, start);
    } catch (IllegalArgumentException e) {
      // Malformed input at the boundary: the submitter's bug, not the core's. Nothing changed.
      CommandLog.failed(command, e);
      done.completeExceptionally(e);
      return;
    } catch (RuntimeException e) {
      CommandLog.failed(command, e);
      done.completeExceptionally(e);
      fatal(e);
      return;
    }
    deadlineNs = outcome.nextDeadlineNs();
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
    done.complete(outcome);
  }

  private void fatal(Throwable e) {
    stopped = true;
    try {
      onFatal.accept(e);
    } catch (RuntimeException ignored) {
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
