package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.TimeSpec;
import org.jdvm.pmix.Value;

/**
 * Reading attribute values with their PMIx types checked at the boundary: a value of the wrong type
 * is {@code PMIX_ERR_BAD_PARAM} before the core sees anything. Integer attributes accept any
 * integer type of the right sign, since peers differ in the width they pack (a count is UINT64 in
 * the headers, but a C caller may pack what it has).
 */
public final class Values {
  private Values() {}

  public static String string(Info i) throws BadRequest {
    DataType t = i.value().type();
    if (t == DataType.STRING || t == DataType.PROC_NSPACE) {
      return i.value().asString();
    }
    throw wrongType(i, "a string");
  }

  /** A string that must be present (PMIx's NULL string is refused). */
  public static String text(Info i) throws BadRequest {
    String s = string(i);
    if (s == null) {
      throw BadRequest.param(i.key() + " is a NULL string");
    }
    return s;
  }

  public static boolean bool(Info i) throws BadRequest {
    if (i.value().type() == DataType.BOOL) {
      return i.value().asBoolean();
    }
    throw wrongType(i, "a boolean");
  }

  /** A non-negative integer of any integer type. */
  public static long unsigned(Info i) throws BadRequest {
    Value v = i.value();
    if (!Value.isIntegerType(v.type()) || v.type() == DataType.STATUS) {
      throw wrongType(i, "an integer");
    }
    long n = v.asLong();
    if (n < 0) {
      throw BadRequest.param(i.key() + " is " + (Value.isUnsigned64(v.type()) ? "too large" : n));
    }
    return n;
  }

  /** A non-negative integer that fits an {@code int}. */
  public static int count(Info i) throws BadRequest {
    long n = unsigned(i);
    if (n > Integer.MAX_VALUE) {
      throw BadRequest.param(i.key() + " is too large: " + n);
    }
    return (int) n;
  }

  /** A signed 32-bit integer of any signed or unsigned integer type. */
  public static int signed(Info i) throws BadRequest {
    Value v = i.value();
    if (!Value.isIntegerType(v.type()) || v.type() == DataType.STATUS) {
      throw wrongType(i, "an integer");
    }
    long n = v.asLong();
    if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
      throw BadRequest.param(i.key() + " does not fit 32 bits: " + n);
    }
    return (int) n;
  }

  /**
   * {@code PMIX_ALLOC_INHERITANCE} as the raw number: type 75 (master) or UINT8 (how a 4.2 peer,
   * which has no type 75, sends it). The core refuses values outside 1–4.
   */
  public static int inheritance(Info i) throws BadRequest {
    DataType t = i.value().type();
    if (t == DataType.ALLOC_INHERIT || t == DataType.UINT8) {
      return (int) i.value().asLong();
    }
    throw wrongType(i, "PMIX_ALLOC_INHERIT or PMIX_UINT8");
  }

  /**
   * A duration: a "M:D:H:M:S" string read from the right (master's PMIX_ALLOC_TIME, and
   * PMIX_ALLOC_LEND) or seconds as an integer (4.2.2's uint32 PMIX_ALLOC_TIME).
   */
  public static long seconds(Info i) throws BadRequest {
    if (i.value().type() == DataType.STRING) {
      long s = TimeSpec.parseSeconds(i.value().asString());
      if (s < 0) {
        throw BadRequest.param(i.key() + " is not a duration: \"" + i.value().asString() + "\"");
      }
      return s;
    }
    if (Value.isIntegerType(i.value().type())) {
      return unsigned(i);
    }
    throw wrongType(i, "a duration string or seconds");
  }

  /** A list of strings: one STRING, or a DATA_ARRAY of them (a null element is ""). */
  public static List<String> strings(Info i) throws BadRequest {
    Value v = i.value();
    if (v.type() == DataType.STRING || v.type() == DataType.PROC_NSPACE) {
      String s = v.asString();
      return List.of(s == null ? "" : s);
    }
    if (v.type() == DataType.DATA_ARRAY) {
      DataArray a = v.asArray();
      if (a.type() == DataType.STRING || a.type() == DataType.PROC_NSPACE) {
        List<String> out = new ArrayList<>(a.size());
        for (Object e : a.elements()) {
          out.add(e == null ? "" : (String) e);
        }
        return out;
      }
    }
    throw wrongType(i, "a string or an array of strings");
  }

  /** A list of processes: one PROC, or a DATA_ARRAY of them. */
  public static List<Proc> procs(Info i) throws BadRequest {
    Value v = i.value();
    if (v.type() == DataType.PROC) {
      return List.of(v.asProc());
    }
    if (v.type() == DataType.DATA_ARRAY && v.asArray().type() == DataType.PROC) {
      return v.asArray().elementsAs(Proc.class);
    }
    throw wrongType(i, "a proc or an array of procs");
  }

  /** A DATA_ARRAY of infos. */
  public static List<Info> infos(Info i) throws BadRequest {
    Value v = i.value();
    if (v.type() == DataType.DATA_ARRAY && v.asArray().type() == DataType.INFO) {
      return v.asArray().elementsAs(Info.class);
    }
    throw wrongType(i, "an array of infos");
  }

  public static BadRequest wrongType(Info i, String wanted) {
    return BadRequest.param(
        i.key() + " must be " + wanted + ", not " + i.value().type().pmixName());
  }
}
