package org.jdvm.endpoint.serve;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code pmix.timeout} of requests that wait (a lookup, a connect): the endpoint's timer runs
 * the wait's end, and an answer that comes first cancels it, so a finished wait holds no timer.
 */
final class Timeouts {
  /** One wait's timer, armed after the wait began and disarmed by its answer, in either order. */
  static final class Slot {
    private ScheduledFuture<?> armed;
    private boolean answered;

    /** The answer came: the timer, armed or still to be, will not run. */
    synchronized void answered() {
      answered = true;
      if (armed != null) {
        armed.cancel(false);
      }
    }

    private synchronized void arm(ScheduledFuture<?> f) {
      if (answered) {
        f.cancel(false);
      } else {
        armed = f;
      }
    }
  }

  private final ScheduledExecutorService timer;

  Timeouts(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** After {@code seconds} (none when not positive), {@code expire} runs unless answered first. */
  void arm(Slot slot, int seconds, Runnable expire) {
    if (seconds > 0) {
      slot.arm(timer.schedule(expire, seconds, TimeUnit.SECONDS));
    }
  }
}
