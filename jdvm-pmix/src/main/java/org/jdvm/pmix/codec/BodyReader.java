package org.jdvm.pmix.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Pointer;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;

/**
 * Reads the body of each data type (pmix-wire.md §3, §4), the inverse of {@link BodyWriter}.
 *
 * <p>Untrusted input: every count is checked against the bytes left before a list is started, lists
 * grow with what is actually decoded (a declared count never sizes an allocation), POINTER counts,
 * which cost one byte whatever their size, are capped, and data arrays nest at most {@link
 * BodyWriter#MAX_DEPTH} deep. Receivers decode what the sender meant: DATA_TYPE fields as unsigned
 * (§6.1) and COMPRESSED_STRING values as the STRING they hold.
 */
final class BodyReader {
  /**
   * The most pointers one pack call or array may declare. A pointer is a placeholder that costs a
   * single byte per call, so its count is not bounded by the bytes present; this bound keeps a
   * three-byte message from asking for billions of placeholders.
   */
  static final int MAX_POINTERS = 1 << 16;

  private final WireInput in;
  private final WireComponent component;
  private final StructReader structs;
  private int depth;

  BodyReader(WireInput in, WireComponent component) {
    this.in = in;
    this.component = component;
    this.structs = new StructReader(in, this);
  }

  WireInput in() {
    return in;
  }

  WireException failure(int status, String detail) {
    return in.failure(status, detail);
  }

  /**
   * Checks a declared element count before anything is read for it.
   *
   * @return the count as an int
   */
  int checkCount(long declared, DataType elementType, String what) {
    if (declared < 0 || declared > Integer.MAX_VALUE) {
      throw failure(PmixStatus.ERR_UNPACK_FAILURE, what + " " + declared + " is out of range");
    }
    if (elementType == DataType.POINTER) {
      if (declared > MAX_POINTERS) {
        throw failure(PmixStatus.ERR_UNPACK_FAILURE, declared + " pointers declared");
      }
    } else if (elementType != DataType.UNDEF) {
      in.require(declared, what);
    }
    return (int) declared;
  }

  /** A new list for {@code count} checked elements, sized by at most a few of them. */
  static <T> List<T> listFor(int count) {
    return new ArrayList<>(Math.min(count, 16));
  }

  /**
   * The bodies of one unpack call: POINTER reads its one sentinel whatever the count, PID its one
   * UINT32 tag before all the pids ({@link BodyWriter#writeBodies}).
   */
  List<Object> readBodies(DataType type, int count) {
    if (type == DataType.POINTER) {
      in.readByte();
      return Collections.nCopies(count, Pointer.INSTANCE);
    }
    List<Object> values = listFor(count);
    if (type == DataType.PID) {
      readPidTag();
      for (int i = 0; i < count; i++) {
        values.add(in.readUnsigned(WireInput.BYTES32));
      }
      return values;
    }
    for (int i = 0; i < count; i++) {
      values.add(readBody(type));
    }
    return values;
  }

  /** A type tag; a code PMIx does not define is {@code PMIX_ERR_UNKNOWN_DATA_TYPE}. */
  DataType readType() {
    int at = in.position();
    int code = (int) in.readUnsigned(WireInput.BYTES16);
    DataType type = DataType.fromCode(code);
    if (type == null) {
      throw WireException.message(
          PmixStatus.ERR_UNKNOWN_DATA_TYPE, at, "unknown data type " + code);
    }
    return type;
  }

  /** Refuses a type the connection's component does not register, as an old peer would. */
  void checkSupported(DataType type, int at) {
    if (!component.supports(type)) {
      throw WireException.message(
          PmixStatus.ERR_UNKNOWN_DATA_TYPE,
          at,
          type.pmixName() + " is not registered by " + component.wireName());
    }
  }

  Object readBody(DataType type) {
    if (Value.isIntegerType(type)) {
      return readInteger(type);
    }
    return switch (type) {
      case UNDEF -> null;
      case BOOL -> in.readByte() != 0;
      case STRING, PROC_NSPACE, PROC_CPUSET, TOPO -> in.readString(-1);
      case FLOAT -> readFloat();
      case DOUBLE -> readDouble();
      case TIMEVAL ->
          new Timeval(in.readSigned(WireInput.BYTES64), in.readSigned(WireInput.BYTES64));
      case VALUE -> readValue();
      case PROC -> readProc();
      case INFO -> readInfo();
      case DATA_ARRAY -> readArray();
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT -> readByteObject();
      case COMPRESSED_STRING -> Compression.inflateString(readByteObject(), in);
      case POINTER -> readPointer();
      default -> structs.read(type);
    };
  }

  private Pointer readPointer() {
    in.readByte();
    return Pointer.INSTANCE;
  }

