package org.jdvm.endpoint.wireup;

/**
 * Runs a task after a delay, for the wire-up's time limits (a fence's {@code pmix.timeout}, a get
 * waiting for a commit). The endpoint passes its timer thread; tests pass a manual one.
 */
@FunctionalInterface
public interface Timer {
  /**
   * Runs {@code task} once after {@code delayMs}, on the timer's thread.
   *
   * @return cancels the task if it has not run yet; harmless afterwards
   */
  Runnable after(long delayMs, Runnable task);
}
