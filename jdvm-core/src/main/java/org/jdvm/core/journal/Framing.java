package org.jdvm.core.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.jdvm.pmix.record.Bytes;

/**
 * How records lie in a journal segment or a snapshot file: {@code
 * [length:int][crc32c:int][payload]} (docs/journal.md). The length is capped before anything is
 * read, the checksum covers the payload, and a scan stops at the first record that is incomplete or
 * does not check. What follows it tells a torn tail from damage ({@link #wholeRecordAfter}): a
 * write cut short by a crash leaves nothing whole after it, a damaged record does (docs/journal.md
 * "Recovery").
 */
public final class Framing {
  /** Bytes before each payload. */
  public static final int OVERHEAD = 8;

  /** The largest payload a record may have (a snapshot of a very large DVM is the largest). */
  public static final int MAX_PAYLOAD = 1 << 30;

  private Framing() {}

  /** Appends one framed record holding {@code payload[0..len)} to {@code out}. */
  public static void frame(Bytes.Out out, byte[] payload, int len) {
    if (len > MAX_PAYLOAD) {
      throw new IllegalArgumentException("a record of " + len + " bytes is above the cap");
    }
    out.i32(len);
    out.i32(crc(payload, 0, len));
    out.raw(payload, 0, len);
  }

  /**
   * Frames the payload written to {@code out} after the {@link #OVERHEAD} bytes reserved at {@code
   * at}: fills in its length and checksum.
   */
  public static void seal(Bytes.Out out, int at) {
    int len = out.size() - at - OVERHEAD;
    if (len > MAX_PAYLOAD) {
      throw new IllegalArgumentException("a record of " + len + " bytes is above the cap");
    }
    out.i32At(at, len);
    out.i32At(at + 4, crc(out.array(), at + OVERHEAD, len));
  }

  public static int crc(byte[] b, int off, int len) {
    CRC32C crc = new CRC32C();
    crc.update(b, off, len);
    return (int) crc.getValue();
  }

  /** Where one whole record's payload lies. */
  public record Slice(int offset, int length) {}

  /**
   * The whole records in {@code bytes[0..len)}, in order, up to the first that is torn or corrupt.
   *
   * @param validLength where the whole records end: the length to cut the segment to
   * @param problem why the scan stopped before {@code len}, or {@code null} if it did not
   */
  public record Scan(List<Slice> records, int validLength, String problem) {
    public boolean cut() {
      return problem != null;
    }
  }

  public static Scan scan(byte[] bytes, int len) {
    List<Slice> records = new ArrayList<>();
    int pos = 0;
    while (pos < len) {
      if (len - pos < OVERHEAD) {
        return new Scan(records, pos, "a torn record header at byte " + pos);
      }
      Bytes.In in = new Bytes.In(bytes, pos, OVERHEAD);
      int length = in.i32();
      int crc = in.i32();
      if (length < 0 || length > MAX_PAYLOAD) {
        return new Scan(records, pos, "a record length of " + length + " at byte " + pos);
      }
      if (length > len - pos - OVERHEAD) {
        return new Scan(records, pos, "a torn record at byte " + pos);
      }
      if (crc(bytes, pos + OVERHEAD, length) != crc) {
        return new Scan(records, pos, "a checksum mismatch at byte " + pos);
      }
      records.add(new Slice(pos + OVERHEAD, length));
      pos += OVERHEAD + length;
    }
    return new Scan(records, pos, null);
  }

  /**
   * How many payload bytes {@link #wholeRecordAfter} checks at most before it gives up: a torn
   * write is at most the controller's last group of batches, far less; a search longer than this is
   * past damage, not a tear.
   */
  public static final long SEARCH_BUDGET = 64L << 20;

  /**
   * Where the first whole record after a stopped scan lies: the first offset above {@code from}
   * whose header has a length that fits in {@code bytes[0..len)} (and is not 0: no entry is empty)
   * and whose payload checks. The place the damaged record's own length points to is tried first.
   *
   * @return that offset; {@code -1} if no whole record follows (the tail is torn); or, once {@link
   *     #SEARCH_BUDGET} payload bytes were checked in vain, the offset the search stopped at (it
   *     cannot be said that nothing whole follows)
   */
  public static int wholeRecordAfter(byte[] bytes, int from, int len) {
    long budget = SEARCH_BUDGET;
    if (len - from >= OVERHEAD) {
      int length = i32(bytes, from);
      long next = (long) from + OVERHEAD + Math.max(0, length);
      if (length >= 0 && next < len && checks(bytes, (int) next, len)) {
        return (int) next;
      }
    }
    for (int at = from + 1; at + OVERHEAD < len; at++) {
      int length = i32(bytes, at);
      if (length <= 0 || length > len - at - OVERHEAD) {
        continue;
      }
      budget -= length;
      if (budget < 0) {
        return at;
      }
      if (checks(bytes, at, len)) {
        return at;
      }
    }
    return -1;
  }

  /** Whether a whole record that checks starts at {@code at}. */
  private static boolean checks(byte[] bytes, int at, int len) {
    if (len - at < OVERHEAD) {
      return false;
    }
    Bytes.In in = new Bytes.In(bytes, at, OVERHEAD);
    int length = in.i32();
    int crc = in.i32();
    return length > 0 && length <= len - at - OVERHEAD && crc(bytes, at + OVERHEAD, length) == crc;
  }

  private static int i32(byte[] b, int at) {
    return (b[at] & 0xFF) << 24
        | (b[at + 1] & 0xFF) << 16
        | (b[at + 2] & 0xFF) << 8
        | b[at + 3] & 0xFF;
  }
}
