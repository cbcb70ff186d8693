package org.jdvm.pmix.codec;

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
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Regex2;
import org.jdvm.pmix.ResourceUnit;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;

/**
 * The result of comparing two values, and the comparison itself: the contract of {@code
 * PMIx_Value_compare} ({@code pmix_value_cmp_t}, declared in this order).
 *
 * <p>Values of different types are {@link #TYPE_DIFFERENT}. Numbers compare by value (64-bit
 * unsigned types unsigned), strings by their UTF-8 bytes with NULL lowest, byte objects by size and
 * then bytes, structures field by field in libpmix's order. Structures that describe different
 * things (coordinates of different views, geometries of different fabrics, devices or resource
 * units of different types) are {@link #INCOMPATIBLE_OBJECTS}; pointers and NaNs cannot be ordered
 * ({@link #COMPARISON_NOT_AVAIL}).
 */
public enum ValueComparison {
  EQUAL("EQUAL"),
  VALUE1_GREATER("VALUE1 GREATER"),
  VALUE2_GREATER("VALUE2 GREATER"),
  TYPE_DIFFERENT("DIFFERENT TYPES"),
  INCOMPATIBLE_OBJECTS("INCOMPATIBLE OBJECTS"),
  COMPARISON_NOT_AVAIL("COMPARISON NOT AVAILABLE");

  private final String label;

  ValueComparison(String label) {
    this.label = label;
  }

  /** The text of {@code PMIx_Value_comparison_string}, e.g. "VALUE1 GREATER". */
  public String label() {
    return label;
  }

  /** Compares two values as {@code PMIx_Value_compare(v1, v2)} does. */
  public static ValueComparison compare(Value v1, Value v2) {
    if (v1.type() != v2.type()) {
      return TYPE_DIFFERENT;
    }
    return data(v1.type(), v1.data(), v2.data());
  }

  /** Compares two data of the same type. */
  public static ValueComparison data(DataType type, Object d1, Object d2) {
    if (Value.isIntegerType(type)) {
      long a = (Long) d1;
      long b = (Long) d2;
      return of(Value.isUnsigned64(type) ? Long.compareUnsigned(a, b) : Long.compare(a, b));
    }
    return switch (type) {
      case UNDEF -> EQUAL;
      case BOOL -> of(Boolean.compare((Boolean) d1, (Boolean) d2));
      case STRING, PROC_NSPACE, PROC_CPUSET, TOPO, COMPRESSED_STRING ->
          strings((String) d1, (String) d2);
      case FLOAT, DOUBLE -> numbers(((Number) d1).doubleValue(), ((Number) d2).doubleValue());
      case TIMEVAL -> timevals((Timeval) d1, (Timeval) d2);
      case POINTER -> COMPARISON_NOT_AVAIL;
      case VALUE -> compare((Value) d1, (Value) d2);
      case PROC -> procs((Proc) d1, (Proc) d2);
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT -> bytes((ByteObject) d1, (ByteObject) d2);
      case DATA_BUFFER -> bytes(((DataBuffer) d1).payload(), ((DataBuffer) d2).payload());
      case DATA_ARRAY -> arrays((DataArray) d1, (DataArray) d2);
      default -> StructComparison.compare(type, d1, d2);
    };
  }

  static ValueComparison of(int c) {
    return c < 0 ? VALUE2_GREATER : c > 0 ? VALUE1_GREATER : EQUAL;
  }

  /** NULL is lowest; otherwise by code point, which is the order of the UTF-8 bytes. */
  static ValueComparison strings(String s1, String s2) {
    if (s1 == null || s2 == null) {
      return s1 == s2 ? EQUAL : s1 == null ? VALUE2_GREATER : VALUE1_GREATER;
    }
    int i = 0;
    int j = 0;
    while (i < s1.length() && j < s2.length()) {
      int c1 = s1.codePointAt(i);
      int c2 = s2.codePointAt(j);
      if (c1 != c2) {
        return of(Integer.compare(c1, c2));
      }
      i += Character.charCount(c1);
      j += Character.charCount(c2);
    }
    return of(Integer.compare(s1.length() - i, s2.length() - j));
  }

