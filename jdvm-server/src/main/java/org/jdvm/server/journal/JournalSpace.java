package org.jdvm.server.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The journal's room on its file system (docs/journal.md "A full disk"). While the file system has
 * less than {@link #HEADROOM_BYTES} free, or once a write found no space, the journal is {@link
 * #refusing()}: the controller refuses requests that start or grow something before the core sees
 * them, so nothing is acknowledged that could not be written. What cannot be refused — reports (a
 * process ended, nodes granted or reclaimed), and requests that end or let go — is still written:
 * into the space the file system has left, and, once a write finds none, into the {@link
 * #RESERVE_BYTES} the journal kept in a file of its own and gives up then. If even that is used up,
 * the writer waits for space ({@link #awaitRetry}), trying again every {@link #RETRY_MILLIS} ms:
 * the DVM handles nothing meanwhile, acknowledges nothing unwritten, and its processes keep
 * running. Every {@link #CHECK_MILLIS} ms a background check looks at the free space again; once
 * there is the headroom and the reserve again, the reserve is filled and requests are admitted: the
 * DVM comes back by itself, with no restart. One log line per change, not per refusal.
 */
final class JournalSpace implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.journal");

  /**
   * The reserve: about 3,000 batches of reports (a batch is some 300 bytes), written after the file
   * system ran out.
   */
  static final long RESERVE_BYTES = 1L << 20;

  /**
   * Below this much free space requests that start or grow something are refused: one snapshot
   * interval's worth of journal ({@link Journal#DEFAULT_SNAPSHOT_BYTES}).
   */
  static final long HEADROOM_BYTES = Journal.DEFAULT_SNAPSHOT_BYTES;

  /** How often the free space is looked at. */
  static final long CHECK_MILLIS = 250;

  /** How long a writer that found no space even without the reserve waits before it tries again. */
  static final long RETRY_MILLIS = 100;

  private final Path reserve;
  private final FileStore store;
  private final long headroom;
  private final ScheduledExecutorService checker;
  private volatile boolean refusing;
  private volatile boolean closing;

  /** Whether the reserve file holds its bytes; guarded by this. */
  private boolean held;

  /** Whether a writer waits for space (said once per episode). */
  private volatile boolean waiting;

  JournalSpace(Path reserve) throws IOException {
    this(reserve, HEADROOM_BYTES);
  }

  JournalSpace(Path reserve, long headroom) throws IOException {
    this.reserve = reserve;
    this.store = Files.getFileStore(reserve.getParent());
    this.headroom = headroom;
    fill();
    check();
    this.checker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "jdvm-journal-space");
              t.setDaemon(true);
              return t;
            });
    checker.scheduleWithFixedDelay(this::check, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Whether requests that start or grow something are refused now. */
  boolean refusing() {
    return refusing;
  }

  /** Whether a write failed for want of space (ENOSPC, or a quota). */
  static boolean noSpace(IOException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("No space left on device") || m.contains("Disk quota exceeded");
  }

  /**
   * A write found no space: requests are refused from now on, and the reserve is given up so that
   * what cannot be refused is written.
   */
  synchronized void ranOut() {
    if (!refusing) {
      LOG.log(
          System.Logger.Level.ERROR,
          "journal: no space left on "
              + reserve.getParent()
              + ": requests that start or grow something are refused (PMIX_ERR_OUT_OF_RESOURCE)"
              + " until space returns; reports are written into the "
              + (RESERVE_BYTES >> 20)
              + " MiB reserve");
    }
    refusing = true;
    if (held) {
      try {
        Files.deleteIfExists(reserve);
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "journal: cannot give up the reserve: " + e);
      }
      held = false;
    }
  }

  /**
   * A write found no space even with the reserve given up: waits {@link #RETRY_MILLIS} before the
   * writer tries again.
   *
   * @throws UncheckedIOException if the journal is closing or the wait is interrupted
   */
  void awaitRetry(IOException cause) {
    if (closing) {
      throw new UncheckedIOException("journal write failed: " + cause.getMessage(), cause);
    }
    if (!waiting) {
      waiting = true;
      LOG.log(
          System.Logger.Level.ERROR,
          "journal: no space left on "
              + reserve.getParent()
              + " even after the reserve: the controller waits for space, trying every "
              + RETRY_MILLIS
              + " ms; nothing is acknowledged meanwhile, running processes go on");
    }
    try {
      Thread.sleep(RETRY_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException("journal write failed: " + cause.getMessage(), cause);
    }
  }

  /** A write went through after a wait for space. */
  void wrote() {
    if (waiting) {
      waiting = false;
      LOG.log(System.Logger.Level.WARNING, "journal: written again after the wait for space");
    }
  }

  /** Looks at the free space: refuses below the headroom, admits again once there is room. */
  void check() {
    long free;
    try {
      free = store.getUsableSpace();
    } catch (IOException e) {
      return; // looked at again next time
    }
    synchronized (this) {
      if (!refusing && free < headroom) {
        refusing = true;
        LOG.log(
            System.Logger.Level.WARNING,
            "journal: "
                + (free >> 10)
                + " KiB free on "
                + reserve.getParent()
                + ", under the headroom of "
                + (headroom >> 20)
                + " MiB: requests that start or grow something are refused"
                + " (PMIX_ERR_OUT_OF_RESOURCE) until space returns");
      } else if (refusing && free >= headroom + (held ? 0 : RESERVE_BYTES) && !closing) {
        fill();
        if (held) {
          refusing = false;
          LOG.log(
              System.Logger.Level.WARNING,
              "journal: space returned ("
                  + (free >> 20)
                  + " MiB free): requests are admitted again");
        }
      }
    }
  }

  /** Fills the reserve file, forced to the disk, unless it is held already. */
  private synchronized void fill() {
    if (held) {
      return;
    }
    try (FileChannel ch =
        FileChannel.open(
            reserve,
            Set.of(
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING,
                LinkOption.NOFOLLOW_LINKS),
            JournalFiles.ownerOnly())) {
      ByteBuffer zeros = ByteBuffer.allocate(64 << 10);
      for (long at = 0; at < RESERVE_BYTES; at += zeros.capacity()) {
        zeros.clear();
        while (zeros.hasRemaining()) {
          ch.write(zeros);
        }
      }
      ch.force(true);
      held = true;
    } catch (IOException e) {
      try {
        Files.deleteIfExists(reserve);
      } catch (IOException ignored) {
        // Nothing more to give back.
      }
    }
  }

  /** Stops the checks; a writer waiting for space gives up. */
  @Override
  public void close() {
    closing = true;
    checker.shutdownNow();
    try {
      checker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
