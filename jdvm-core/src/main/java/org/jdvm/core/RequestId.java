package org.jdvm.core;

/**
 * The shell's opaque name for one request. The core answers every request exactly once with a
 * {@link Effect.Reply} carrying this id, possibly many commands later (when the scheduler answers,
 * or when every process of a spawned job has been launched).
 */
public record RequestId(long value) {
  @Override
  public String toString() {
    return "req" + value;
  }
}
