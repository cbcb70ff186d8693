package org.jdvm.pmix.dict;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.Test;

/**
 * Lookups both ways, coverage of what the specs and the server need, and agreement with libpmix.
 */
class AttributeDictionaryTest {
  /**
   * Every {@code PMIX_} name in {@code docs/spec/*.txt} (by {@code grep -ohE '\bPMIX_[A-Z0-9_]+'}),
   * less the ones that are not attributes, which are listed below with the reason.
   */
  private static final List<String> SPEC_ATTRIBUTES =
      List.of(
          "PMIX_ALLOC_BANDWIDTH",
          "PMIX_ALLOC_CHILD_SEP",
          "PMIX_ALLOC_CPU_LIST",
          "PMIX_ALLOC_ID",
          "PMIX_ALLOC_INHERITANCE",
          "PMIX_ALLOC_MEM_SIZE",
          "PMIX_ALLOC_NETWORK",
          "PMIX_ALLOC_NETWORK_ID",
          "PMIX_ALLOC_NETWORK_QOS",
          "PMIX_ALLOC_NODE_LIST",
          "PMIX_ALLOC_NUM_CPUS",
          "PMIX_ALLOC_NUM_CPU_LIST",
          "PMIX_ALLOC_NUM_NODES",
          "PMIX_ALLOC_REQ_ID",
          "PMIX_ALLOC_SHARE",
          "PMIX_ALLOC_TARGET",
          "PMIX_ALLOC_TIME",
          "PMIX_ALLOC_WARN_TIMEOUT",
          "PMIX_JOB_CTRL_SEP",
          "PMIX_NODE_LIST",
          "PMIX_NUM_NODES",
          "PMIX_QUERY_ALLOC_STATUS",
          "PMIX_SESSION_ID",
          "PMIX_SESSION_SEP",
          "PMIX_SPAWN_CHILD_SEP",
          "PMIX_SPAWN_TARGET",
          "PMIX_TIME_REMAINING",
          "PMIX_UNIV_SIZE");

  /** The other names the specs use, and why they are not in the dictionary. */
  private static final Map<String, String> NOT_ATTRIBUTES =
      Map.ofEntries(
          Map.entry("PMIX_ALLOC_RESERVED", "removed; PMIX_ALLOC_SHARE replaced it, in no header"),
          Map.entry(
              "PMIX_NETWORK", "shorthand for PMIX_ALLOC_NETWORK in rfc0005-allocation-api.txt"),
          Map.entry(
              "PMIX_NETWORK_ID",
              "shorthand for PMIX_ALLOC_NETWORK_ID in rfc0005-allocation-api.txt"),
          Map.entry(
              "PMIX_BANDWIDTH", "shorthand for PMIX_ALLOC_BANDWIDTH in rfc0005-allocation-api.txt"),
          Map.entry("PMIX_CPUS", "shorthand for a CPU request in rfc0005-allocation-api.txt"),
          Map.entry(
              "PMIX_NUM_CPU_LIST",
              "shorthand for PMIX_ALLOC_NUM_CPU_LIST in rfc0005-allocation-api.txt"),
          Map.entry("PMIX_ALLOC_NEW", "an allocation directive"),
          Map.entry("PMIX_ALLOC_EXTEND", "an allocation directive"),
          Map.entry("PMIX_ALLOC_RELEASE", "an allocation directive"),
          Map.entry("PMIX_ALLOC_REAQUIRE", "an allocation directive"),
          Map.entry("PMIX_ALLOC_REACQUIRE", "an allocation directive"),
          Map.entry("PMIX_ALLOC_REQ_CANCEL", "an allocation directive"),
          Map.entry(
              "PMIX_ALLOC_CANCEL", "the cancel directive's name in rfc0005-allocation-api.txt"),
          Map.entry("PMIX_ALLOC_INHERIT", "the data type, code 75"),
          Map.entry("PMIX_ALLOC_INHERIT_NONE", "an inheritance value"),
          Map.entry("PMIX_ALLOC_INHERIT_CHILD", "an inheritance value"),
          Map.entry("PMIX_ALLOC_INHERIT_DEFAULT", "an inheritance value"),
          Map.entry("PMIX_ALLOC_INHERIT_CHILD_DEFAULT", "an inheritance value"),
          Map.entry("PMIX_ALLOC_TIMEOUT_WARNING", "an event code"),
          Map.entry("PMIX_NOTIFY_ALLOC_COMPLETE", "an event code"),
          Map.entry("PMIX_EVENT_ACTION_COMPLETE", "an event code"),
          Map.entry("PMIX_ERR_ALLOC_COMPLETE", "a status no header defines"),
          Map.entry("PMIX_ERR_BAD_PARAM", "a status"),
          Map.entry("PMIX_ERR_BASE", "a status"),
          Map.entry("PMIX_ERR_NOT_FOUND", "a status"),
          Map.entry("PMIX_ERR_NOT_SUPPORTED", "a status"),
          Map.entry("PMIX_ERR_NO_PERMISSIONS", "a status"),
          Map.entry("PMIX_SUCCESS", "a status"),
          Map.entry("PMIX_STRING", "a data type"),
          Map.entry("PMIX_UINT64", "a data type"),
          Map.entry("PMIX_RANK_WILDCARD", "a rank"),
          Map.entry("PMIX_MAX_NSLEN", "a limit"),
          Map.entry("PMIX_NSPACE_INVALID", "a macro"),
          Map.entry("PMIX_EXPORT", "a macro"),
          Map.entry("PMIX_ARGV_APPEND", "a macro"),
          Map.entry("PMIX_INFO_CREATE", "a macro"),
          Map.entry("PMIX_INFO_FREE", "a macro"),
          Map.entry("PMIX_INFO_LOAD", "a macro"),
          Map.entry("PMIX_INFO_TRUE", "a macro"),
          Map.entry("PMIX_INFO_XFER", "a macro"),
          Map.entry("PMIX_LOAD_NSPACE", "a macro"),
          Map.entry("PMIX_PROC_CONSTRUCT", "a macro"),
          Map.entry("PMIX_QUERY_CREATE", "a macro"),
          Map.entry("PMIX_QUERY_FREE", "a macro"),
          Map.entry("PMIX_RELEASE", "a macro"),
          Map.entry("PMIX_RETAIN", "a macro"),
          Map.entry("PMIX_VALUE_RELEASE", "a macro"),
          Map.entry("PMIX_XFER_PROCID", "a macro"));

