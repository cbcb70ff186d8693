package org.jdvm.endpoint.deliver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts one job's output at newlines, per rank and channel, so that no receiver ever sees one rank's
 * output in the middle of another rank's line (docs/ARCHITECTURE.md "Output lines"). Chunks arrive
 * as the ranks' pipes were read, of any size; complete lines go out at once, whole, and a rank's
 * partial last line is held until its newline or the rank's end, as libpmix 4.2.2 holds it ({@code
 * pmix_iof_write_output} keeps a "residual" unless {@code PMIX_IOF_OUTPUT_RAW}), so a prompt
 * without a newline shows once the line is complete, as under {@code prterun}. Bounds: a partial
 * line past {@link #MAX_HELD} bytes goes out as it is, and so does one that would take what the job
 * holds past {@link #MAX_HELD_PER_JOB} (many ranks' progress bars, which end no line). Not
 * thread-safe: its {@link OutputRouter} calls it under its lock.
 */
final class LineCutter {
  /** What is held per rank and channel before it goes out anyway (64 KiB). */
  static final int MAX_HELD = 64 << 10;

  /** A piece to deliver: whole lines, or a partial line at the rank's end or past the bound. */
  record Piece(int rank, int channel, byte[] bytes) {}

  /** What is held for the whole job before a rank's partial line goes out anyway (4 MiB). */
  static final int MAX_HELD_PER_JOB = 4 << 20;

  /** The partial line held per (rank, channel). */
  private final Map<Long, byte[]> held = new HashMap<>();

  /** The bytes in {@link #held}. */
  private long heldBytes;

  /**
   * Ranks that ended: what still arrives for them goes out as it is, since no newline or end will
   * come to release it (output held while the spawn was answered reaches the cutter after the
   * rank's end when the process was that quick).
   */
  private final java.util.Set<Integer> ended = new java.util.HashSet<>();

  /** The whole job ended: nothing is held any more ({@link #jobEnded}). */
  private boolean jobEnded;

  /** A chunk of {@code rank} on {@code channel}: what may go out now. */
  List<Piece> accept(int rank, int channel, byte[] bytes) {
    long key = key(rank, channel);
    byte[] before = held.remove(key);
    heldBytes -= before == null ? 0 : before.length;
    byte[] all = before == null ? bytes : concat(before, bytes);
    int nl = lastNewline(all);
    int tail = all.length - (nl + 1);
    if (tail == 0
        || tail > MAX_HELD
        || heldBytes + tail > MAX_HELD_PER_JOB
        || jobEnded
        || ended.contains(rank)) {
      return List.of(new Piece(rank, channel, all));
    }
    held.put(key, Arrays.copyOfRange(all, nl + 1, all.length));
    heldBytes += tail;
    return nl < 0 ? List.of() : List.of(new Piece(rank, channel, Arrays.copyOf(all, nl + 1)));
  }

  /** {@code rank} ended: its held partial lines go out, unterminated. */
  List<Piece> end(int rank) {
    ended.add(rank);
    List<Piece> out = new ArrayList<>(2);
    for (int channel : new int[] {OutputRouter.STDOUT_CHANNEL, OutputRouter.STDERR_CHANNEL}) {
      byte[] b = held.remove(key(rank, channel));
      if (b != null) {
        heldBytes -= b.length;
        out.add(new Piece(rank, channel, b));
      }
    }
    return out;
  }

  /**
   * The job ended (its end is about to reach its tool): everything held goes out now, and what
   * still arrives (from descendants that kept its pipes) goes out as it is.
   */
  List<Piece> jobEnded() {
    jobEnded = true;
    return endAll();
  }

  /** Everything still held (the job is gone). */
  List<Piece> endAll() {
    List<Piece> out = new ArrayList<>();
    for (var e : held.entrySet()) {
      out.add(new Piece((int) (e.getKey() >> 8), (int) (e.getKey() & 0xff), e.getValue()));
    }
    held.clear();
    heldBytes = 0;
    ended.clear();
    return out;
  }

  private static long key(int rank, int channel) {
    return ((long) rank << 8) | channel;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static int lastNewline(byte[] b) {
    for (int i = b.length - 1; i >= 0; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
