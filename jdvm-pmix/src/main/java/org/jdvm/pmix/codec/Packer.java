package org.jdvm.pmix.codec;

import java.util.Arrays;
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
 * Builds a message body as libpmix does: one {@code pack} call writes one unit (pmix-wire.md §2.3):
 * in a fully-described buffer the INT32 tag, then the count as a zigzag INT32, in a fully-described
 * buffer the declared type's tag, then the bodies one after another.
 *
 * <p>A packer is bound to one {@link WireFormat}: its component decides which types may be packed
 * (a {@code v41} packer refuses ALLOC_INHERIT as libpmix 4.2.2 does, §7) and its buffer type
 * whether units carry tags. A failed call throws {@link WireException} and leaves the bytes as they
 * were before it. Packers are reusable ({@link #reset()}) and not thread-safe.
 *
 * <pre>{@code
 * byte[] body = new Packer(WireFormat.V41)
 *     .packCommand(Commands.ALLOC_CMD)
 *     .packInteger(DataType.ALLOC_DIRECTIVE, AllocDirective.NEW.code())
 *     .packInfos(infos)
 *     .toByteArray();
 * }</pre>
 */
public final class Packer {
  private final WireFormat format;
  private final WireOutput out;
  private final BodyWriter bodies;

  public Packer(WireFormat format) {
    this(format, 256);
  }

  public Packer(WireFormat format, int initialCapacity) {
    this.format = Objects.requireNonNull(format, "format");
    this.out = new WireOutput(initialCapacity);
    this.bodies = new BodyWriter(out, format.component());
  }

  public WireFormat format() {
    return format;
  }

  /** The number of bytes packed so far. */
  public int size() {
    return out.size();
  }

  /** A copy of the bytes packed so far. */
  public byte[] toByteArray() {
    return out.toByteArray();
  }

  /** Copies the bytes packed so far into {@code dst} at {@code offset}. */
  public void copyTo(byte[] dst, int offset) {
    out.copyTo(dst, offset);
  }

  /** Forgets everything packed, keeping the buffer for the next message. */
  public Packer reset() {
    out.truncate(0);
    return this;
  }

  /**
   * One pack call of {@code values.size()} values of {@code type}, each in the Java representation
   * {@link Value} documents for the type (a {@link Value} for VALUE, an {@link Info} for INFO,
   * ...).
   *
   * @throws WireException {@code PMIX_ERR_UNKNOWN_DATA_TYPE} if the component does not register the
   *     type, {@code PMIX_ERROR} if a value or info carries such a type, {@code PMIX_ERR_BAD_PARAM}
   *     for a value that is not the type's representation or out of range
   */
  public Packer pack(DataType type, List<?> values) {
    int mark = out.size();
    try {
      checkPackable(type);
      for (Object value : values) {
        checkRepresentation(type, value);
      }
      writeHeader(type, values.size());
      bodies.writeBodies(type, values);
      return this;
    } catch (WireException e) {
      out.truncate(mark);
      throw e;
    } catch (ClassCastException | NullPointerException e) {
      out.truncate(mark);
      throw WireException.message(PmixStatus.ERR_BAD_PARAM, mark, "cannot pack: " + e);
    }
  }

  /** One pack call of the given values of {@code type}. */
  public Packer pack(DataType type, Object... values) {
    return pack(type, Arrays.asList(values));
  }

  /** One pack call of one value of an integer-like type, without boxing it. */
  public Packer packInteger(DataType type, long value) {
    int mark = out.size();
    try {
      checkPackable(type);
      if (!Value.fits(type, value)) {
        throw WireException.message(
            PmixStatus.ERR_BAD_PARAM, mark, value + " is not a " + type.pmixName());
      }
      writeHeader(type, 1);
      bodies.writeInteger(type, value);
      return this;
    } catch (WireException e) {
      out.truncate(mark);
      throw e;
    }
  }

  /** A COMMAND unit: the {@code pmix_cmd_t} that starts every client request (§9.4). */
  public Packer packCommand(int command) {
    return packInteger(DataType.COMMAND, command);
  }

  public Packer packStatus(int status) {
    return packInteger(DataType.STATUS, status);
  }

  /** A SIZE unit; {@code size} is read as unsigned. */
  public Packer packSize(long size) {
    return packInteger(DataType.SIZE, size);
  }

  public Packer packString(String s) {
    return pack(DataType.STRING, Collections.singletonList(s));
  }

  public Packer packProc(Proc proc) {
    return pack(DataType.PROC, List.of(proc));
  }

  public Packer packValue(Value value) {
    return pack(DataType.VALUE, List.of(value));
  }

  /**
   * A SIZE unit with the count, then, if there are any, one INFO unit holding them all: how every
   * request and reply carries its attributes (libpmix packs no INFO unit for zero infos).
   */
  public Packer packInfos(List<Info> infos) {
    return packCounted(DataType.INFO, infos);
  }

  /** SIZE n, then one APP unit of n apps, as a spawn request carries them. */
  public Packer packApps(List<App> apps) {
    return packCounted(DataType.APP, apps);
  }

  /** SIZE n, then one QUERY unit of n queries, as a query request carries them. */
  public Packer packQueries(List<Query> queries) {
    return packCounted(DataType.QUERY, queries);
  }

  /**
   * One deprecated {@code PMIX_BUFFER} unit of one buffer ({@link PackedBuffer}), as {@code
   * PMIx_Commit} sends it: the buffer type byte, then a byte object.
   */
  public Packer packBuffer(PackedBuffer buffer) {
    writeHeader(DataType.BUFFER, 1);
    out.writeByte(buffer.bufferType().code());
    bodies.writeByteObject(buffer.bytes());
    return this;
  }

  private Packer packCounted(DataType type, List<?> values) {
    int mark = out.size();
    try {
      packSize(values.size());
      if (!values.isEmpty()) {
        pack(type, values);
      }
      return this;
    } catch (WireException e) {
      out.truncate(mark);
      throw e;
    }
  }

  private void writeHeader(DataType type, int count) {
    boolean described = format.bufferType() == BufferType.FULLY_DESCRIBED;
    if (described) {
      bodies.writeType(DataType.INT32);
    }
    out.writeSigned(count);
    if (described) {
      bodies.writeType(type);
    }
  }

  /**
   * Whether a pack call of this type is possible: the component must register it (§5, §7), and jdvm
   * never sends UNDEF units or the deprecated COMPRESSED_STRING.
   */
  private void checkPackable(DataType type) {
    if (type == DataType.UNDEF
        || type == DataType.COMPRESSED_STRING
        || !format.component().supports(type)) {
      throw WireException.message(
          PmixStatus.ERR_UNKNOWN_DATA_TYPE,
          out.size(),
          type.pmixName() + " is not registered by " + format.component().wireName());
    }
  }

  private void checkRepresentation(DataType type, Object value) {
    try {
      Value.checkRepresentation(type, value);
    } catch (IllegalArgumentException e) {
      throw WireException.message(PmixStatus.ERR_BAD_PARAM, out.size(), e.getMessage());
    }
  }
}
