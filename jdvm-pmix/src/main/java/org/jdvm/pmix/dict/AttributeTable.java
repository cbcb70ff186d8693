package org.jdvm.pmix.dict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jdvm.pmix.DataType;

/**
 * Reads the attribute tables the dictionary is written in: one attribute per line, five fields
 * separated by {@code " | "}: key, C name with any aliases after commas, type in master, type in
 * 4.2.2 ({@code absent} if 4.2.2 lacks the key), description. Types are {@link DataType} constant
 * names or {@code varies}. A malformed table is a bug in jdvm's own data, so it fails loudly when
 * the dictionary is first used.
 */
final class AttributeTable {
  private AttributeTable() {}

  static List<Attribute> parse(String table) {
    List<Attribute> attributes = new ArrayList<>();
    for (String line : table.split("\n")) {
      if (!line.isBlank()) {
        attributes.add(parseLine(line.strip()));
      }
    }
    return List.copyOf(attributes);
  }

  private static Attribute parseLine(String line) {
    String[] fields = line.split(" \\| ", -1);
    if (fields.length != 5) {
      throw new IllegalStateException("attribute line needs 5 fields: " + line);
    }
    List<String> names = Arrays.stream(fields[1].split(",")).map(String::strip).toList();
    DataType type = type(fields[2], line);
    DataType type422 = fields[3].equals("absent") ? null : type(fields[3], line);
    return new Attribute(
        fields[0], names.get(0), names.subList(1, names.size()), type, type422, fields[4]);
  }

  private static DataType type(String field, String line) {
    if (field.equals("varies")) {
      return DataType.UNDEF;
    }
    try {
      return DataType.valueOf(field);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("unknown type " + field + " in: " + line, e);
    }
  }
}
