package org.jdvm.core.state;

/**
 * Assertions that stay on. A broken invariant is a bug in the core: it fails loudly at once rather
 * than letting the DVM limp on with a state no rule expects.
 */
public final class Check {
  private Check() {}

  /** Fails with an {@link IllegalStateException} when {@code condition} is false. */
  public static void state(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("core invariant broken: " + what);
    }
  }

  /** Fails with an {@link IllegalStateException} when {@code condition} is false. */
  public static void state(boolean condition, String what, Object detail) {
    if (!condition) {
      throw new IllegalStateException("core invariant broken: " + what + ": " + detail);
    }
  }

  /** Returns {@code value}, failing loudly when it is null. */
  public static <T> T found(T value, String what, Object key) {
    if (value == null) {
      throw new IllegalStateException("core invariant broken: no " + what + " " + key);
    }
    return value;
  }
}
