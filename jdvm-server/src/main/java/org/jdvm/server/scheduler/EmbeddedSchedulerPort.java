package org.jdvm.server.scheduler;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The embedded scheduler behind the port: the {@link EmbeddedScheduler} state machine, its clock,
 * and one timer thread that fires at its next deadline. All calls are serialized on that thread, so
 * events leave in the order the state machine produced them.
 */
public final class EmbeddedSchedulerPort implements SchedulerPort {
  private final EmbeddedScheduler scheduler;
  private final LongSupplier clockNs;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "jdvm-scheduler");
            t.setDaemon(true);
            return t;
          });
  private Consumer<SchedulerEvent> listener;
  private ScheduledFuture<?> timer;

  /**
   * @param spareNodes the pool the scheduler grants from
   * @param clockNs the DVM's monotonic clock (the controller's, so deadlines agree)
   */
  public EmbeddedSchedulerPort(List<NodeGrant> spareNodes, LongSupplier clockNs) {
    this.scheduler = new EmbeddedScheduler(spareNodes);
    this.clockNs = clockNs;
  }

  @Override
  public void start(Consumer<SchedulerEvent> listener) {
    this.listener = listener;
  }

  @Override
  public void ask(Ask ask) {
    run(() -> scheduler.ask(ask, clockNs.getAsLong()));
  }

  @Override
  public void cancel(String askId) {
    run(() -> scheduler.cancel(askId, clockNs.getAsLong()));
  }

  @Override
  public void release(String allocation, List<String> nodes) {
    run(() -> scheduler.release(allocation, nodes, clockNs.getAsLong()));
  }

  @Override
  public void lend(String allocation, List<String> nodes, long seconds) {
    run(() -> scheduler.lend(allocation, nodes, seconds, clockNs.getAsLong()));
  }

  @Override
  public void end(String allocation) {
    run(() -> scheduler.end(allocation, clockNs.getAsLong()));
  }

  @Override
  public String describe() {
    return "embedded scheduler with " + scheduler.pool().size() + " spare nodes";
  }

  /** The pool, for listings. */
  public List<NodeGrant> pool() {
    return scheduler.pool();
  }

  private void run(java.util.function.Supplier<List<SchedulerEvent>> step) {
    thread.execute(
        () -> {
          for (SchedulerEvent e : step.get()) {
            listener.accept(e);
          }
          rearm();
        });
  }

  private void rearm() {
    if (timer != null) {
      timer.cancel(false);
    }
    long next = scheduler.nextDeadlineNs();
    if (next != Long.MAX_VALUE) {
      long delay = Math.max(0, next - clockNs.getAsLong());
      timer =
          thread.schedule(
              () -> run(() -> scheduler.tick(clockNs.getAsLong())), delay, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
