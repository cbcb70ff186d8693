package org.jdvm.pmix;

import java.util.List;
import java.util.Objects;

/**
 * A typed value ({@code pmix_value_t}, pmix-wire.md §4.1): a data type and the datum in that type's
 * Java representation.
 *
 * <p>Representations, one per type, also used for the elements of a pack call and of a {@link
 * DataArray}:
 *
 * <ul>
 *   <li>{@link DataType#UNDEF}: {@code null}.
 *   <li>BOOL: {@link Boolean}.
 *   <li>Every integer-like type (BYTE, the INT and UINT families, SIZE, PID, TIME, STATUS,
 *       PROC_RANK, the one-byte enums such as ALLOC_DIRECTIVE and ALLOC_INHERIT, INFO_DIRECTIVES,
 *       DATA_TYPE, IOF_CHANNEL, LOCTYPE, DEVTYPE and the STOR_ types): {@link Long}, range-checked
 *       for the type; 64-bit unsigned types use all 64 bits of the long.
 *   <li>FLOAT: {@link Float}; DOUBLE: {@link Double}.
 *   <li>STRING, PROC_NSPACE, PROC_CPUSET, TOPO: {@link String}, which may be {@code null} for
 *       STRING.
 *   <li>The structured types: their records in this package ({@link Proc}, {@link Info}, {@link
 *       DataArray}, {@link App}, ...); POINTER: {@link Pointer#INSTANCE}.
 * </ul>
 *
 * <p>A value may not carry VALUE, INFO, PDATA, APP, KVAL or BUFFER (libpmix refuses them in both
 * directions). Values are immutable, so copying one is sharing it; equality is by content.
 */
public record Value(DataType type, Object data) {
  /** The value of type UNDEF. */
  public static final Value UNDEF = new Value(DataType.UNDEF, null);

  public Value {
    Objects.requireNonNull(type, "type");
    switch (type) {
      case VALUE, INFO, PDATA, APP, KVAL, BUFFER ->
          throw new IllegalArgumentException("a value cannot carry " + type.pmixName());
      default -> checkRepresentation(type, data);
    }
  }

  // ---- factories -----------------------------------------------------------------------------

  public static Value bool(boolean b) {
    return new Value(DataType.BOOL, b);
  }

  public static Value string(String s) {
    return new Value(DataType.STRING, s);
  }

  public static Value uint8(int v) {
    return new Value(DataType.UINT8, (long) v);
  }

  public static Value uint16(int v) {
    return new Value(DataType.UINT16, (long) v);
  }

  public static Value uint32(long v) {
    return new Value(DataType.UINT32, v);
  }

  public static Value uint64(long v) {
    return new Value(DataType.UINT64, v);
  }

  public static Value int32(int v) {
    return new Value(DataType.INT32, (long) v);
  }

  public static Value integer(int v) {
    return new Value(DataType.INT, (long) v);
  }

  public static Value size(long v) {
    return new Value(DataType.SIZE, v);
  }

  public static Value pid(long v) {
    return new Value(DataType.PID, v);
  }

  public static Value status(int v) {
    return new Value(DataType.STATUS, (long) v);
  }

  public static Value rank(int rank) {
    return new Value(DataType.PROC_RANK, Integer.toUnsignedLong(rank));
  }

  public static Value proc(Proc p) {
    return new Value(DataType.PROC, p);
  }

  public static Value nspace(String nspace) {
    return new Value(DataType.PROC_NSPACE, nspace);
  }

  public static Value inheritance(AllocInheritance i) {
    return new Value(DataType.ALLOC_INHERIT, (long) i.code());
  }

  public static Value directive(AllocDirective d) {
    return new Value(DataType.ALLOC_DIRECTIVE, (long) d.code());
  }

  public static Value array(DataArray a) {
    return new Value(DataType.DATA_ARRAY, a);
  }

  public static Value of(DataType type, long integer) {
    return new Value(type, integer);
  }

  // ---- accessors -----------------------------------------------------------------------------

  /** The datum of an integer-like value. */
  public long asLong() {
    if (data instanceof Long l) {
      return l;
    }
    throw new ClassCastException(type.pmixName() + " is not an integer type");
  }

  /** The datum of an integer-like value that fits in an {@code int} as an unsigned or signed. */
  public int asInt() {
    long v = asLong();
    if (v < Integer.MIN_VALUE || v > 0xFFFFFFFFL) {
      throw new ArithmeticException(type.pmixName() + " value " + v + " does not fit 32 bits");
    }
    return (int) v;
  }

  public boolean asBoolean() {
    if (data instanceof Boolean b) {
      return b;
    }
    throw new ClassCastException(type.pmixName() + " is not BOOL");
  }

  /** The datum of a string-like value (STRING, PROC_NSPACE, PROC_CPUSET, TOPO); may be null. */
  public String asString() {
    if (data == null || data instanceof String) {
      return (String) data;
    }
    throw new ClassCastException(type.pmixName() + " is not a string type");
  }

  public Proc asProc() {
    return as(Proc.class);
  }

  public DataArray asArray() {
    return as(DataArray.class);
  }

  /** The datum as the given record type. */
  public <T> T as(Class<T> javaType) {
    if (javaType.isInstance(data)) {
      return javaType.cast(data);
    }
    throw new ClassCastException(type.pmixName() + " does not hold " + javaType.getSimpleName());
  }

  // ---- representation ------------------------------------------------------------------------

  /**
   * Checks that {@code data} is the Java representation of {@code type} and within its range.
   *
   * @throws IllegalArgumentException if it is not
   */
  public static void checkRepresentation(DataType type, Object data) {
    String problem = representationProblem(type, data);
    if (problem != null) {
      throw new IllegalArgumentException(type.pmixName() + ": " + problem);
    }
  }

