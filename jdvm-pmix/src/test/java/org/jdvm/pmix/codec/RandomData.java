package org.jdvm.pmix.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jdvm.pmix.App;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Coord;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataBuffer;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.DeviceDistance;
import org.jdvm.pmix.Endpoint;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Geometry;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;

/**
 * Seeded random data of the types a {@code v41} peer understands, for checking jdvm's bytes against
 * the real library. Leaves out what libpmix cannot round-trip by itself (DATA_TYPE and REGATTR,
 * §6.1) and what it reinterprets through hwloc (PROC_CPUSET, TOPO).
 */
final class RandomData {
  static final List<DataType> UNIT_TYPES =
      List.of(
          DataType.BOOL,
          DataType.BYTE,
          DataType.STRING,
          DataType.SIZE,
          DataType.PID,
          DataType.INT,
          DataType.INT8,
          DataType.INT16,
          DataType.INT32,
          DataType.INT64,
          DataType.UINT,
          DataType.UINT8,
          DataType.UINT16,
          DataType.UINT32,
          DataType.UINT64,
          DataType.FLOAT,
          DataType.DOUBLE,
          DataType.TIMEVAL,
          DataType.TIME,
          DataType.STATUS,
          DataType.VALUE,
          DataType.PROC,
          DataType.APP,
          DataType.INFO,
          DataType.PDATA,
          DataType.BYTE_OBJECT,
          DataType.PERSIST,
          DataType.SCOPE,
          DataType.DATA_RANGE,
          DataType.COMMAND,
          DataType.INFO_DIRECTIVES,
          DataType.PROC_STATE,
          DataType.PROC_INFO,
          DataType.DATA_ARRAY,
          DataType.PROC_RANK,
          DataType.QUERY,
          DataType.ALLOC_DIRECTIVE,
          DataType.IOF_CHANNEL,
          DataType.ENVAR,
          DataType.COORD,
          DataType.JOB_STATE,
          DataType.LINK_STATE,
          DataType.GEOMETRY,
          DataType.DEVICE_DIST,
          DataType.ENDPOINT,
          DataType.DEVTYPE,
          DataType.LOCTYPE,
          DataType.PROC_NSPACE,
          DataType.DATA_BUFFER,
          DataType.STOR_MEDIUM,
          DataType.STOR_ACCESS,
          DataType.STOR_PERSIST,
          DataType.STOR_ACCESS_TYPE);

  /** What a value may carry in these tests: the unit types less the ones a value cannot hold. */
  static final List<DataType> VALUE_TYPES =
      UNIT_TYPES.stream()
          .filter(
              t ->
                  switch (t) {
                    case VALUE, INFO, PDATA, APP, QUERY, DATA_BUFFER -> false;
                    default -> true;
                  })
          .toList();

  private final Random random;

  RandomData(long seed) {
    random = new Random(seed);
  }

  DataType unitType() {
    return UNIT_TYPES.get(random.nextInt(UNIT_TYPES.size()));
  }

  List<Object> values(DataType type, int count) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      values.add(datum(type, 0));
    }
    return values;
  }

  Object datum(DataType type, int depth) {
    if (Value.isIntegerType(type)) {
      return integer(type);
    }
    return switch (type) {
      case BOOL -> random.nextBoolean();
      case STRING -> random.nextInt(8) == 0 ? null : text(40);
      case PROC_NSPACE -> text(30);
      case FLOAT -> (float) (random.nextGaussian() * Math.pow(10, random.nextInt(12) - 4));
      case DOUBLE -> random.nextGaussian() * Math.pow(10, random.nextInt(30) - 8);
      case TIMEVAL -> new Timeval(random.nextLong(), random.nextInt(1_000_000));
      case VALUE -> value(depth);
      case PROC -> proc();
      case INFO -> info(depth);
      case PDATA -> new PData(proc(), key(), value(depth));
      case APP -> app(depth);
      case QUERY -> new Query(List.of(key(), key()), List.of(info(depth)));
      case BYTE_OBJECT -> bytes();
      case DATA_BUFFER -> new DataBuffer(bytes());
      case PROC_INFO ->
          new ProcInfo(proc(), text(10), text(20), random.nextInt(1 << 22), 0, random.nextInt(64));
      case DATA_ARRAY -> array(depth);
      case ENVAR -> new Envar(text(8), text(20), (byte) ':');
      case COORD -> coord();
      case GEOMETRY -> new Geometry(random.nextInt(4), text(8), text(8), List.of(coord(), coord()));
      case DEVICE_DIST ->
          new DeviceDistance(
              text(8),
              text(8),
              1L << random.nextInt(8),
              random.nextInt(100),
              100 + random.nextInt(100));
      case ENDPOINT -> new Endpoint(text(8), text(8), bytes());
      default -> throw new IllegalArgumentException(type.toString());
    };
  }

  /** Small values half the time, else a random 64-bit pattern shifted into the type's range. */
  private long integer(DataType type) {
    long small = random.nextInt(300);
    if (random.nextBoolean() && Value.fits(type, small)) {
      return small;
    }
    boolean signed =
        switch (type) {
          case INT, INT8, INT16, INT32, INT64, STATUS -> true;
          default -> false;
        };
    long v = random.nextLong();
    for (int shift = 0; shift < 64; shift++) {
      long candidate = signed ? v >> shift : v >>> shift;
      if (Value.fits(type, candidate)) {
        return candidate;
      }
    }
    return 0;
  }

  /** Text with the odd non-ASCII character, no NUL. */
  String text(int maxLength) {
    StringBuilder sb = new StringBuilder();
    int length = random.nextInt(maxLength + 1);
    for (int i = 0; i < length; i++) {
      sb.append(
          random.nextInt(20) == 0 ? "é€" : String.valueOf((char) (0x21 + random.nextInt(94))));
    }
    return sb.toString();
  }

  String key() {
    return "pmix." + text(20);
  }

  Proc proc() {
    return new Proc(text(20), random.nextInt(5) == 0 ? Proc.RANK_WILDCARD : random.nextInt(1000));
  }

  private ByteObject bytes() {
    byte[] b = new byte[random.nextInt(20)];
    random.nextBytes(b);
    return ByteObject.of(b);
  }

  private Coord coord() {
    return new Coord(
        1 + random.nextInt(2), List.of((long) random.nextInt(64), (long) random.nextInt(64)));
  }

  Value value(int depth) {
    DataType type = VALUE_TYPES.get(random.nextInt(VALUE_TYPES.size()));
    if (type == DataType.DATA_ARRAY && depth > 2) {
      type = DataType.UINT32;
    }
    return new Value(type, datum(type, depth + 1));
  }

  Info info(int depth) {
    return new Info(key(), random.nextInt(4) == 0 ? Info.REQUIRED : 0, value(depth));
  }

  private App app(int depth) {
    return new App(
        text(12),
        List.of(text(5), text(5)),
        List.of("A=" + text(4)),
        text(10),
        1 + random.nextInt(8),
        List.of(info(depth)));
  }

  private DataArray array(int depth) {
    List<DataType> elementTypes =
        List.of(DataType.STRING, DataType.UINT32, DataType.PROC, DataType.INFO, DataType.VALUE);
    DataType type = elementTypes.get(random.nextInt(elementTypes.size()));
    if (depth > 2) {
      type = DataType.UINT32;
    }
    List<Object> elements = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      elements.add(type == DataType.STRING ? text(8) : datum(type, depth + 1));
    }
    return DataArray.of(type, elements);
  }
}