  @Test
  void lookupsGoBothWaysAndAliasesFindTheSameAttribute() {
    Attribute inheritance = AttributeDictionary.byKey("pmix.alloc.inhrt").orElseThrow();
    assertThat(inheritance.name()).isEqualTo("PMIX_ALLOC_INHERITANCE");
    assertThat(inheritance.type()).isEqualTo(DataType.ALLOC_INHERIT);
    assertThat(inheritance.inV422()).isFalse();
    assertThat(AttributeDictionary.byName("PMIX_ALLOC_INHERITANCE")).contains(inheritance);

    Attribute network = AttributeDictionary.byName("PMIX_ALLOC_NETWORK").orElseThrow();
    assertThat(network.key()).isEqualTo("pmix.alloc.net");
    assertThat(AttributeDictionary.byName("PMIX_ALLOC_FABRIC")).contains(network);

    assertThat(AttributeDictionary.byKey("pmix.no.such.key")).isEmpty();
    assertThat(AttributeDictionary.byName("PMIX_NO_SUCH")).isEmpty();
  }

  @Test
  void typesFollowMasterAndRememberWhat422Said() {
    Attribute time = AttributeDictionary.byName("PMIX_ALLOC_TIME").orElseThrow();
    assertThat(time.type()).isEqualTo(DataType.STRING);
    assertThat(time.type422()).isEqualTo(DataType.UINT32);
    assertThat(AttributeDictionary.byName("PMIX_SPAWN_TARGET").orElseThrow().typeName())
        .isEqualTo("varies");
    Attribute supqual = AttributeDictionary.byName("PMIX_QUERY_SUPPORTED_QUALIFIERS").orElseThrow();
    assertThat(supqual.key()).isEqualTo("pmix.qry.supqual");
    assertThat(supqual.inV422()).isFalse();
  }

  @Test
  void everyAttributeTheSpecsNameIsPresent() {
    for (String name : SPEC_ATTRIBUTES) {
      assertThat(AttributeDictionary.byName(name)).as(name).isPresent();
      assertThat(NOT_ATTRIBUTES).doesNotContainKey(name);
    }
    for (String name : NOT_ATTRIBUTES.keySet()) {
      assertThat(AttributeDictionary.byName(name)).as(name).isEmpty();
    }
  }

