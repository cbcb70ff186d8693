package org.jdvm.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jdvm.core.journal.Entry;

/**
 * The DVM's side of a workload manager (architecture.md §5): ask for nodes, give them back, lend
 * them, cancel an ask. Answers and facts (grants, refusals, warnings, reclaims) arrive as {@link
 * SchedulerEvent}s on the listener, in order, on a thread of the port's choosing; the listener only
 * hands them to the controller's queue.
 *
 * <p>Each port keeps its own state: it says how it is journaled ({@link #journalTo}), takes it back
 * after a controller restart ({@link #restore}) and squares it with the recovered DVM ({@link
 * #recover}). A port with nothing to keep across a restart leaves the defaults.
 */
public interface SchedulerPort extends AutoCloseable {
  /** Starts delivering events to {@code listener}. Called once, before any other method. */
  void start(Consumer<SchedulerEvent> listener);

  /**
   * Asks for nodes, or whether a loan is accepted ({@link Ask.Kind#LEND}). Exactly one Granted,
   * Refused, Queued (then later Granted/Refused/Cancelled).
   */
  void ask(Ask ask);

  /** Withdraws a queued ask; answered by Cancelled unless it was already answered. */
  void cancel(String askId);

  /** Gives nodes of an allocation back for good. */
  void release(String allocation, List<String> nodes);

  /**
   * Lends nodes of an allocation for {@code seconds}, after a LEND ask for them was granted; a port
   * that cannot lend refuses LEND asks, and throws {@link UnsupportedOperationException} here
   * before anything changes.
   */
  void lend(String allocation, List<String> nodes, long seconds);

  /** Ends an allocation: everything it holds goes back, its claims lapse. */
  void end(String allocation);

  /**
   * From now on, journals the port's state and its answers as notes in {@code journal}, after each
   * of its steps and before the step's events leave, so that no answer is given that a restart
   * would forget (docs/journal.md "The embedded scheduler", "Slurm"). Before {@link #start}.
   */
  default void journalTo(SchedulerJournal journal) {}

  /**
   * After a controller restart, before {@link #start}: the port's state and answers among the
   * journal's notes ({@link SchedulerNotes}), if it journaled any. An ask made again gets the
   * answer it got.
   */
  default void restore(Map<String, Entry.Note> notes) {}

  /**
   * After {@link #restore} and {@link #start}, before the controller takes commands: squares the
   * port's state with the recovered DVM's and with the scheduler's, calling {@link
   * SchedulerRestart#redispatch} and then {@link SchedulerRestart#askAgain} each once, where its
   * recovery needs them. Blocks until done.
   */
  default SchedulerRestart.Summary recover(SchedulerRestart restart) {
    restart.redispatch();
    restart.askAgain();
    return SchedulerRestart.Summary.NONE;
  }

  /**
   * Whether the nodes this port grants are each held by a job of the scheduler that {@link #jobOf}
   * names (agents on such nodes are started inside their job, as Slurm's {@code srun} steps).
   */
  default boolean grantsInJobs() {
    return false;
  }

  /** The scheduler's job that holds {@code node} for this DVM, if any. Any thread. */
  default Optional<String> jobOf(String node) {
    return Optional.empty();
  }

  /** A one-line description for the log and {@code jdvm nodes}. */
  String describe();

  @Override
  void close();
}
