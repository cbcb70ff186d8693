package org.jdvm.pmix.dict;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The attributes jdvm knows, with lookups both ways: by key string (what arrives on the wire) and
 * by C name (what the specifications and the C headers say), aliases included.
 *
 * <p>It covers every attribute the specifications in {@code docs/spec} name, every key of {@link
 * org.jdvm.pmix.PmixKeys}, the session-control keys, and what a server tells its clients about
 * their job. {@link #markdown()} renders it as {@code docs/attributes.md}, which a test keeps in
 * step.
 */
public final class AttributeDictionary {
  private static final Map<String, List<Attribute>> GROUPS = new LinkedHashMap<>();
  private static final Map<String, Attribute> BY_KEY = new HashMap<>();
  private static final Map<String, Attribute> BY_NAME = new HashMap<>();
  private static final List<Attribute> ALL;

  static {
    group(AllocationAttributes.TITLE, AllocationAttributes.ALL);
    group(SessionAttributes.TITLE, SessionAttributes.ALL);
    group(JobAttributes.TITLE, JobAttributes.ALL);
    group(EventAttributes.TITLE, EventAttributes.ALL);
    group(QueryAttributes.TITLE, QueryAttributes.ALL);
    group(IofAttributes.TITLE, IofAttributes.ALL);
    group(SpawnAttributes.TITLE, SpawnAttributes.ALL);
    group(JobControlAttributes.TITLE, JobControlAttributes.ALL);
    group(ServerAttributes.TITLE, ServerAttributes.ALL);
    group(WireupAttributes.TITLE, WireupAttributes.ALL);
    List<Attribute> all = new ArrayList<>();
    GROUPS.values().forEach(all::addAll);
    ALL = List.copyOf(all);
  }

  private AttributeDictionary() {}

  private static void group(String title, List<Attribute> attributes) {
    GROUPS.put(title, attributes);
    for (Attribute a : attributes) {
      index(BY_KEY, a.key(), a);
      index(BY_NAME, a.name(), a);
      for (String alias : a.aliases()) {
        index(BY_NAME, alias, a);
      }
    }
  }

  private static void index(Map<String, Attribute> map, String k, Attribute a) {
    Attribute previous = map.put(k, a);
    if (previous != null) {
      throw new IllegalStateException("attribute " + k + " is defined twice");
    }
  }

  /** The attribute with this key string, e.g. {@code pmix.alloc.id}. */
  public static Optional<Attribute> byKey(String key) {
    return Optional.ofNullable(BY_KEY.get(key));
  }

  /** The attribute with this C name or alias, e.g. {@code PMIX_ALLOC_ID}. */
  public static Optional<Attribute> byName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** Every attribute, grouped as in {@link #groups()}. */
  public static List<Attribute> all() {
    return ALL;
  }

  /** The attributes by topic, in documentation order. */
  public static Map<String, List<Attribute>> groups() {
    return Collections.unmodifiableMap(GROUPS);
  }

  /** The dictionary as the Markdown of {@code docs/attributes.md}. */
  public static String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("# PMIx attributes\n\n")
        .append(
            "Generated from `org.jdvm.pmix.dict.AttributeDictionary`; do not edit. After changing")
        .append(" the data, regenerate\nwith `mvn -pl jdvm-pmix test -Dtest=AttributesDocTest")
        .append(" -Djdvm.rewrite=true`.\n\n")
        .append(
            "Keys travel on the wire as the strings below (never as numeric ids). *Type* is the")
        .append(
            " value's type in OpenPMIx\nmaster; *4.2.2* is its type in Debian's libpmix 4.2.2 when")
        .append(" that differs, or \"absent\" when 4.2.2 has no such key.\n\n")
        .append(ALL.size())
        .append(" attributes in ")
        .append(GROUPS.size())
        .append(" groups.\n");
    for (Map.Entry<String, List<Attribute>> group : GROUPS.entrySet()) {
      md.append("\n## ").append(group.getKey()).append("\n\n");
      md.append("| Key | C name | Type | 4.2.2 | Description |\n");
      md.append("|---|---|---|---|---|\n");
      for (Attribute a : group.getValue()) {
        md.append("| `").append(a.key()).append("` | `").append(a.name()).append('`');
        for (String alias : a.aliases()) {
          md.append(", `").append(alias).append('`');
        }
        md.append(" | ").append(a.typeName()).append(" | ").append(v422(a)).append(" | ");
        md.append(a.description().replace("|", "\\|")).append(" |\n");
      }
    }
    return md.toString();
  }

  private static String v422(Attribute a) {
    if (!a.inV422()) {
      return "absent";
    }
    return a.type422() == a.type() ? "same" : a.type422().pmixName();
  }
}
