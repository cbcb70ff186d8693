package org.jdvm.scheduler;

import java.util.List;
import java.util.function.Consumer;

/**
 * The DVM's side of a workload manager (architecture.md §5): ask for nodes, give them back, lend
 * them, cancel an ask. Answers and facts (grants, refusals, warnings, reclaims) arrive as {@link
 * SchedulerEvent}s on the listener, in order, on a thread of the port's choosing; the listener only
 * hands them to the controller's queue.
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

  /** A one-line description for the log and {@code jdvm nodes}. */
  String describe();

  @Override
  void close();
}
