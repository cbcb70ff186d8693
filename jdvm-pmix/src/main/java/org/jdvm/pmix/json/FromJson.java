package org.jdvm.pmix.json;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jdvm.pmix.App;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Coord;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataBuffer;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Device;
import org.jdvm.pmix.DeviceDistance;
import org.jdvm.pmix.Endpoint;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Geometry;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.NodePid;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Pointer;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Regex2;
import org.jdvm.pmix.ResourceUnit;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.FloatText;

/** The JSON forms of {@link ValueJson} to data in the Java representation of {@link Value}. */
final class FromJson {
  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final long U8 = 0xFF;
  private static final long U16 = 0xFFFF;
  private static final long U32 = 0xFFFF_FFFFL;

  private FromJson() {}

  static Object datum(DataType type, JsonNode node) {
    if (Value.isIntegerType(type)) {
      return integer(type, node);
    }
    return switch (type) {
      case UNDEF -> null;
      case BOOL -> node.bool();
      case STRING, PROC_NSPACE, PROC_CPUSET, TOPO -> node.nullableString();
      case FLOAT -> floatValue(node);
      case DOUBLE -> doubleValue(node);
      case TIMEVAL ->
          new Timeval(
              node.get("tv_sec").longValue(Long.MIN_VALUE, Long.MAX_VALUE),
              node.get("tv_usec").longValue(Long.MIN_VALUE, Long.MAX_VALUE));
      case POINTER -> Pointer.INSTANCE;
      case VALUE -> value(node);
      case PROC -> proc(node);
      case INFO -> info(node);
      case DATA_ARRAY -> array(node);
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT -> bytes(node.get("bytes_hex"));
      case DATA_BUFFER -> new DataBuffer(bytes(node.get("payload_hex")));
      default -> struct(type, node);
    };
  }

  private static Object struct(DataType type, JsonNode node) {
    return switch (type) {
      case APP -> app(node);
      case PDATA ->
          new PData(proc(node.get("proc")), node.get("key").string(), value(node.get("value")));
      case KVAL -> new KVal(node.get("key").nullableString(), value(node.get("value")));
      case QUERY -> new Query(strings(node.get("keys")), infos(node.get("qualifiers")));
      case PROC_INFO -> procInfo(node);
      case ENVAR -> envar(node);
      case COORD -> coord(node);
      case REGATTR -> regattr(node);
      case GEOMETRY -> geometry(node);
      case DEVICE_DIST -> deviceDistance(node);
      case ENDPOINT ->
          new Endpoint(
              node.get("uuid").nullableString(),
              node.get("osname").nullableString(),
              bytes(node.get("bytes_hex")));
      case DEVICE ->
          new Device(
              node.get("uuid").nullableString(),
              node.get("osname").nullableString(),
              unsigned64(node.get("devtype")));
      case RESOURCE_UNIT ->
          new ResourceUnit(unsigned64(node.get("devtype")), unsigned64(node.get("count")));
      case NODE_PID ->
          new NodePid(
              node.get("hostname").nullableString(),
              node.get("nodeid").longValue(0, U32),
              node.get("pid").longValue(0, U32));
      case REGEX2 -> new Regex2(node.get("type").nullableString(), bytes(node.get("bytes_hex")));
      default ->
          throw new JsonException(node.path() + ": " + type.pmixName() + " has no JSON form");
    };
  }

  /** An integer-like datum: unsigned 64-bit types take [0, 2^64-1], the rest their own range. */
  static long integer(DataType type, JsonNode node) {
    if (Value.isUnsigned64(type)) {
      return unsigned64(node);
    }
    long v = node.longValue(Long.MIN_VALUE, Long.MAX_VALUE);
    if (!Value.fits(type, v)) {
      throw node.error("a " + type.pmixName() + ", not " + v);
    }
    return v;
  }

  private static long unsigned64(JsonNode node) {
    return node.integer(BigInteger.ZERO, U64_MAX).longValue();
  }

  /** A number, or the %f specials "nan"/"inf" as strings (JSON has no literal for them). */
  private static Float floatValue(JsonNode node) {
    String text = node.json() instanceof String s ? s : node.numberText();
    Float f = FloatText.parseFloat(text);
    if (f == null) {
      throw node.error("a float");
    }
    return f;
  }

  private static Double doubleValue(JsonNode node) {
    String text = node.json() instanceof String s ? s : node.numberText();
    Double d = FloatText.parseDouble(text);
    if (d == null) {
      throw node.error("a double");
    }
    return d;
  }

  /** {"type": "PMIX_...", "data": ...}; "data" is absent for PMIX_UNDEF. */
  static Value value(JsonNode node) {
    DataType type = ValueJson.typeOf(node.get("type"));
    if (type == DataType.UNDEF) {
      return Value.UNDEF;
    }
    Object datum = datum(type, node.get("data"));
    try {
      return new Value(type, datum);
    } catch (IllegalArgumentException e) {
      throw new JsonException(node.path() + ": " + e.getMessage());
    }
  }

