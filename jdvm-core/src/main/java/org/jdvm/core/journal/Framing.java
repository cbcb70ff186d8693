package org.jdvm.core.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.jdvm.pmix.record.Bytes;

/**
 * How records lie in a journal segment or a snapshot file: {@code
 * [length:int][crc32c:int][payload]} (docs/journal.md). The length is capped before anything is
 * read, the checksum covers the payload, and a scan stops at the first record that is incomplete or
 * does not check — everything after it is a torn or corrupt tail, to be cut.
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
}
