package org.jdvm.host;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The standard input of a process that reads what its spawner forwards (docs/wireup.md §c.7):
 * chunks are written to the pipe in order by one virtual thread, each chunk's future completing
 * once the pipe took it. An empty chunk is the end of file: the pipe is closed once the chunks
 * before it are written.
 *
 * <p>At most {@link #MAX_QUEUED_BYTES} wait to be written. A writer that would go past the bound
 * waits for room, at most the time it gives, so a process that reads slowly slows down whoever
 * feeds it instead of growing the agent's memory; a feeder that waits for each chunk's future never
 * waits for room. Once the pipe is closed (end of file, the process closed its stdin, or it exited)
 * every chunk still waiting and every later one fails with {@link Closed}.
 */
public final class StdinPipe {
  /** Bytes that may wait for a slow reader, per process. */
  public static final int MAX_QUEUED_BYTES = 256 << 10;

  /** The pipe is closed: nothing more reaches the process. */
  public static final class Closed extends IOException {
    private static final long serialVersionUID = 1L;

    public Closed(String message) {
      super(message);
    }
  }

  private record Chunk(byte[] bytes, CompletableFuture<Void> written) {}

  private final OutputStream out;
  private final String name;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition queued = lock.newCondition();
  private final Condition room = lock.newCondition();
  private final ArrayDeque<Chunk> queue = new ArrayDeque<>();
  private int queuedBytes;
  private boolean endQueued;
  private String closedBecause;

  /**
   * @param out the process's stdin
   * @param name the process, for messages
   */
  StdinPipe(OutputStream out, String name) {
    this.out = out;
    this.name = name;
    Thread.ofVirtual().name("jdvm-stdin-" + name).start(this::writeLoop);
  }

  /**
   * Queues a chunk (empty: end of file); the future completes when the pipe took it. Waits at most
   * {@code maxWaitMs} for room when {@link #MAX_QUEUED_BYTES} already wait. The chunk is kept, not
   * copied: the caller must not change it, and may hand the same array to every target of a push,
   * so a push to a whole job holds each chunk once.
   *
   * @return a failed future ({@link Closed}) when the pipe is closed or the wait for room timed out
   */
  public CompletableFuture<Void> write(byte[] chunk, long maxWaitMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMs);
    lock.lock();
    try {
      while (closedBecause == null
          && !endQueued
          && queuedBytes > 0
          && queuedBytes + chunk.length > MAX_QUEUED_BYTES) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return CompletableFuture.failedFuture(
              new Closed(
                  "the stdin of "
                      + name
                      + " took nothing for "
                      + maxWaitMs
                      + " ms; bytes dropped"));
        }
        room.awaitNanos(left);
      }
      if ((closedBecause != null || endQueued) && chunk.length == 0) {
        return CompletableFuture.completedFuture(null);
      }
      if (closedBecause != null || endQueued) {
        return CompletableFuture.failedFuture(
            new Closed("the stdin of " + name + " is closed" + reason()));
      }
      Chunk c = new Chunk(chunk, new CompletableFuture<>());
      queue.add(c);
      queuedBytes += chunk.length;
      endQueued = chunk.length == 0;
      queued.signal();
      return c.written();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(new Closed("interrupted"));
    } finally {
      lock.unlock();
    }
  }

  private String reason() {
    return closedBecause == null || closedBecause.isEmpty() ? "" : " (" + closedBecause + ")";
  }

  /** The process is gone: fail what waits and close the pipe. */
  void processExited() {
    close("the process exited");
  }

  /** Bytes waiting to be written, for tests. */
  public int queuedBytes() {
    lock.lock();
    try {
      return queuedBytes;
    } finally {
      lock.unlock();
    }
  }

  private void writeLoop() {
    while (true) {
      Chunk c = next();
      if (c == null) {
        return;
      }
      try {
        if (c.bytes().length == 0) {
          close("end of file");
          c.written().complete(null);
          return;
        }
        out.write(c.bytes());
        out.flush();
        taken(c);
        c.written().complete(null);
      } catch (IOException e) {
        c.written().completeExceptionally(new Closed("the stdin of " + name + ": " + e));
        close(e.getMessage() == null ? "" : e.getMessage());
        return;
      }
    }
  }

  private Chunk next() {
    lock.lock();
    try {
      while (queue.isEmpty() && closedBecause == null) {
        queued.awaitUninterruptibly();
      }
      return closedBecause != null ? null : queue.peek();
    } finally {
      lock.unlock();
    }
  }

  private void taken(Chunk c) {
    lock.lock();
    try {
      if (queue.peek() == c) {
        queue.poll();
        queuedBytes -= c.bytes().length;
        room.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void close(String why) {
    Chunk[] left;
    lock.lock();
    try {
      if (closedBecause != null) {
        return;
      }
      closedBecause = why;
      left = queue.toArray(Chunk[]::new);
      queue.clear();
      queuedBytes = 0;
      queued.signalAll();
      room.signalAll();
    } finally {
      lock.unlock();
    }
    for (Chunk c : left) {
      if (c.bytes().length == 0) {
        c.written().complete(null);
      } else {
        c.written().completeExceptionally(new Closed("the stdin of " + name + " closed: " + why));
      }
    }
    try {
      out.close();
    } catch (IOException e) {
      // The process closed its end already; nothing is lost that was not reported.
    }
  }
}
