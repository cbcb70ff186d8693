package org.jdvm.endpoint.deliver;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How much text each job may log ({@code PMIx_Log}, docs/protocol.md "Bounds"): a token bucket of
 * {@link #BURST_BYTES} refilled at {@link #BYTES_PER_SECOND}, where a line costs its bytes and
 * {@link #LINE_COST} more (so the line rate is bounded too: at most 512 lines a second of short
 * lines). Past it, lines are dropped and counted, and one line in the DVM's log says how many per
 * episode: when the job's next line is taken after the bucket refilled, when the job retires, and
 * at most every {@link #REPORT_EVERY_NS} during a long one.
 */
public final class LogBudget {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** What a job may log at once. */
  public static final long BURST_BYTES = 1L << 20;

  /** What a job may log in a second, sustained. */
  public static final long BYTES_PER_SECOND = 64L << 10;

  /** What a line costs besides its bytes. */
  public static final int LINE_COST = 128;

  /** How often a long episode's count is reported. */
  static final long REPORT_EVERY_NS = 60_000_000_000L;

  private static final class Bucket {
    double tokens = BURST_BYTES;
    long refilled;
    long droppedLines;
    long droppedBytes;
    long reported;

    Bucket(long now) {
      refilled = now;
      reported = now;
    }
  }

  private final LongSupplier clock;
  private final Map<String, Bucket> jobs = new HashMap<>();

  LogBudget(LongSupplier nanoClock) {
    this.clock = nanoClock;
  }

  /** Whether a line of {@code bytes} from {@code nspace} fits now; if not it is counted dropped. */
  synchronized boolean admit(String nspace, long bytes) {
    long now = clock.getAsLong();
    Bucket b = jobs.computeIfAbsent(nspace, k -> new Bucket(now));
    b.tokens = Math.min(BURST_BYTES, b.tokens + (now - b.refilled) * 1e-9 * BYTES_PER_SECOND);
    b.refilled = now;
    boolean refilled = b.tokens >= BURST_BYTES;
    long cost = bytes + LINE_COST;
    if (b.tokens >= cost) {
      b.tokens -= cost;
      if (b.droppedLines > 0 && refilled) {
        report(nspace, b, now, "the episode is over");
      }
      return true;
    }
    dropped(nspace, b, bytes, now);
    return false;
  }

  /** A line that could not be delivered for another bound (its reader is behind): counted. */
  synchronized void drop(String nspace, long bytes) {
    long now = clock.getAsLong();
    dropped(nspace, jobs.computeIfAbsent(nspace, k -> new Bucket(now)), bytes, now);
  }

  private static void dropped(String nspace, Bucket b, long bytes, long now) {
    if (b.droppedLines == 0) {
      b.reported = now;
    }
    b.droppedLines++;
    b.droppedBytes += bytes;
    if (now - b.reported >= REPORT_EVERY_NS) {
      report(nspace, b, now, "still dropping");
    }
  }

  /** The job retired: what it dropped and was not reported yet is, and it is forgotten. */
  synchronized void forget(String nspace) {
    Bucket b = jobs.remove(nspace);
    if (b != null && b.droppedLines > 0) {
      report(nspace, b, clock.getAsLong(), "the job retired");
    }
  }

  /** The jobs with a bucket, for tests. */
  synchronized int jobs() {
    return jobs.size();
  }

  private static void report(String nspace, Bucket b, long now, String why) {
    LOG.log(
        System.Logger.Level.WARNING,
        "job="
            + org.jdvm.pmix.json.Json.quote(nspace)
            + " log_lines_dropped="
            + b.droppedLines
            + " log_bytes_dropped="
            + b.droppedBytes
            + " bound=\""
            + BURST_BYTES
            + " bytes at once, "
            + BYTES_PER_SECOND
            + " a second\" ("
            + why
            + ")");
    b.droppedLines = 0;
    b.droppedBytes = 0;
    b.reported = now;
  }
}
