package org.jdvm.endpoint.wireup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A {@link Timer} the test advances by hand: tasks run in due order when their time is reached. */
final class ManualTimer implements Timer {
  private record Task(long dueMs, long seq, Runnable run, boolean[] cancelled) {}

  private final List<Task> tasks = new ArrayList<>();
  private long nowMs;
  private long seq;

  @Override
  public synchronized Runnable after(long delayMs, Runnable task) {
    boolean[] cancelled = {false};
    tasks.add(new Task(nowMs + delayMs, seq++, task, cancelled));
    return () -> cancelled[0] = true;
  }

  /** Moves time on by {@code ms}, running every task that falls due, in order. */
  void advance(long ms) {
    long until;
    synchronized (this) {
      until = nowMs + ms;
    }
    while (true) {
      Task next;
      synchronized (this) {
        next =
            tasks.stream()
                .filter(t -> t.dueMs() <= until)
                .min(Comparator.comparingLong(Task::dueMs).thenComparingLong(Task::seq))
                .orElse(null);
        if (next == null) {
          nowMs = until;
          return;
        }
        tasks.remove(next);
        nowMs = next.dueMs();
      }
      if (!next.cancelled()[0]) {
        next.run().run();
      }
    }
  }

  /** Tasks scheduled and neither run nor cancelled. */
  synchronized long pending() {
    return tasks.stream().filter(t -> !t.cancelled()[0]).count();
  }
}
