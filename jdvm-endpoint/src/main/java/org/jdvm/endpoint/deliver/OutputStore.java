package org.jdvm.endpoint.deliver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The output the controller keeps of every job, for {@code jdvm output JOB} (docs/cli.md "jdvm
 * output"; docs/ARCHITECTURE.md "Stored output and usage"): the pieces the {@link LineCutter} cut,
 * as they went to the job's receivers (or to nobody: a detached job, a job whose spawner asked for
 * none), so a replay keeps each rank's line boundaries. Kept in memory, from the job's spawn until
 * it retires from the core (then {@code jdvm jobs} no longer lists it either); nothing of it
 * survives a controller restart.
 *
 * <p>Bounded twice, each piece counted with {@link #PIECE_OVERHEAD} bytes besides its own so that a
 * flood of tiny lines is bounded too: past {@link Bounds#perJobBytes} a job's oldest lines go; past
 * {@link Bounds#totalBytes} the oldest job's oldest lines go, then the next job's. What goes is
 * whole lines where the oldest piece has a newline past what must go, so a replay starts at a
 * line's start. A job that lost some says how much ({@link Replay#droppedBytes}). Not thread-safe:
 * its {@link OutputRouter} calls it under its lock.
 */
public final class OutputStore {
  /** What a piece costs besides its bytes (the piece, its array's header, the queue's slot). */
  static final int PIECE_OVERHEAD = 64;

  /**
   * How much is kept.
   *
   * @param perJobBytes of one job; at least {@link #MIN_PER_JOB_BYTES} (a cut piece is at most
   *     that, {@link LineCutter#MAX_HELD}), at most {@link #MAX_PER_JOB_BYTES}
   * @param totalBytes of every job together; at least {@code perJobBytes}
   */
  public record Bounds(long perJobBytes, long totalBytes) {
    /** The smallest per-job bound: one whole cut piece. */
    public static final long MIN_PER_JOB_BYTES = LineCutter.MAX_HELD;

    /**
     * The largest per-job bound, half of what a connection may have queued before it is cut off
     * ({@code Connection.MAX_QUEUED_OUTPUT_BYTES}, 64 MiB), so that a replay never cuts its reader
     * off.
     */
    public static final long MAX_PER_JOB_BYTES = 32L << 20;

    /** 1 MiB per job, 64 MiB in all (docs/cli.md "jdvm output"). */
    public static final Bounds DEFAULT = new Bounds(1L << 20, 64L << 20);

    public Bounds {
      if (perJobBytes < MIN_PER_JOB_BYTES || perJobBytes > MAX_PER_JOB_BYTES) {
        throw new IllegalArgumentException(
            "the output kept per job must be between "
                + MIN_PER_JOB_BYTES
                + " and "
                + MAX_PER_JOB_BYTES
                + " bytes, not "
                + perJobBytes);
      }
      if (totalBytes < perJobBytes) {
        throw new IllegalArgumentException(
            "the output kept in total ("
                + totalBytes
                + " bytes) must be at least the output kept per job ("
                + perJobBytes
                + ")");
      }
    }
  }

  /**
   * A job's stored output as a replay gives it.
   *
   * @param pieces what is kept, oldest first
   * @param droppedBytes the bytes of its output dropped (its oldest), 0 when none
   * @param writtenBytes every byte of its output stored so far, dropped ones included
   * @param ended whether the job has terminated
   * @param status its termination status (PMIx), once ended
   * @param exitCode its exit code, once ended
   */
  record Replay(
      List<LineCutter.Piece> pieces,
      long droppedBytes,
      long writtenBytes,
      boolean ended,
      int status,
      int exitCode) {}

  private static final class Kept {
    final ArrayDeque<LineCutter.Piece> pieces = new ArrayDeque<>();
    long cost;
    long dropped;
    long written;
    boolean ended;
    int status;
    int exitCode;
  }

  private Bounds bounds = Bounds.DEFAULT;

  /** Jobs in spawn order, the oldest first. */
  private final Map<String, Kept> jobs = new LinkedHashMap<>();

  private long cost;

  /** From now on, keeps within {@code b} (what is kept already is cut to it at its next piece). */
  void bound(Bounds b) {
    bounds = b;
  }

  /** The job was spawned: its output is kept from now on. */
  void started(String nspace) {
    jobs.putIfAbsent(nspace, new Kept());
  }

  /** A piece of a job's output, as it went out; nothing for a job not started or retired. */
  void add(String nspace, LineCutter.Piece p) {
    Kept k = jobs.get(nspace);
    if (k == null) {
      return;
    }
    k.written += p.bytes().length;
    long room = bounds.perJobBytes() - PIECE_OVERHEAD;
    if (p.bytes().length > room) { // a raw chunk, or a bound below the piece: its tail is kept
      int cut = (int) (p.bytes().length - room);
      k.dropped += cut;
      p =
          new LineCutter.Piece(
              p.rank(), p.channel(), Arrays.copyOfRange(p.bytes(), cut, p.bytes().length));
    }
    k.pieces.addLast(p);
    k.cost += cost(p);
    cost += cost(p);
    while (k.cost > bounds.perJobBytes()) {
      dropOldest(k, k.cost - bounds.perJobBytes());
    }
    if (cost > bounds.totalBytes()) {
      for (Kept oldest : jobs.values()) {
        while (cost > bounds.totalBytes() && !oldest.pieces.isEmpty()) {
          dropOldest(oldest, cost - bounds.totalBytes());
        }
        if (cost <= bounds.totalBytes()) {
          break;
        }
      }
    }
  }

  /**
   * Gives up at least {@code excess} bytes of the job's oldest piece: its lines up to the first
   * newline past them when it has one (the rest stays, whole lines), else the whole piece.
   */
  private void dropOldest(Kept k, long excess) {
    LineCutter.Piece p = k.pieces.removeFirst();
    byte[] b = p.bytes();
    int from = -1;
    for (int i = (int) Math.min(excess, b.length) - 1; i < b.length - 1 && from < 0; i++) {
      if (i >= 0 && b[i] == '\n') {
        from = i + 1;
      }
    }
    long before = cost(p);
    long kept = 0;
    if (from > 0) {
      LineCutter.Piece rest =
          new LineCutter.Piece(p.rank(), p.channel(), Arrays.copyOfRange(b, from, b.length));
      k.pieces.addFirst(rest);
      kept = cost(rest);
    }
    k.dropped += from > 0 ? from : b.length;
    k.cost -= before - kept;
    cost -= before - kept;
  }

  private static long cost(LineCutter.Piece p) {
    return p.bytes().length + (long) PIECE_OVERHEAD;
  }

  /** The job terminated, with this status and exit code. */
  void ended(String nspace, int status, int exitCode) {
    Kept k = jobs.get(nspace);
    if (k != null) {
      k.ended = true;
      k.status = status;
      k.exitCode = exitCode;
    }
  }

  /** The core forgot the job: its output goes. */
  void retired(String nspace) {
    Kept k = jobs.remove(nspace);
    if (k != null) {
      cost -= k.cost;
    }
  }

  /** What is kept of a job, or {@code null} when it is not known (never spawned, or retired). */
  Replay replay(String nspace) {
    Kept k = jobs.get(nspace);
    if (k == null) {
      return null;
    }
    return new Replay(
        new ArrayList<>(k.pieces), k.dropped, k.written, k.ended, k.status, k.exitCode);
  }

  /** What every job's kept output costs, overheads included. */
  long cost() {
    return cost;
  }
}