  @Test
  void everyKeyOfPmixKeysIsPresent() throws IllegalAccessException {
    int keys = 0;
    for (Field f : PmixKeys.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        String key = (String) f.get(null);
        assertThat(AttributeDictionary.byKey(key)).as(f.getName() + " = " + key).isPresent();
        keys++;
      }
    }
    assertThat(keys).isGreaterThan(60);
  }

  @Test
  void whatAServerNeedsForJobInfoEventsQueriesIofAndSpawnIsPresent() {
    for (String key :
        List.of(
            "pmix.jobid",
            "pmix.rank",
            "pmix.job.size",
            "pmix.local.size",
            "pmix.lpeers",
            "pmix.hname",
            "pmix.nodeid",
            "pmix.appnum",
            "pmix.univ.size",
            "pmix.srvr.uri",
            "pmix.tool.nspace",
            "pmix.evrange",
            "pmix.evaffected",
            "pmix.job.term.status",
            "pmix.qry.ns",
            "pmix.qry.jst",
            "pmix.iof.tag",
            "pmix.fwd.stdout",
            "pmix.notecomp",
            "pmix.mapby",
            "pmix.bfrops.mod",
            "pmix.ppid",
            "pmix.cmd.line",
            "pmix.euid",
            "pmix.egid",
            "pmix.ruid",
            "pmix.rgid")) {
      assertThat(AttributeDictionary.byKey(key)).as(key).isPresent();
    }
    assertThat(AttributeDictionary.all().stream().filter(a -> a.key().startsWith("pmix.qry.")))
        .hasSizeGreaterThan(30);
    assertThat(AttributeDictionary.all().stream().filter(a -> a.key().startsWith("pmix.iof.")))
        .hasSizeGreaterThan(20);
  }

  @Test
  void keysNamesAndTypesAgreeWithLibpmix422() {
    Map<String, List<Map<?, ?>>> byKey422 = new HashMap<>();
    for (Object o : (List<?>) Json.parse(WireVectors.resource("dict_422.json"))) {
      Map<?, ?> e = (Map<?, ?>) o;
      byKey422.computeIfAbsent((String) e.get("string"), k -> new ArrayList<>()).add(e);
    }
    int checked = 0;
    for (Attribute a : AttributeDictionary.all()) {
      List<Map<?, ?>> entries = byKey422.getOrDefault(a.key(), List.of());
      if (!a.inV422()) {
        assertThat(entries).as(a.key() + " is absent from 4.2.2").isEmpty();
        continue;
      }
      Map<?, ?> entry =
          entries.stream()
              .filter(e -> e.get("name").equals(a.name()) || a.aliases().contains(e.get("name")))
              .findFirst()
              .orElseThrow(() -> new AssertionError(a.key() + " not in dict_422.json"));
      assertThat(((Long) entry.get("type")).intValue()).as(a.key()).isEqualTo(a.type422().code());
      checked++;
    }
    assertThat(checked).isGreaterThan(250);
  }

  @Test
  void attributesNew422AbsentOrChangedAgreeWithTheHeaderDiff() {
    Pattern line = Pattern.compile("(\\S+) (MISSING|\"[^\"]*\") (MISSING|\"[^\"]*\") .*");
    int checked = 0;
    for (String s : WireVectors.resource("attr_diff.txt").split("\n")) {
      Matcher m = line.matcher(s);
      assertThat(m.matches()).as(s).isTrue();
      Attribute a = AttributeDictionary.byName(m.group(1)).orElse(null);
      if (a == null) {
        continue;
      }
      assertThat(a.key()).isEqualTo(m.group(3).replace("\"", ""));
      assertThat(a.inV422()).as(a.key()).isEqualTo(m.group(2).equals(m.group(3)));
      checked++;
    }
    assertThat(checked).isGreaterThan(60);
  }

  @Test
  void everyDescriptionIsOneSentenceOnOneLine() {
    Set<String> descriptions = new java.util.HashSet<>();
    for (Attribute a : AttributeDictionary.all()) {
      assertThat(a.description()).as(a.key()).isNotBlank().doesNotContain("\n").endsWith(".");
      assertThat(a.key()).startsWith("pmix.");
      assertThat(a.name()).startsWith("PMIX_");
      descriptions.add(a.description());
    }
    assertThat(AttributeDictionary.all()).hasSizeGreaterThan(300);
    assertThat(descriptions).hasSameSizeAs(AttributeDictionary.all());
  }
}