  static Proc proc(JsonNode node) {
    return new Proc(node.get("nspace").string(), (int) node.get("rank").longValue(0, U32));
  }

  static Info info(JsonNode node) {
    JsonNode flags = node.opt("flags");
    int f = flags == null ? 0 : (int) flags.longValue(0, U32);
    return new Info(node.get("key").string(), f, value(node.get("value")));
  }

  private static List<Info> infos(JsonNode node) {
    List<Info> infos = new ArrayList<>();
    for (int i = 0; i < node.array().size(); i++) {
      infos.add(info(node.element(i)));
    }
    return infos;
  }

  private static List<String> strings(JsonNode node) {
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < node.array().size(); i++) {
      strings.add(node.element(i).string());
    }
    return strings;
  }

  /** {"type": T, "array": [...]}, or {"type": "PMIX_UNDEF", "size": n}. */
  private static DataArray array(JsonNode node) {
    DataType type = ValueJson.typeOf(node.get("type"));
    if (type == DataType.UNDEF) {
      return new DataArray(
          DataType.UNDEF, (int) node.get("size").longValue(0, Integer.MAX_VALUE), List.of());
    }
    JsonNode array = node.get("array");
    List<Object> elements = new ArrayList<>();
    for (int i = 0; i < array.array().size(); i++) {
      elements.add(datum(type, array.element(i)));
    }
    try {
      return DataArray.of(type, elements);
    } catch (IllegalArgumentException e) {
      throw new JsonException(node.path() + ": " + e.getMessage());
    }
  }

  static ByteObject bytes(JsonNode node) {
    try {
      return ByteObject.of(HexFormat.of().parseHex(node.string()));
    } catch (IllegalArgumentException e) {
      throw node.error("an even number of hex digits");
    }
  }

  private static App app(JsonNode node) {
    JsonNode maxprocs = node.opt("maxprocs");
    return new App(
        node.get("cmd").nullableString(),
        optStrings(node.opt("argv")),
        optStrings(node.opt("env")),
        optNullableString(node.opt("cwd")),
        maxprocs == null ? 0 : (int) maxprocs.longValue(Integer.MIN_VALUE, Integer.MAX_VALUE),
        node.opt("info") == null ? List.of() : infos(node.get("info")));
  }

  private static List<String> optStrings(JsonNode node) {
    return node == null ? List.of() : strings(node);
  }

  private static String optNullableString(JsonNode node) {
    return node == null ? null : node.nullableString();
  }

  private static ProcInfo procInfo(JsonNode node) {
    JsonNode exit = node.opt("exit_code");
    return new ProcInfo(
        proc(node.get("proc")),
        node.get("hostname").nullableString(),
        node.get("executable_name").nullableString(),
        node.get("pid").longValue(0, U32),
        exit == null ? 0 : (int) exit.longValue(Integer.MIN_VALUE, Integer.MAX_VALUE),
        (int) node.get("state").longValue(0, U8));
  }

  private static Envar envar(JsonNode node) {
    JsonNode sep = node.get("separator");
    String s = sep.string();
    if (s.length() != 1 || s.charAt(0) > 0xFF) {
      throw sep.error("a one-character separator");
    }
    return new Envar(
        node.get("envar").nullableString(), node.get("value").nullableString(), (byte) s.charAt(0));
  }

  private static Coord coord(JsonNode node) {
    JsonNode coords = node.get("coord");
    List<Long> values = new ArrayList<>();
    for (int i = 0; i < coords.array().size(); i++) {
      values.add(coords.element(i).longValue(0, U32));
    }
    return new Coord((int) node.get("view").longValue(0, U8), values);
  }

  private static RegAttr regattr(JsonNode node) {
    return new RegAttr(
        node.get("name").nullableString(),
        node.get("string").string(),
        (int) node.get("type").longValue(0, U16),
        strings(node.get("description")));
  }

  private static Geometry geometry(JsonNode node) {
    JsonNode coords = node.get("coordinates");
    List<Coord> list = new ArrayList<>();
    for (int i = 0; i < coords.array().size(); i++) {
      list.add(coord(coords.element(i)));
    }
    return new Geometry(
        unsigned64(node.get("fabric")),
        node.get("uuid").nullableString(),
        node.get("osname").nullableString(),
        list);
  }

  private static DeviceDistance deviceDistance(JsonNode node) {
    return new DeviceDistance(
        node.get("uuid").nullableString(),
        node.get("osname").nullableString(),
        unsigned64(node.get("devtype")),
        (int) node.get("mindist").longValue(0, U16),
        (int) node.get("maxdist").longValue(0, U16));
  }
}
