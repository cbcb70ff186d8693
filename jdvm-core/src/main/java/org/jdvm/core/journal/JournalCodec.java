package org.jdvm.core.journal;

import org.jdvm.core.Change;
import org.jdvm.core.Effect;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;

/**
 * Entries to framed bytes and back (docs/journal.md). Pure: the shell does the file I/O.
 *
 * <p>{@link #VOCABULARY} is a checksum of the shapes of every type an entry can hold; it is written
 * in each segment's header and snapshot, and a journal whose vocabulary differs from this build's
 * is refused with a clear message instead of being misread.
 */
public final class JournalCodec {
  /** The vocabulary of this build: a CRC32C of {@link RecordCodec#fingerprint} of the entries. */
  public static final int VOCABULARY;

  static {
    Bytes.Out fp = new Bytes.Out(8192);
    fp.str(RecordCodec.fingerprint(Entry.class, Change.class, Effect.class));
    VOCABULARY = Framing.crc(fp.array(), 0, fp.size());
  }

  private JournalCodec() {}

  /** The entry's payload, unframed. */
  public static void encode(Entry entry, Bytes.Out out) {
    RecordCodec.write(out, Entry.class, entry);
  }

  /**
   * Appends the entry as one framed record, encoded in place: the header is reserved, the payload
   * written after it, and its length and checksum filled in (no copy of the payload). If the entry
   * cannot be encoded, {@code out} is left as it was.
   */
  public static void frame(Entry entry, Bytes.Out out) {
    int at = out.skip(Framing.OVERHEAD);
    try {
      encode(entry, out);
      Framing.seal(out, at);
    } catch (RuntimeException e) {
      out.truncate(at);
      throw e;
    }
  }

  /**
   * Appends the entry as one framed record, as {@link #frame(Entry, Bytes.Out)}; {@code scratch} is
   * no longer used.
   */
  public static void frame(Entry entry, Bytes.Out scratch, Bytes.Out out) {
    frame(entry, out);
  }

  /** One entry as a framed record of its own. */
  public static byte[] framed(Entry entry) {
    Bytes.Out out = new Bytes.Out(256);
    frame(entry, out);
    return out.toByteArray();
  }

  /**
   * Decodes one record's payload.
   *
   * @throws Bytes.Corrupt if it is not an entry (its checksum held, so the writer was another build
   *     or the bug is ours)
   */
  public static Entry decode(byte[] bytes, Framing.Slice slice) {
    Bytes.In in = new Bytes.In(bytes, slice.offset(), slice.length());
    Entry e = (Entry) RecordCodec.read(in, Entry.class);
    if (e == null) {
      throw new Bytes.Corrupt("an empty entry");
    }
    in.expectEnd();
    return e;
  }
}
