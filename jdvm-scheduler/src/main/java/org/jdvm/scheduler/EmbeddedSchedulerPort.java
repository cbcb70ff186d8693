package org.jdvm.scheduler;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jdvm.core.journal.Entry;

/**
 * The embedded scheduler behind the port: the {@link EmbeddedScheduler} state machine, its clock,
 * and one timer thread that fires at its next deadline. All calls are serialized on that thread, so
 * events leave in the order the state machine produced them.
 *
 * <p>Its state and answers are journaled after each step ({@link #journalTo}), restored at a
 * restart ({@link #restore}) and squared with the recovered DVM ({@link #recover}): docs/journal.md
 * "The embedded scheduler".
 */
public final class EmbeddedSchedulerPort implements SchedulerPort {
  /** Replaced only by {@link #restore}, before {@link #start}. */
  private EmbeddedScheduler scheduler;

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
  private volatile Persist persist = (s, a, f) -> {};

  /** Saves one step of the scheduler (docs/journal.md "The embedded scheduler"). */
  public interface Persist {
    /**
     * @param eventsFollow whether the step's events go to the controller right after, which
     *     journals what it does with them: the save may then ride with the controller's next write
     *     instead of a write of its own
     */
    void save(EmbeddedScheduler.Saved saved, List<SchedulerEvent> answers, boolean eventsFollow);
  }

  /**
   * @param spareNodes the pool the scheduler grants from
   * @param clockNs the DVM's monotonic clock (the controller's, so deadlines agree)
   */
  public EmbeddedSchedulerPort(List<NodeGrant> spareNodes, LongSupplier clockNs) {
    this(new EmbeddedScheduler(spareNodes), clockNs);
  }

  /** A port in front of a scheduler restored after a restart (docs/journal.md). */
  public EmbeddedSchedulerPort(EmbeddedScheduler scheduler, LongSupplier clockNs) {
    this.scheduler = scheduler;
    this.clockNs = clockNs;
  }

  /** The notes that journal one step of the embedded scheduler: its state and its answers. */
  public static List<Entry.Note> notes(
      EmbeddedScheduler.Saved saved, List<SchedulerEvent> answers) {
    return SchedulerNotes.step(
        SchedulerNotes.EMBEDDED_SCHEDULER, EmbeddedScheduler.Saved.class, saved, answers);
  }

  /**
   * A step whose events go to the controller right after rides with the journal's next write (the
   * controller journals what it does with them); any other is written at once.
   */
  @Override
  public void journalTo(SchedulerJournal journal) {
    persistWith(
        (saved, answers, eventsFollow) -> {
          if (eventsFollow) {
            journal.notesWithNextWrite(notes(saved, answers));
          } else {
            journal.notes(notes(saved, answers));
          }
        });
  }

  /** The scheduler as the journal left it, if it did: its pool, allocations, queue and answers. */
  @Override
  public void restore(Map<String, Entry.Note> notes) {
    EmbeddedScheduler.Saved saved =
        SchedulerNotes.saved(
            notes, SchedulerNotes.EMBEDDED_SCHEDULER, EmbeddedScheduler.Saved.class);
    if (saved != null) {
      scheduler = EmbeddedScheduler.restore(saved, SchedulerNotes.answers(notes));
    }
  }

  /**
   * After the journal's effects went out again, a release whose scheduler step the crash lost
   * (though the journal had marked it done) is reconciled, before the waiting asks are made again;
   * then a warning that went out and that the core never relayed is sent again, and the timer
   * armed.
   */
  @Override
  public SchedulerRestart.Summary recover(SchedulerRestart restart) {
    restart.redispatch();
    reconcile(restart.holds(false), restart.waitingAsks());
    restart.askAgain();
    Set<String> relayed = new HashSet<>(restart.relayedWarnings());
    int warnings = 0;
    for (String alloc : warned()) {
      if (!relayed.contains(alloc)) {
        redeliverWarning(alloc);
        warnings++;
      }
    }
    resume();
    return new SchedulerRestart.Summary(warnings, null);
  }

  /**
   * Saves the scheduler's state and the step's answers after each step, before its events leave (so
   * no answer is given that a restart would forget). Set before {@link #start}.
   */
  public void persistWith(Persist persist) {
    this.persist = persist;
  }

  /**
   * After a restart: sends again the timeout warning of {@code allocation} if one went out, for a
   * warning the DVM had not yet relayed when it stopped.
   */
  public void redeliverWarning(String allocation) {
    run(
        () -> {
          SchedulerEvent.Warning w = scheduler.warningOf(allocation, clockNs.getAsLong());
          return w == null ? List.of() : List.of(w);
        });
  }

  /** Allocations whose timeout warning went out. Call before {@link #start}. */
  public List<String> warned() {
    return scheduler.warned();
  }

  /**
   * After a restart, before any ask is made again: gives back what the restored state holds that
   * the recovered DVM does not ({@link EmbeddedScheduler#reconcile}).
   */
  public void reconcile(
      java.util.Map<String, ? extends java.util.Collection<String>> held,
      java.util.Set<String> pendingAsks) {
    run(() -> scheduler.reconcile(held, pendingAsks, clockNs.getAsLong()));
  }

  /** Arms the timer for what the restored state has due; call once after a restart. */
  public void resume() {
    run(List::of);
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
          List<SchedulerEvent> events = step.get();
          scheduler.remember(events);
          persist.save(scheduler.save(), EmbeddedScheduler.answersAmong(events), !events.isEmpty());
          for (SchedulerEvent e : events) {
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
