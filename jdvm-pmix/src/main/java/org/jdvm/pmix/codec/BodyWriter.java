package org.jdvm.pmix.codec;

import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;

/**
 * Writes the body of each data type (pmix-wire.md §3, §4): no count and no tag, as libpmix's
 * per-type pack functions do for nested fields. The only tags written here are the ones §2.3 lists
 * inside bodies: a value's type, an array's element type, and the UINT32 tag before every PID.
 *
 * <p>The structured types with no nesting of their own live in {@link StructWriter}.
 */
final class BodyWriter {
  /**
   * Deepest nesting of data arrays, as in OpenPMIx master ({@code bfrops_base_max_array_depth}).
   */
  static final int MAX_DEPTH = 100;

  private final WireOutput out;
  private final WireComponent component;
  private final StructWriter structs;
  private int depth;

  BodyWriter(WireOutput out, WireComponent component) {
    this.out = out;
    this.component = component;
    this.structs = new StructWriter(out, this);
  }

  WireOutput out() {
    return out;
  }

  WireException badParam(String detail) {
    return WireException.message(PmixStatus.ERR_BAD_PARAM, out.size(), detail);
  }

  /**
   * The bodies of one pack call. Two types write something once per call rather than per value, as
   * libpmix's pack functions do: POINTER its one sentinel byte, whatever the count, and PID its
   * UINT32 tag before all the pids (a lone PID nested in a structure is a call of its own, so it
   * always has its tag).
   */
  void writeBodies(DataType type, List<?> values) {
    switch (type) {
      case POINTER -> out.writeByte(1);
      case PID -> {
        writeType(DataType.UINT32);
        for (Object pid : values) {
          out.writeUnsigned((Long) pid);
        }
      }
      default -> {
        for (Object value : values) {
          writeBody(type, value);
        }
      }
    }
  }

  /** A type tag: the code as a UINT16 varint, one byte for every code below 128. */
  void writeType(DataType type) {
    out.writeUnsigned(type.code());
  }

  void writeBody(DataType type, Object datum) {
    if (Value.isIntegerType(type)) {
      writeInteger(type, (Long) datum);
      return;
    }
    switch (type) {
      case UNDEF -> {} // only inside a value, where it has no payload
      case BOOL -> out.writeByte((Boolean) datum ? 1 : 0);
      case STRING, PROC_NSPACE, PROC_CPUSET, TOPO -> out.writeString((String) datum, -1);
      case FLOAT -> out.writeString(FloatText.format((Float) datum), -1);
      case DOUBLE -> out.writeString(FloatText.format((Double) datum), -1);
      case TIMEVAL -> writeTimeval((Timeval) datum);
      case VALUE -> writeValue((Value) datum);
      case PROC -> writeProc((Proc) datum);
      case INFO -> writeInfo((Info) datum);
      case DATA_ARRAY -> writeArray((DataArray) datum);
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT -> writeByteObject((ByteObject) datum);
      case POINTER -> out.writeByte(1);
      default -> structs.write(type, datum);
    }
  }

  /** An integer-like body; the value is already known to be in the type's range. */
  void writeInteger(DataType type, long value) {
    switch (type) {
      case BYTE,
          INT8,
          UINT8,
          PERSIST,
          SCOPE,
          DATA_RANGE,
          COMMAND,
          PROC_STATE,
          JOB_STATE,
          LINK_STATE,
          ALLOC_DIRECTIVE,
          RESBLOCK_DIRECTIVE,
          ALLOC_INHERIT ->
          out.writeByte((int) value);
      case PID -> writePid(value);
      case INT, INT16, INT32, INT64, STATUS -> out.writeSigned(value);
      // UINT shares INT's pack function in libpmix: an INT32 zigzag of the same 32 bits
      case UINT -> out.writeSigned((int) value);
      default -> out.writeUnsigned(value);
    }
  }

  /** A single PID: its UINT32 tag ("system types must always be described"), then the pid. */
  void writePid(long pid) {
    writeType(DataType.UINT32);
    out.writeUnsigned(pid);
  }

  void writeTimeval(Timeval t) {
    out.writeSigned(t.seconds());
    out.writeSigned(t.microseconds());
  }

  void writeProc(Proc p) {
    out.writeString(p.nspace(), Proc.MAX_NSLEN);
    out.writeUnsigned(Integer.toUnsignedLong(p.rank()));
  }

  void writeKey(String key) {
    out.writeString(key, Info.MAX_KEYLEN);
  }

  /** Key, directive flags as a UINT32 varint, then the value's tag and payload (§4.2). */
  void writeInfo(Info info) {
    writeKey(info.key());
    out.writeUnsigned(Integer.toUnsignedLong(info.flags()));
    writeValue(info.value());
  }

  /**
   * A value: its type tag, then the body of that type. A component that does not register the type
   * fails the way libpmix's {@code pack_val} does ("UNSUPPORTED TYPE", {@code PMIX_ERROR}).
   */
  void writeValue(Value value) {
    DataType type = value.type();
    if (!component.supports(type)) {
      throw WireException.message(
          PmixStatus.ERROR,
          out.size(),
          "UNSUPPORTED TYPE " + type.code() + " in a value for " + component.wireName());
    }
    writeType(type);
    writeBody(type, value.data());
  }

  /**
   * Element type, size, then the elements without tags (§4.3). An UNDEF-typed array writes the
   * 4.2.2 layout (tag and size, no elements); jdvm's own code never builds one, but decoded ones
   * must re-encode to their bytes.
   */
  void writeArray(DataArray array) {
    DataType type = array.type();
    if (!component.supports(type) || type == DataType.COMPRESSED_STRING) {
      throw WireException.message(
          PmixStatus.ERR_UNKNOWN_DATA_TYPE,
          out.size(),
          type.pmixName() + " arrays are not registered by " + component.wireName());
    }
    if (depth >= MAX_DEPTH) {
      throw badParam("data arrays nested deeper than " + MAX_DEPTH);
    }
    depth++;
    try {
      writeType(type);
      out.writeUnsigned(array.size());
      if (array.size() > 0 && type != DataType.UNDEF) {
        writeBodies(type, array.elements());
      }
    } finally {
      depth--;
    }
  }

  void writeByteObject(ByteObject bo) {
    out.writeUnsigned(bo.size());
    byte[] bytes = bo.toByteArray();
    out.writeBytes(bytes, 0, bytes.length);
  }

  /** Checks a field the model holds wider than the wire does. */
  void checkRange(String field, long value, long min, long max) {
    if (value < min || value > max) {
      throw badParam(field + " " + value + " is outside [" + min + ", " + max + "]");
    }
  }
}
