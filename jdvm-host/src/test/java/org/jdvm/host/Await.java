package org.jdvm.host;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a bound (house-style.md "Tests": no sleeps to wait for something). */
public final class Await {
  private static final long LIMIT_NS = TimeUnit.SECONDS.toNanos(20);

  private Await() {}

  /** Polls {@code condition} until it holds; fails the test after 20 s, naming {@code what}. */
  public static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + LIMIT_NS;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
