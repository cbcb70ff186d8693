package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * COMMIT (docs/wireup.md §c.1): {@code CMD 2}, then {@code SCOPE | BUFFER} sections to the end
 * (none when nothing was put since the last commit), each BUFFER a stream of KVAL units in its own
 * buffer type. Answered with a {@link StatusReply}, whose content libpmix ignores but waits for.
 *
 * @param sections as they came: a scope may repeat, and {@link #LOCAL}, {@link #REMOTE} and {@link
 *     #GLOBAL} are the only scopes PMIx defines (a reader refuses others through {@link
 *     Checks#scope})
 */
public record CommitRequest(List<Section> sections) {
  public static final int COMMAND = Commands.COMMIT_CMD;

  /** {@code PMIX_LOCAL}, {@code PMIX_REMOTE}, {@code PMIX_GLOBAL} (pmix_common.h). */
  public static final int LOCAL = 1;

  public static final int REMOTE = 2;
  public static final int GLOBAL = 3;

  /**
   * One KVAL of a section, with its size on the wire: the bytes of the unit it came in, shared
   * evenly among the unit's KVALs (0 for one built to be written).
   */
  public record Entry(KVal kval, int bytes) {}

  /** One {@code SCOPE | BUFFER}. */
  public record Section(int scope, List<Entry> entries) {
    public Section {
      entries = List.copyOf(entries);
    }
  }

  public CommitRequest {
    sections = List.copyOf(sections);
  }

  /**
   * A commit as a libpmix client sends one: a LOCAL section of {@code local} and a REMOTE one of
   * {@code remote}, each left out when {@code null} or empty (a GLOBAL put is in both).
   */
  public static CommitRequest of(List<KVal> local, List<KVal> remote) {
    List<Section> sections = new ArrayList<>(2);
    for (int scope : new int[] {LOCAL, REMOTE}) {
      List<KVal> kvals = scope == LOCAL ? local : remote;
      if (kvals != null && !kvals.isEmpty()) {
        sections.add(new Section(scope, kvals.stream().map(k -> new Entry(k, 0)).toList()));
      }
    }
    return new CommitRequest(sections);
  }

  /** What same-node peers may see: the LOCAL and GLOBAL entries, in order. */
  public List<Entry> local() {
    return inScope(LOCAL);
  }

  /** What peers on other nodes may see: the REMOTE and GLOBAL entries, in order. */
  public List<Entry> remote() {
    return inScope(REMOTE);
  }

  /** Whether every section's scope is one PMIx defines. */
  public boolean scopesKnown() {
    return sections.stream().allMatch(s -> s.scope() >= LOCAL && s.scope() <= GLOBAL);
  }

  private List<Entry> inScope(int scope) {
    List<Entry> out = new ArrayList<>();
    for (Section s : sections) {
      if (s.scope() == scope || s.scope() == GLOBAL) {
        out.addAll(s.entries());
      }
    }
    return out;
  }

  /** The whole body, its command first; each section one KVAL unit per entry. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packCommand(COMMAND);
    for (Section s : sections) {
      Packer inner = new Packer(format);
      for (Entry e : s.entries()) {
        inner.pack(DataType.KVAL, e.kval());
      }
      p.packInteger(DataType.SCOPE, s.scope());
      p.packBuffer(new PackedBuffer(format.bufferType(), ByteObject.of(inner.toByteArray())));
    }
    return p.toByteArray();
  }

  /**
   * The body after its command, to its end. {@link Checks#entry} judges each KVAL as it is read,
   * {@link Checks#scope} each section once its buffer is read.
   */
  public static <X extends Exception> CommitRequest read(Unpacker in, Checks<X> checks) throws X {
    List<Section> sections = new ArrayList<>();
    while (in.hasRemaining()) {
      int scope = (int) in.unpackInteger(DataType.SCOPE);
      PackedBuffer buffer = in.unpackBuffer();
      List<Entry> entries = entries(in.format(), buffer, checks);
      checks.scope(scope);
      sections.add(new Section(scope, entries));
    }
    return new CommitRequest(sections);
  }

  /** The KVAL units of a section's buffer, read in the buffer's own type. */
  private static <X extends Exception> List<Entry> entries(
      WireFormat format, PackedBuffer buffer, Checks<X> checks) throws X {
    byte[] bytes = buffer.bytes().toByteArray();
    Unpacker in = new Unpacker(format.withBufferType(buffer.bufferType()), bytes);
    List<Entry> entries = new ArrayList<>();
    while (in.hasRemaining()) {
      int start = in.position();
      List<Object> unit = in.unpack(DataType.KVAL);
      int each = (in.position() - start) / Math.max(1, unit.size());
      for (Object o : unit) {
        KVal k = (KVal) o;
        checks.entry(k);
        entries.add(new Entry(k, each));
      }
    }
    return entries;
  }
}
