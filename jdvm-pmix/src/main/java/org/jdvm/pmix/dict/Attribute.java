package org.jdvm.pmix.dict;

import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.DataType;

/**
 * One PMIx attribute: the key string that travels on the wire, the C macro name(s) it is known by,
 * the type of its value, and what it means (pmix-wire.md §10, §11).
 *
 * @param key the key string, e.g. {@code pmix.alloc.inhrt}; keys always travel as these strings
 * @param name the C macro name, e.g. {@code PMIX_ALLOC_INHERITANCE}
 * @param aliases other C names for the same key (deprecated spellings), possibly none
 * @param type the value's type in OpenPMIx master; {@link DataType#UNDEF} where the type varies (as
 *     for {@code PMIX_SPAWN_TARGET}: a string or an array of strings)
 * @param type422 the value's type in libpmix 4.2.2, or {@code null} if 4.2.2 has no attribute with
 *     this key
 * @param description one line, in jdvm's words
 */
public record Attribute(
    String key,
    String name,
    List<String> aliases,
    DataType type,
    DataType type422,
    String description) {
  public Attribute {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(name, "name");
    aliases = List.copyOf(aliases);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(description, "description");
  }

  static Attribute of(
      String key, String name, DataType type, DataType type422, String description) {
    return new Attribute(key, name, List.of(), type, type422, description);
  }

  Attribute withAliases(String... names) {
    return new Attribute(key, name, List.of(names), type, type422, description);
  }

  /** Whether libpmix 4.2.2 knows this key. */
  public boolean inV422() {
    return type422 != null;
  }

  /** Whether the value's type is fixed (not "varies"). */
  public boolean hasFixedType() {
    return type != DataType.UNDEF;
  }

  /** The type as documentation shows it: the C name, or "varies". */
  public String typeName() {
    return hasFixedType() ? type.pmixName() : "varies";
  }
}
