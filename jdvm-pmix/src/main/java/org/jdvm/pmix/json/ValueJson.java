package org.jdvm.pmix.json;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Value;

/**
 * The JSON form of PMIx data, exactly the form the golden vectors of pmix-wire.md §12.2 use for
 * their {@code value} field, so that a vector, the CLI and the server's {@code --json} output speak
 * one language.
 *
 * <ul>
 *   <li>Integer-like types: JSON integers, 64-bit unsigned ones exact (18446744073709551615); BOOL:
 *       true/false; STRING and its kin: a string or null; FLOAT/DOUBLE: a number, or the strings
 *       "nan"/"inf"/"-inf" for the values JSON cannot write.
 *   <li>PROC {@code {"nspace","rank"}}; VALUE {@code {"type","data"}} ("data" absent for
 *       PMIX_UNDEF); INFO {@code {"key","flags","value"}}; DATA_ARRAY {@code {"type","array"}} or
 *       {@code {"type":"PMIX_UNDEF","size":n}}; BYTE_OBJECT {@code {"bytes_hex"}}; TIMEVAL {@code
 *       {"tv_sec","tv_usec"}}; APP {@code {"cmd","argv","env","cwd","maxprocs","info"}}; QUERY
 *       {@code {"keys","qualifiers"}}; PDATA {@code {"proc","key","value"}}; ENVAR {@code
 *       {"envar","value","separator"}}; COORD {@code {"view","coord"}}; REGATTR {@code
 *       {"name","string","type","description"}}; PROC_INFO {@code {"proc","hostname",
 *       "executable_name","pid","exit_code","state"}}; DATA_BUFFER {@code {"payload_hex"}};
 *       POINTER: the string "&lt;any pointer&gt;".
 *   <li>Types the vectors do not show use the same style: KVAL {@code {"key","value"}}, GEOMETRY
 *       {@code {"fabric","uuid","osname","coordinates"}}, DEVICE_DIST {@code
 *       {"uuid","osname","devtype","mindist","maxdist"}}, ENDPOINT {@code
 *       {"uuid","osname","bytes_hex"}}, DEVICE {@code {"uuid","osname","devtype"}}, RESOURCE_UNIT
 *       {@code {"devtype","count"}}, NODE_PID {@code {"hostname","nodeid","pid"}}, REGEX2 {@code
 *       {"type","bytes_hex"}}.
 * </ul>
 *
 * <p>Type names are the C macro names ("PMIX_UINT32"); on input the bare name ("UINT32") and the
 * numeric code are accepted too.
 */
public final class ValueJson {
  /** How a POINTER, which has no value between processes, is written. */
  public static final String POINTER_TEXT = "<any pointer>";

  private ValueJson() {}

  /** The JSON form of one datum of {@code type}, in the representation {@link Value} documents. */
  public static Object toJson(DataType type, Object datum) {
    return ToJson.datum(type, datum);
  }

  /** The datum of {@code type} a JSON form denotes. */
  public static Object fromJson(DataType type, Object json) {
    return FromJson.datum(type, new JsonNode(json, "$"));
  }

  /** {@code {"type": ..., "data": ...}}. */
  public static Object toJson(Value value) {
    return ToJson.value(value);
  }

  public static Value valueFromJson(Object json) {
    return FromJson.value(new JsonNode(json, "$"));
  }

  public static Object toJson(Info info) {
    return ToJson.info(info);
  }

  public static Info infoFromJson(Object json) {
    return FromJson.info(new JsonNode(json, "$"));
  }

  /**
   * The values of one pack call: the single value's form when there is exactly one, else an array
   * of forms (as {@code num_vals} says in the vectors).
   */
  public static Object unitToJson(DataType type, List<?> values) {
    if (values.size() == 1) {
      return toJson(type, values.get(0));
    }
    List<Object> list = new ArrayList<>(values.size());
    for (Object v : values) {
      list.add(toJson(type, v));
    }
    return list;
  }

  /**
   * The values a JSON form asks one pack call to carry: the elements of a JSON array, or the one
   * value otherwise. (No type's single form is a JSON array, so this is unambiguous.)
   */
  public static List<Object> unitFromJson(DataType type, Object json) {
    List<Object> values = new ArrayList<>();
    if (json instanceof List<?> list) {
      JsonNode node = new JsonNode(json, "$");
      for (int i = 0; i < list.size(); i++) {
        values.add(FromJson.datum(type, node.element(i)));
      }
    } else {
      values.add(fromJson(type, json));
    }
    return values;
  }

  /**
   * The data type a name denotes: "PMIX_UINT32", "UINT32" or a numeric code.
   *
   * @throws JsonException for anything else
   */
  public static DataType parseType(String name) {
    DataType type = DataType.fromName(name);
    if (type == null && !name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
      type = name.length() <= 5 ? DataType.fromCode(Integer.parseInt(name)) : null;
    }
    if (type == null) {
      throw new JsonException("unknown PMIx data type \"" + name + "\"");
    }
    return type;
  }

  static DataType typeOf(JsonNode node) {
    if (node.json() instanceof Long code) {
      DataType type = code >= 0 && code < 1000 ? DataType.fromCode(code.intValue()) : null;
      if (type == null) {
        throw node.error("a PMIx data type");
      }
      return type;
    }
    try {
      return parseType(node.string());
    } catch (JsonException e) {
      throw node.error("a PMIx data type name, not \"" + node.json() + "\"");
    }
  }
}