  private static ValueComparison numbers(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return COMPARISON_NOT_AVAIL;
    }
    return a < b ? VALUE2_GREATER : a > b ? VALUE1_GREATER : EQUAL;
  }

  private static ValueComparison timevals(Timeval t1, Timeval t2) {
    int c = Long.compare(t1.seconds(), t2.seconds());
    return of(c != 0 ? c : Long.compare(t1.microseconds(), t2.microseconds()));
  }

  static ValueComparison procs(Proc p1, Proc p2) {
    ValueComparison c = strings(p1.nspace(), p2.nspace());
    return c != EQUAL ? c : of(Integer.compareUnsigned(p1.rank(), p2.rank()));
  }

  /** The larger object is greater; equal sizes compare byte by byte, unsigned, as memcmp. */
  static ValueComparison bytes(ByteObject b1, ByteObject b2) {
    if (b1.size() != b2.size()) {
      return of(Integer.compare(b1.size(), b2.size()));
    }
    for (int i = 0; i < b1.size(); i++) {
      int c = Integer.compare(b1.get(i) & 0xFF, b2.get(i) & 0xFF);
      if (c != 0) {
        return of(c);
      }
    }
    return EQUAL;
  }

  private static ValueComparison arrays(DataArray a1, DataArray a2) {
    if (a1.type() != a2.type()) {
      return TYPE_DIFFERENT;
    }
    if (a1.size() != a2.size()) {
      return of(Integer.compare(a1.size(), a2.size()));
    }
    List<Object> e1 = a1.elements();
    List<Object> e2 = a2.elements();
    for (int i = 0; i < e1.size(); i++) {
      ValueComparison c = data(a1.type(), e1.get(i), e2.get(i));
      if (c != EQUAL) {
        return c;
      }
    }
    return EQUAL;
  }

  /** The structures with fields of their own, compared field by field. */
  private static final class StructComparison {
    private StructComparison() {}

    static ValueComparison compare(DataType type, Object d1, Object d2) {
      return switch (type) {
        case ENVAR -> envars((Envar) d1, (Envar) d2);
        case COORD -> coords((Coord) d1, (Coord) d2);
        case GEOMETRY -> geometries((Geometry) d1, (Geometry) d2);
        case DEVICE -> devices((Device) d1, (Device) d2);
        case DEVICE_DIST -> distances((DeviceDistance) d1, (DeviceDistance) d2);
        case ENDPOINT -> endpoints((Endpoint) d1, (Endpoint) d2);
        case RESOURCE_UNIT -> units((ResourceUnit) d1, (ResourceUnit) d2);
        case REGATTR -> regattrs((RegAttr) d1, (RegAttr) d2);
        case PROC_INFO -> procInfos((ProcInfo) d1, (ProcInfo) d2);
        case NODE_PID -> nodePids((NodePid) d1, (NodePid) d2);
        case REGEX2 -> regexes((Regex2) d1, (Regex2) d2);
        case INFO -> infos((Info) d1, (Info) d2);
        case KVAL -> first(strings(((KVal) d1).key(), ((KVal) d2).key()), values(d1, d2));
        case PDATA -> pdatas((PData) d1, (PData) d2);
        case QUERY -> queries((Query) d1, (Query) d2);
        case APP -> apps((App) d1, (App) d2);
        default -> COMPARISON_NOT_AVAIL;
      };
    }

    /** The first of the partial results that is not EQUAL, else EQUAL. */
    private static ValueComparison first(ValueComparison... results) {
      for (ValueComparison r : results) {
        if (r != EQUAL) {
          return r;
        }
      }
      return EQUAL;
    }

    private static ValueComparison envars(Envar e1, Envar e2) {
      return first(
          strings(e1.envar(), e2.envar()),
          strings(e1.value(), e2.value()),
          of(Integer.compare(e1.separator() & 0xFF, e2.separator() & 0xFF)));
    }

    private static ValueComparison coords(Coord c1, Coord c2) {
      if (c1.view() != c2.view()) {
        return INCOMPATIBLE_OBJECTS;
      }
      List<Long> a = c1.coordinates();
      List<Long> b = c2.coordinates();
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        int c = Long.compare(a.get(i), b.get(i));
        if (c != 0) {
          return of(c);
        }
      }
      return of(Integer.compare(a.size(), b.size()));
    }

    private static ValueComparison geometries(Geometry g1, Geometry g2) {
      if (g1.fabric() != g2.fabric()) {
        return INCOMPATIBLE_OBJECTS;
      }
      ValueComparison c =
          first(
              strings(g1.uuid(), g2.uuid()),
              strings(g1.osname(), g2.osname()),
              of(Integer.compare(g1.coordinates().size(), g2.coordinates().size())));
      for (int i = 0; c == EQUAL && i < g1.coordinates().size(); i++) {
        c = coords(g1.coordinates().get(i), g2.coordinates().get(i));
      }
      return c;
    }

    private static ValueComparison devices(Device d1, Device d2) {
      if (d1.deviceType() != d2.deviceType()) {
        return INCOMPATIBLE_OBJECTS;
      }
      return first(strings(d1.uuid(), d2.uuid()), strings(d1.osname(), d2.osname()));
    }

    private static ValueComparison distances(DeviceDistance d1, DeviceDistance d2) {
      if (d1.deviceType() != d2.deviceType()) {
        return INCOMPATIBLE_OBJECTS;
      }
      return first(
          strings(d1.uuid(), d2.uuid()),
          strings(d1.osname(), d2.osname()),
          of(Integer.compare(d1.minDistance(), d2.minDistance())),
          of(Integer.compare(d1.maxDistance(), d2.maxDistance())));
    }

    private static ValueComparison endpoints(Endpoint e1, Endpoint e2) {
      return first(
          strings(e1.uuid(), e2.uuid()),
          strings(e1.osname(), e2.osname()),
          bytes(e1.endpoint(), e2.endpoint()));
    }

    private static ValueComparison units(ResourceUnit u1, ResourceUnit u2) {
      if (u1.deviceType() != u2.deviceType()) {
        return INCOMPATIBLE_OBJECTS;
      }
      return of(Long.compareUnsigned(u1.count(), u2.count()));
    }

    private static ValueComparison regattrs(RegAttr r1, RegAttr r2) {
      ValueComparison c =
          first(
              strings(r1.name(), r2.name()),
              strings(r1.string(), r2.string()),
              of(Integer.compare(r1.type(), r2.type())),
              of(Integer.compare(r1.description().size(), r2.description().size())));
      for (int i = 0; c == EQUAL && i < r1.description().size(); i++) {
        c = strings(r1.description().get(i), r2.description().get(i));
      }
      return c;
    }

    private static ValueComparison procInfos(ProcInfo p1, ProcInfo p2) {
      return first(
          procs(p1.proc(), p2.proc()),
          strings(p1.hostname(), p2.hostname()),
          strings(p1.executableName(), p2.executableName()),
          of(Long.compare(p1.pid(), p2.pid())),
          of(Integer.compare(p1.exitCode(), p2.exitCode())));
    }

    private static ValueComparison nodePids(NodePid n1, NodePid n2) {
      return first(
          strings(n1.hostname(), n2.hostname()),
          of(Long.compare(n1.nodeId(), n2.nodeId())),
          of(Long.compare(n1.pid(), n2.pid())));
    }

    /** The values of two infos, kvals or pdata. */
    private static ValueComparison values(Object d1, Object d2) {
      return switch (d1) {
        case KVal k -> ValueComparison.compare(k.value(), ((KVal) d2).value());
        case Info i -> ValueComparison.compare(i.value(), ((Info) d2).value());
        default -> ValueComparison.compare(((PData) d1).value(), ((PData) d2).value());
      };
    }

    private static ValueComparison infos(Info i1, Info i2) {
      return first(strings(i1.key(), i2.key()), values(i1, i2));
    }

    private static ValueComparison pdatas(PData p1, PData p2) {
      return first(procs(p1.proc(), p2.proc()), strings(p1.key(), p2.key()), values(p1, p2));
    }

    /** Lists compare by length, then element by element. */
    private static ValueComparison lists(DataType type, List<?> l1, List<?> l2) {
      ValueComparison c = of(Integer.compare(l1.size(), l2.size()));
      for (int i = 0; c == EQUAL && i < l1.size(); i++) {
        c = data(type, l1.get(i), l2.get(i));
      }
      return c;
    }

    private static ValueComparison queries(Query q1, Query q2) {
      return first(
          lists(DataType.STRING, q1.keys(), q2.keys()),
          lists(DataType.INFO, q1.qualifiers(), q2.qualifiers()));
    }

    private static ValueComparison apps(App a1, App a2) {
      return first(
          strings(a1.cmd(), a2.cmd()),
          lists(DataType.STRING, a1.argv(), a2.argv()),
          lists(DataType.STRING, a1.env(), a2.env()),
          strings(a1.cwd(), a2.cwd()),
          of(Integer.compare(a1.maxprocs(), a2.maxprocs())),
          lists(DataType.INFO, a1.info(), a2.info()));
    }

    private static ValueComparison regexes(Regex2 r1, Regex2 r2) {
      return first(strings(r1.type(), r2.type()), bytes(r1.regex(), r2.regex()));
    }
  }
}
