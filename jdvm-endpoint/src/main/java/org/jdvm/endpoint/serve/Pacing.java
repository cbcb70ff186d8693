package org.jdvm.endpoint.serve;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How fast one connection is served (docs/protocol.md "What one peer may cost"): its reader takes
 * the next frame only when fewer than {@link EndpointLimits#inFlightPerConnection} of its requests
 * wait for the controller thread and a token of its {@link EndpointLimits#requestsPerSecond} bucket
 * is there. Both slow the peer (it waits in its own socket: the kernel's buffers fill and its
 * writes block), neither refuses it, so a legitimate burst (a job's fence at start-up) is served
 * late rather than failed, and one peer's flood never queues more than its share ahead of the
 * owner's requests.
 *
 * <p>Thread-safe: the reader waits in {@link #beforeNextFrame}; the controller thread (or whoever
 * completes a read) calls {@link #done}. The waits park a virtual thread, holding no carrier.
 */
final class Pacing {
  private final int inFlightBound;
  private final long nanosPerToken;
  private final long burstNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition below = lock.newCondition();
  private int inFlight;

  /** When the bucket is empty; the bucket holds {@code (now - emptyAt) / nanosPerToken} tokens. */
  private long emptyAt;

  private long slowed;

  Pacing(EndpointLimits limits) {
    this.inFlightBound = limits.inFlightPerConnection();
    this.nanosPerToken = TimeUnit.SECONDS.toNanos(1) / limits.requestsPerSecond();
    this.burstNanos = nanosPerToken * limits.requestBurst();
    this.emptyAt = System.nanoTime() - burstNanos;
  }

  /** A request now waits for the controller thread; {@link #done} when it no longer does. */
  void started() {
    lock.lock();
    try {
      inFlight++;
    } finally {
      lock.unlock();
    }
  }

  /** A request {@link #started} no longer waits for the controller thread. */
  void done() {
    lock.lock();
    try {
      inFlight--;
      below.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** How many requests wait for the controller now, for tests. */
  int inFlight() {
    lock.lock();
    try {
      return inFlight;
    } finally {
      lock.unlock();
    }
  }

  /** How many frames had to wait for a token, for tests and the log. */
  long slowed() {
    lock.lock();
    try {
      return slowed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits (on the connection's reader) until the next frame may be read: fewer than the bound in
   * flight, and a token taken.
   *
   * @return false when interrupted (the connection is closing)
   */
  boolean beforeNextFrame() {
    lock.lock();
    try {
      while (inFlight >= inFlightBound) {
        below.await();
      }
      long now = System.nanoTime();
      emptyAt = Math.max(emptyAt, now - burstNanos) + nanosPerToken;
      long wait = emptyAt - now;
      if (wait > 0) {
        slowed++;
        lock.unlock();
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } finally {
          lock.lock();
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }
}