  private static String representationProblem(DataType type, Object data) {
    return switch (type) {
      case UNDEF -> data == null ? null : "UNDEF carries no datum";
      case BOOL -> data instanceof Boolean ? null : "expects a Boolean";
      case STRING -> data == null || data instanceof String ? null : "expects a String";
      case PROC_NSPACE, PROC_CPUSET, TOPO ->
          data == null || data instanceof String ? null : "expects a String";
      case FLOAT -> data instanceof Float ? null : "expects a Float";
      case DOUBLE -> data instanceof Double ? null : "expects a Double";
      case TIMEVAL -> data instanceof Timeval ? null : "expects a Timeval";
      case PROC -> data instanceof Proc ? null : "expects a Proc";
      case APP -> data instanceof App ? null : "expects an App";
      case INFO -> data instanceof Info ? null : "expects an Info";
      case PDATA -> data instanceof PData ? null : "expects a PData";
      case VALUE -> data instanceof Value ? null : "expects a Value";
      case KVAL -> data instanceof KVal ? null : "expects a KVal";
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT ->
          data instanceof ByteObject ? null : "expects a ByteObject";
      case POINTER -> data == Pointer.INSTANCE ? null : "expects Pointer.INSTANCE";
      case PROC_INFO -> data instanceof ProcInfo ? null : "expects a ProcInfo";
      case DATA_ARRAY -> data instanceof DataArray ? null : "expects a DataArray";
      case QUERY -> data instanceof Query ? null : "expects a Query";
      case ENVAR -> data instanceof Envar ? null : "expects an Envar";
      case COORD -> data instanceof Coord ? null : "expects a Coord";
      case REGATTR -> data instanceof RegAttr ? null : "expects a RegAttr";
      case GEOMETRY -> data instanceof Geometry ? null : "expects a Geometry";
      case DEVICE_DIST -> data instanceof DeviceDistance ? null : "expects a DeviceDistance";
      case ENDPOINT -> data instanceof Endpoint ? null : "expects an Endpoint";
      case DATA_BUFFER -> data instanceof DataBuffer ? null : "expects a DataBuffer";
      case DEVICE -> data instanceof Device ? null : "expects a Device";
      case RESOURCE_UNIT -> data instanceof ResourceUnit ? null : "expects a ResourceUnit";
      case NODE_PID -> data instanceof NodePid ? null : "expects a NodePid";
      case REGEX2 -> data instanceof Regex2 ? null : "expects a Regex2";
      case BUFFER, COMPRESSED_STRING, REGEX, PROC_STATS, DISK_STATS, NET_STATS, NODE_STATS ->
          "not supported by jdvm";
      default -> integerProblem(type, data);
    };
  }

  private static String integerProblem(DataType type, Object data) {
    if (!(data instanceof Long l)) {
      return "expects a Long";
    }
    long v = l;
    long[] range = integerRange(type);
    if (range == null) {
      return null; // full 64 bits
    }
    return v >= range[0] && v <= range[1]
        ? null
        : "value " + v + " outside [" + range[0] + ", " + range[1] + "]";
  }

  private static final long[] U8 = {0, 0xFF};
  private static final long[] S8 = {Byte.MIN_VALUE, Byte.MAX_VALUE};
  private static final long[] S16 = {Short.MIN_VALUE, Short.MAX_VALUE};
  private static final long[] U16 = {0, 0xFFFF};
  private static final long[] S32 = {Integer.MIN_VALUE, Integer.MAX_VALUE};
  private static final long[] U32 = {0, 0xFFFFFFFFL};

  /**
   * The inclusive range of an integer-like type, or {@code null} when all 64 bits are valid (INT64
   * signed; UINT64, SIZE, TIME and the 64-bit bit masks unsigned).
   */
  static long[] integerRange(DataType type) {
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
          U8;
      case INT8 -> S8;
      case INT16 -> S16;
      case UINT16, IOF_CHANNEL, LOCTYPE, STOR_ACCESS_TYPE, DATA_TYPE -> U16;
      case INT, INT32, STATUS -> S32;
      case UINT, UINT32, PID, PROC_RANK, INFO_DIRECTIVES -> U32;
      default -> null;
    };
  }

  /**
   * Whether {@code value} is in the range of the integer-like {@code type}, checked without boxing
   * (the codec's hot path packs integers this way). False for a type that is not integer-like.
   */
  public static boolean fits(DataType type, long value) {
    if (!isIntegerType(type)) {
      return false;
    }
    long[] range = integerRange(type);
    return range == null || (value >= range[0] && value <= range[1]);
  }

  /** Whether the type's representation is {@link Long}. */
  public static boolean isIntegerType(DataType type) {
    return switch (type) {
      case INT64, UINT64, SIZE, TIME, DEVTYPE, STOR_MEDIUM, STOR_ACCESS, STOR_PERSIST -> true;
      default -> integerRange(type) != null;
    };
  }

  /** Whether the 64-bit integer type is unsigned (so {@link Long} bits are read unsigned). */
  public static boolean isUnsigned64(DataType type) {
    return switch (type) {
      case UINT64, SIZE, TIME, DEVTYPE, STOR_MEDIUM, STOR_ACCESS, STOR_PERSIST -> true;
      default -> false;
    };
  }

  /** A list of values of one type, checked. */
  public static List<Object> checkAll(DataType type, List<?> data) {
    for (Object d : data) {
      checkRepresentation(type, d);
    }
    @SuppressWarnings("unchecked")
    List<Object> list = (List<Object>) data;
    return list;
  }
}
