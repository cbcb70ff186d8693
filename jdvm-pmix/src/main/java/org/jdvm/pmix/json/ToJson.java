package org.jdvm.pmix.json;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Regex2;
import org.jdvm.pmix.ResourceUnit;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.FloatText;

/** Data in the Java representation of {@link Value} to the JSON forms of {@link ValueJson}. */
final class ToJson {
  private ToJson() {}

  static Object datum(DataType type, Object datum) {
    if (Value.isIntegerType(type)) {
      return integer(type, (Long) datum);
    }
    return switch (type) {
      case UNDEF -> null;
      case BOOL, STRING, PROC_NSPACE, PROC_CPUSET, TOPO, COMPRESSED_STRING -> datum;
      case FLOAT -> finite((Float) datum) ? datum : FloatText.format((Float) datum);
      case DOUBLE -> finite((Double) datum) ? datum : FloatText.format((Double) datum);
      case TIMEVAL -> timeval((Timeval) datum);
      case POINTER -> ValueJson.POINTER_TEXT;
      case VALUE -> value((Value) datum);
      case PROC -> proc((Proc) datum);
      case INFO -> info((Info) datum);
      case DATA_ARRAY -> array((DataArray) datum);
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT -> object("bytes_hex", hex((ByteObject) datum));
      case DATA_BUFFER -> object("payload_hex", hex(((DataBuffer) datum).payload()));
      default -> struct(type, datum);
    };
  }

  private static Object struct(DataType type, Object datum) {
    return switch (type) {
      case APP -> app((App) datum);
      case PDATA -> pdata((PData) datum);
      case KVAL -> kval((KVal) datum);
      case QUERY -> query((Query) datum);
      case PROC_INFO -> procInfo((ProcInfo) datum);
      case ENVAR -> envar((Envar) datum);
      case COORD -> coord((Coord) datum);
      case REGATTR -> regattr((RegAttr) datum);
      case GEOMETRY -> geometry((Geometry) datum);
      case DEVICE_DIST -> deviceDistance((DeviceDistance) datum);
      case ENDPOINT -> endpoint((Endpoint) datum);
      case DEVICE -> device((Device) datum);
      case RESOURCE_UNIT -> resourceUnit((ResourceUnit) datum);
      case NODE_PID -> nodePid((NodePid) datum);
      case REGEX2 -> regex2((Regex2) datum);
      default -> throw new JsonException(type.pmixName() + " has no JSON form");
    };
  }

  /** A 64-bit unsigned value beyond {@code Long.MAX_VALUE} becomes an exact big integer. */
  static Object integer(DataType type, long v) {
    if (v < 0 && Value.isUnsigned64(type)) {
      return new BigInteger(Long.toUnsignedString(v));
    }
    return v;
  }

  private static boolean finite(double d) {
    return !Double.isNaN(d) && !Double.isInfinite(d);
  }

  static String hex(ByteObject bo) {
    return HexFormat.of().formatHex(bo.toByteArray());
  }

  private static Map<String, Object> object(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  static Map<String, Object> value(Value v) {
    if (v.type() == DataType.UNDEF) {
      return object("type", DataType.UNDEF.pmixName());
    }
    return object("type", v.type().pmixName(), "data", datum(v.type(), v.data()));
  }

  static Map<String, Object> proc(Proc p) {
    return object("nspace", p.nspace(), "rank", Integer.toUnsignedLong(p.rank()));
  }

  static Map<String, Object> info(Info info) {
    return object(
        "key",
        info.key(),
        "flags",
        Integer.toUnsignedLong(info.flags()),
        "value",
        value(info.value()));
  }

  private static List<Object> infos(List<Info> infos) {
    List<Object> list = new ArrayList<>(infos.size());
    for (Info info : infos) {
      list.add(info(info));
    }
    return list;
  }

  private static Map<String, Object> timeval(Timeval t) {
    return object("tv_sec", t.seconds(), "tv_usec", t.microseconds());
  }

  private static Map<String, Object> array(DataArray array) {
    if (array.type() == DataType.UNDEF) {
      return object("type", DataType.UNDEF.pmixName(), "size", (long) array.size());
    }
    List<Object> elements = new ArrayList<>(array.size());
    for (Object element : array.elements()) {
      elements.add(datum(array.type(), element));
    }
    return object("type", array.type().pmixName(), "array", elements);
  }

  private static Map<String, Object> app(App app) {
    return object(
        "cmd", app.cmd(),
        "argv", app.argv(),
        "env", app.env(),
        "cwd", app.cwd(),
        "maxprocs", (long) app.maxprocs(),
        "info", infos(app.info()));
  }

  private static Map<String, Object> pdata(PData p) {
    return object("proc", proc(p.proc()), "key", p.key(), "value", value(p.value()));
  }

  private static Map<String, Object> kval(KVal k) {
    return object("key", k.key(), "value", value(k.value()));
  }

  private static Map<String, Object> query(Query q) {
    return object("keys", q.keys(), "qualifiers", infos(q.qualifiers()));
  }

  private static Map<String, Object> procInfo(ProcInfo p) {
    return object(
        "proc", proc(p.proc()),
        "hostname", p.hostname(),
        "executable_name", p.executableName(),
        "pid", p.pid(),
        "exit_code", (long) p.exitCode(),
        "state", (long) p.state());
  }

  private static Map<String, Object> envar(Envar e) {
    String separator = String.valueOf((char) (e.separator() & 0xFF));
    return object("envar", e.envar(), "value", e.value(), "separator", separator);
  }

  private static Map<String, Object> coord(Coord c) {
    return object("view", (long) c.view(), "coord", c.coordinates());
  }

  private static Map<String, Object> regattr(RegAttr r) {
    return object(
        "name", r.name(),
        "string", r.string(),
        "type", (long) r.type(),
        "description", r.description());
  }

  private static Map<String, Object> geometry(Geometry g) {
    List<Object> coords = new ArrayList<>();
    for (Coord c : g.coordinates()) {
      coords.add(coord(c));
    }
    return object(
        "fabric", integer(DataType.SIZE, g.fabric()),
        "uuid", g.uuid(),
        "osname", g.osname(),
        "coordinates", coords);
  }

  private static Map<String, Object> deviceDistance(DeviceDistance d) {
    return object(
        "uuid", d.uuid(),
        "osname", d.osname(),
        "devtype", integer(DataType.DEVTYPE, d.deviceType()),
        "mindist", (long) d.minDistance(),
        "maxdist", (long) d.maxDistance());
  }

  private static Map<String, Object> endpoint(Endpoint e) {
    return object("uuid", e.uuid(), "osname", e.osname(), "bytes_hex", hex(e.endpoint()));
  }

  private static Map<String, Object> device(Device d) {
    return object(
        "uuid",
        d.uuid(),
        "osname",
        d.osname(),
        "devtype",
        integer(DataType.DEVTYPE, d.deviceType()));
  }

  private static Map<String, Object> resourceUnit(ResourceUnit u) {
    return object(
        "devtype", integer(DataType.DEVTYPE, u.deviceType()),
        "count", integer(DataType.SIZE, u.count()));
  }

  private static Map<String, Object> nodePid(NodePid n) {
    return object("hostname", n.hostname(), "nodeid", n.nodeId(), "pid", n.pid());
  }

  private static Map<String, Object> regex2(Regex2 r) {
    return object("type", r.type(), "bytes_hex", hex(r.regex()));
  }
}
