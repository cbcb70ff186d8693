package org.jdvm.pmix.codec;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.App;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;

/**
 * Reads a message body unit by unit, the inverse of {@link Packer} (pmix-wire.md §2.3, §2.4), over
 * an exact slice of untrusted bytes.
 *
 * <p>Each {@code unpack} call reads one unit: in a fully-described buffer the INT32 tag ({@code
 * PMIX_ERR_UNPACK_FAILURE} otherwise), the count, the declared type's tag ({@code
 * PMIX_ERR_PACK_MISMATCH} if it is not the requested type), then the bodies. Decoding is bounded by
 * the bytes present; every failure is a {@link WireException} scoped to the message, carrying the
 * offset from the start of the slice. A failed call leaves the position where the failure was
 * found: the message is spoiled, so the caller answers with the status and drops it.
 *
 * <pre>{@code
 * Unpacker body = new Unpacker(format, bytes);
 * int command = body.unpackCommand();
 * int directive = (int) body.unpackInteger(DataType.ALLOC_DIRECTIVE);
 * List<Info> infos = body.unpackInfos();
 * body.expectEnd();
 * }</pre>
 */
public final class Unpacker {
  private final WireFormat format;
  private final WireInput in;
  private final BodyReader bodies;

  /** An unpacker over all of {@code bytes}. */
  public Unpacker(WireFormat format, byte[] bytes) {
    this(format, bytes, 0, bytes.length);
  }

  /** An unpacker over exactly {@code length} bytes of {@code bytes} from {@code offset}. */
  public Unpacker(WireFormat format, byte[] bytes, int offset, int length) {
    this.format = Objects.requireNonNull(format, "format");
    this.in = new WireInput(bytes, offset, length);
    this.bodies = new BodyReader(in, format.component());
  }

  public WireFormat format() {
    return format;
  }

  /** The offset of the next unread byte, from the start of the slice. */
  public int position() {
    return in.position();
  }

  public int remaining() {
    return in.remaining();
  }

  public boolean hasRemaining() {
    return in.remaining() > 0;
  }

  /** Refuses bytes left over after the last expected unit. */
  public void expectEnd() {
    if (in.remaining() > 0) {
      throw in.failure(PmixStatus.ERR_UNPACK_FAILURE, in.remaining() + " unexpected bytes");
    }
  }

  /**
   * One unit of {@code type}: all the values its count declares, in the Java representation {@link
   * Value} documents for the type. A COMPRESSED_STRING unit yields the inflated strings.
   *
   * @throws WireException {@code PMIX_ERR_UNKNOWN_DATA_TYPE} for a type the component does not
   *     register, or any decoding failure
   */
  public List<Object> unpack(DataType type) {
    int count = readHeader(type);
    return Collections.unmodifiableList(
        bodies.readBodies(type, bodies.checkCount(count, type, "a count")));
  }

  /** One unit that must hold exactly one value. */
  public Object unpackOne(DataType type) {
    int at = in.position();
    int count = readHeader(type);
    checkSingle(count, at);
    // through readBodies: POINTER and PID write once per call what other types write per value
    return bodies.readBodies(type, 1).get(0);
  }

  /** One unit of one integer-like value, without boxing it. */
  public long unpackInteger(DataType type) {
    if (!Value.isIntegerType(type)) {
      throw new IllegalArgumentException(type.pmixName() + " is not an integer type");
    }
    int at = in.position();
    checkSingle(readHeader(type), at);
    return bodies.readInteger(type);
  }

  /**
   * One deprecated {@code PMIX_BUFFER} unit of one buffer ({@link PackedBuffer}): the buffer type
   * byte, then a byte object. Every component registers the type for this use only, so it is read
   * here and never as a value's or an array's type.
   */
  public PackedBuffer unpackBuffer() {
    int at = in.position();
    checkSingle(readCountAndTags(DataType.BUFFER, at), at);
    int typeAt = in.position();
    BufferType type = BufferType.fromCode(in.readByte());
    if (type == null) {
      throw WireException.message(PmixStatus.ERR_UNPACK_FAILURE, typeAt, "unknown buffer type");
    }
    return new PackedBuffer(type, bodies.readByteObject());
  }

  /** A COMMAND unit (§9.4). */
  public int unpackCommand() {
    return (int) unpackInteger(DataType.COMMAND);
  }

  public int unpackStatus() {
    return (int) unpackInteger(DataType.STATUS);
  }

  /** A SIZE unit, as an unsigned 64-bit value held in a long. */
  public long unpackSize() {
    return unpackInteger(DataType.SIZE);
  }

  public String unpackString() {
    return (String) unpackOne(DataType.STRING);
  }

  public Proc unpackProc() {
    return (Proc) unpackOne(DataType.PROC);
  }

  public Value unpackValue() {
    return (Value) unpackOne(DataType.VALUE);
  }

  /** A SIZE unit n and, when n is not zero, an INFO unit of exactly n infos. */
  public List<Info> unpackInfos() {
    return unpackCounted(DataType.INFO);
  }

  /** SIZE n, then an APP unit of n apps, as a spawn request carries them. */
  public List<App> unpackApps() {
    return unpackCounted(DataType.APP);
  }

  /** SIZE n, then a QUERY unit of n queries, as a query request carries them. */
  public List<Query> unpackQueries() {
    return unpackCounted(DataType.QUERY);
  }

  private <T> List<T> unpackCounted(DataType type) {
    int at = in.position();
    long declared = unpackSize();
    if (declared == 0) {
      return List.of();
    }
    bodies.checkCount(declared, type, "a SIZE");
    List<Object> values = unpack(type);
    if (values.size() != declared) {
      throw WireException.message(
          PmixStatus.ERR_UNPACK_FAILURE,
          at,
          "SIZE " + declared + " announces " + values.size() + " " + type.pmixName());
    }
    @SuppressWarnings("unchecked") // the body reader of `type` yields only its record type
    List<T> typed = (List<T>) (List<?>) values;
    return typed;
  }

  /** Reads a unit's tags and count; the type must be one the component can unpack. */
  private int readHeader(DataType type) {
    int at = in.position();
    if (type == DataType.UNDEF || !format.component().supports(type)) {
      throw WireException.message(
          PmixStatus.ERR_UNKNOWN_DATA_TYPE,
          at,
          type.pmixName() + " is not registered by " + format.component().wireName());
    }
    return readCountAndTags(type, at);
  }

  private int readCountAndTags(DataType type, int at) {
    boolean described = format.bufferType() == BufferType.FULLY_DESCRIBED;
    if (described && readTag() != DataType.INT32.code()) {
      throw WireException.message(
          PmixStatus.ERR_UNPACK_FAILURE, at, "a described unit must start with INT32");
    }
    int count = in.readInt32();
    if (described) {
      int tagAt = in.position();
      int tag = readTag();
      if (tag != type.code()) {
        throw WireException.message(
            PmixStatus.ERR_PACK_MISMATCH, tagAt, "unit of type " + tag + ", " + type + " wanted");
      }
    }
    return count;
  }

  private int readTag() {
    return (int) in.readUnsigned(WireInput.BYTES16);
  }

  private void checkSingle(int count, int at) {
    if (count != 1) {
      int status =
          count > 1 ? PmixStatus.ERR_UNPACK_INADEQUATE_SPACE : PmixStatus.ERR_UNPACK_FAILURE;
      throw WireException.message(status, at, "one value wanted, the unit holds " + count);
    }
  }
}