  /** An integer-like body, in the range of its type; DATA_TYPE is read unsigned (§6.1). */
  long readInteger(DataType type) {
    return switch (type) {
      case BYTE,
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
          in.readByte();
      case INT8 -> (byte) in.readByte();
      case PID -> readPid();
      case INT16 -> in.readSigned(WireInput.BYTES16);
      case INT, INT32, STATUS -> in.readSigned(WireInput.BYTES32);
      case INT64 -> in.readSigned(WireInput.BYTES64);
      case UINT -> Integer.toUnsignedLong(in.readInt32());
      case UINT16, IOF_CHANNEL, LOCTYPE, STOR_ACCESS_TYPE, DATA_TYPE ->
          in.readUnsigned(WireInput.BYTES16);
      case UINT32, PROC_RANK, INFO_DIRECTIVES -> in.readUnsigned(WireInput.BYTES32);
      default -> in.readUnsigned(WireInput.BYTES64);
    };
  }

  /** A single PID: the UINT32 tag libpmix writes for each pack call of pids, then the pid. */
  long readPid() {
    readPidTag();
    return in.readUnsigned(WireInput.BYTES32);
  }

  private void readPidTag() {
    int at = in.position();
    DataType tag = readType();
    if (tag != DataType.UINT32) {
      throw WireException.message(
          PmixStatus.ERR_UNPACK_FAILURE, at, "pids are tagged " + tag.pmixName());
    }
  }

  private Float readFloat() {
    int at = in.position();
    Float f = FloatText.parseFloat(in.readString(-1));
    if (f == null) {
      throw WireException.message(PmixStatus.ERR_UNPACK_FAILURE, at, "not a float's text");
    }
    return f;
  }

  private Double readDouble() {
    int at = in.position();
    Double d = FloatText.parseDouble(in.readString(-1));
    if (d == null) {
      throw WireException.message(PmixStatus.ERR_UNPACK_FAILURE, at, "not a double's text");
    }
    return d;
  }

  Proc readProc() {
    String nspace = in.readString(Proc.MAX_NSLEN);
    long rank = in.readUnsigned(WireInput.BYTES32);
    return new Proc(nspace == null ? "" : nspace, (int) rank);
  }

  /** A key: libpmix keeps at most 511 bytes and loads NULL as the empty key. */
  String readKey() {
    String key = in.readString(Info.MAX_KEYLEN);
    return key == null ? "" : key;
  }

  Info readInfo() {
    String key = readKey();
    long flags = in.readUnsigned(WireInput.BYTES32);
    return new Info(key, (int) flags, readValue());
  }

  /**
   * A value's tag and payload. A value may not carry a VALUE, INFO, PDATA, APP, KVAL or BUFFER
   * ({@code PMIX_ERR_BAD_PARAM}, as master refuses them); a compressed string is inflated into the
   * STRING it holds, as master's {@code unpack_val} does.
   */
  Value readValue() {
    int at = in.position();
    DataType type = readType();
    switch (type) {
      case UNDEF:
        return Value.UNDEF;
      case VALUE, INFO, PDATA, APP, KVAL, BUFFER:
        throw WireException.message(
            PmixStatus.ERR_BAD_PARAM, at, "a value cannot carry " + type.pmixName());
      case COMPRESSED_STRING:
        return Value.string(Compression.inflateString(readByteObject(), in));
      default:
        checkSupported(type, at);
        return new Value(type, readBody(type));
    }
  }

  /**
   * Element type, size, elements (§4.3). An UNDEF element type is read in the 4.2.2 layout (tag and
   * size, no elements), the only one verified against real bytes.
   */
  DataArray readArray() {
    int at = in.position();
    if (depth >= BodyWriter.MAX_DEPTH) {
      throw failure(PmixStatus.ERR_UNPACK_FAILURE, "arrays nested deeper than " + depth);
    }
    DataType type = readType();
    if (type == DataType.COMPRESSED_STRING) {
      throw WireException.message(
          PmixStatus.ERR_UNKNOWN_DATA_TYPE, at, "jdvm does not hold compressed-string arrays");
    }
    checkSupported(type, at);
    int size = checkCount(in.readUnsigned(WireInput.BYTES64), type, "an array size");
    if (type == DataType.UNDEF) {
      return new DataArray(DataType.UNDEF, size, List.of());
    }
    depth++;
    try {
      List<Object> elements = size == 0 ? List.of() : readBodies(type, size);
      return new DataArray(type, size, elements);
    } finally {
      depth--;
    }
  }

  ByteObject readByteObject() {
    long size = in.readUnsigned(WireInput.BYTES64);
    in.require(size, "a byte object");
    return size == 0 ? ByteObject.EMPTY : ByteObject.of(in.readBytes(size));
  }
}
