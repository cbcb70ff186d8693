package org.jdvm.endpoint.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection's unwritten output and the producers paused for it (docs/ARCHITECTURE.md "Output
 * back-pressure"): past {@link Connection#OUTPUT_HIGH_WATER} a producer asking {@link #hold} is
 * told to stop, and is resumed once, when the writer has brought the count under {@link
 * Connection#OUTPUT_LOW_WATER} or the connection closes.
 */
final class OutputPace {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final AtomicLong bytes = new AtomicLong();
  private final List<Runnable> waiters = new ArrayList<>();
  private volatile boolean anyWaiter;
  private boolean closed;

  long queued() {
    return bytes.get();
  }

  /** {@code n} bytes more are queued; the count now. */
  long added(long n) {
    return bytes.addAndGet(n);
  }

  /** {@code n} output bytes were written (or dropped): resumes the paused once under the mark. */
  void gone(long n) {
    long left = bytes.addAndGet(-n);
    if (anyWaiter && left < Connection.OUTPUT_LOW_WATER) {
      resume(false);
    }
  }

  /** Whether to pause; if so {@code resume} runs once, later. */
  boolean hold(Runnable resume) {
    if (bytes.get() <= Connection.OUTPUT_HIGH_WATER) {
      return false;
    }
    synchronized (waiters) {
      if (closed || bytes.get() < Connection.OUTPUT_LOW_WATER) {
        return false;
      }
      waiters.add(resume);
      anyWaiter = true;
      return true;
    }
  }

  /** The connection closed: nothing more is written here, whoever paused for it goes on. */
  void close() {
    resume(true);
  }

  private void resume(boolean closing) {
    List<Runnable> due;
    synchronized (waiters) {
      closed |= closing;
      if (!closed && bytes.get() >= Connection.OUTPUT_LOW_WATER) {
        return;
      }
      due = List.copyOf(waiters);
      waiters.clear();
      anyWaiter = false;
    }
    for (Runnable r : due) {
      try {
        r.run();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "resuming output failed", e);
      }
    }
  }
}
