package org.jdvm.pmix.codec;

import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Coord;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataBuffer;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Timeval;
import org.jdvm.pmix.Value;

/**
 * One-line renderings of PMIx data, in the manner of {@code PMIx_Data_print}: {@code "Data type:
 * PMIX_ALLOC_INHERIT\tValue: CHILD"}. Enumerations print as their names (a status as its macro name
 * and code, an inheritance or directive as its string converter says, a rank as WILDCARD and the
 * like), and nested data prints as {@code TYPE value}. Never more than one line: newlines in
 * strings are shown as {@code \n}.
 */
public final class DataPrinter {
  private DataPrinter() {}

  /** {@code "Data type: PMIX_X\tValue: ..."} for one datum of {@code type}. */
  public static String print(DataType type, Object datum) {
    return "Data type: " + type.pmixName() + "\tValue: " + render(type, datum);
  }

  /** A value printed as PMIx prints a {@code pmix_value_t}: its own type and its datum. */
  public static String print(Value value) {
    return print(value.type(), value.data());
  }

  /** The datum alone, without the type prefix. */
  public static String render(DataType type, Object datum) {
    if (Value.isIntegerType(type)) {
      return integer(type, (Long) datum);
    }
    return switch (type) {
      case UNDEF -> "UNDEF";
      case BOOL -> (Boolean) datum ? "TRUE" : "FALSE";
      case STRING, PROC_NSPACE, PROC_CPUSET, TOPO, COMPRESSED_STRING -> text((String) datum);
      case FLOAT -> FloatText.format((Float) datum);
      case DOUBLE -> FloatText.format((Double) datum);
      case TIMEVAL -> timeval((Timeval) datum);
      case POINTER -> "<pointer>";
      case VALUE -> nested((Value) datum);
      case PROC -> datum.toString();
      case INFO -> info((Info) datum);
      case DATA_ARRAY -> array((DataArray) datum);
      case BYTE_OBJECT, COMPRESSED_BYTE_OBJECT -> bytes((ByteObject) datum);
      case DATA_BUFFER -> bytes(((DataBuffer) datum).payload());
      default -> struct(type, datum);
    };
  }

  private static String struct(DataType type, Object datum) {
    return switch (type) {
      case APP -> app((App) datum);
      case QUERY -> query((Query) datum);
      case PDATA -> pdata((PData) datum);
      case KVAL ->
          "{key=" + text(((KVal) datum).key()) + ", " + nested(((KVal) datum).value()) + "}";
      case PROC_INFO -> procInfo((ProcInfo) datum);
      case ENVAR -> envar((Envar) datum);
      case COORD -> coord((Coord) datum);
      // the rest are records whose own rendering is already one line
      default -> oneLine(String.valueOf(datum));
    };
  }

  private static String integer(DataType type, long v) {
    return switch (type) {
      case STATUS -> PmixStatus.name((int) v) + " (" + v + ")";
      case PROC_RANK -> Proc.rankString((int) v);
      case ALLOC_INHERIT -> AllocInheritance.toString((int) v);
      case ALLOC_DIRECTIVE -> AllocDirective.toString((int) v);
      case DATA_TYPE -> {
        DataType t = DataType.fromCode((int) v);
        yield t == null ? "UNKNOWN TYPE " + v : t.pmixName();
      }
      case BYTE -> String.format("0x%02x", v);
      case INFO_DIRECTIVES -> flags((int) v);
      default -> Value.isUnsigned64(type) ? Long.toUnsignedString(v) : Long.toString(v);
    };
  }

  private static String text(String s) {
    return s == null ? "NULL" : oneLine(s);
  }

  private static String oneLine(String s) {
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
  }

  private static String timeval(Timeval t) {
    return t.seconds() + "." + String.format("%06d", t.microseconds()) + " s";
  }

  private static String nested(Value v) {
    return v.type() == DataType.UNDEF
        ? DataType.UNDEF.pmixName()
        : v.type().pmixName() + " " + render(v.type(), v.data());
  }

  /** Directive flags by name: REQD, ARRAY_END, REQD_PROCESSED, QUALIFIER, PERSISTENT. */
  static String flags(int flags) {
    StringJoiner names = new StringJoiner("|");
    String[] known = {"REQD", "ARRAY_END", "REQD_PROCESSED", "QUALIFIER", "PERSISTENT"};
    for (int bit = 0; bit < known.length; bit++) {
      if ((flags & (1 << bit)) != 0) {
        names.add(known[bit]);
      }
    }
    int rest = flags & ~0x1F;
    if (rest != 0) {
      names.add(String.format("0x%x", rest));
    }
    return names.length() == 0 ? "NONE" : names.toString();
  }

  private static String info(Info info) {
    return "{key="
        + text(info.key())
        + ", flags="
        + flags(info.flags())
        + ", value="
        + nested(info.value())
        + "}";
  }

  private static String array(DataArray a) {
    if (a.type() == DataType.UNDEF) {
      return "PMIX_UNDEF[" + a.size() + "]";
    }
    StringJoiner elements =
        new StringJoiner(", ", a.type().pmixName() + "[" + a.size() + "] {", "}");
    for (Object e : a.elements()) {
      elements.add(render(a.type(), e));
    }
    return elements.toString();
  }

  private static String bytes(ByteObject bo) {
    return bo.size() + " bytes " + HexFormat.of().formatHex(bo.toByteArray());
  }

  private static String list(List<?> items) {
    StringJoiner j = new StringJoiner(", ", "[", "]");
    for (Object item : items) {
      j.add(item instanceof Info i ? info(i) : text(String.valueOf(item)));
    }
    return j.toString();
  }

  private static String app(App app) {
    return "{cmd="
        + text(app.cmd())
        + ", argv="
        + list(app.argv())
        + ", env="
        + list(app.env())
        + ", cwd="
        + text(app.cwd())
        + ", maxprocs="
        + app.maxprocs()
        + ", info="
        + list(app.info())
        + "}";
  }

  private static String query(Query q) {
    return "{keys=" + list(q.keys()) + ", qualifiers=" + list(q.qualifiers()) + "}";
  }

  private static String pdata(PData p) {
    return "{proc=" + p.proc() + ", key=" + text(p.key()) + ", " + nested(p.value()) + "}";
  }

  private static String procInfo(ProcInfo p) {
    return "{proc="
        + p.proc()
        + ", host="
        + text(p.hostname())
        + ", exe="
        + text(p.executableName())
        + ", pid="
        + p.pid()
        + ", state="
        + p.state()
        + "}";
  }

  private static String envar(Envar e) {
    return "{envar="
        + text(e.envar())
        + ", value="
        + text(e.value())
        + ", separator="
        + oneLine(String.valueOf((char) (e.separator() & 0xFF)))
        + "}";
  }

  private static String coord(Coord c) {
    return "{view=" + c.view() + ", coord=" + c.coordinates() + "}";
  }
}
