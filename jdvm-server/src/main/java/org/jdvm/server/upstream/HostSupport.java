package org.jdvm.server.upstream;

import static org.jdvm.pmix.PmixKeys.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.endpoint.serve.BadRequest;
import org.jdvm.endpoint.serve.Values;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.dict.Attribute;
import org.jdvm.pmix.dict.AttributeDictionary;

/**
 * What the DVM serves as a PMIx host, for {@code PMIx_Query_info(PMIX_QUERY_ATTRIBUTE_SUPPORT)}
 * (what {@code pattrs --host-fns} and {@code pattrs --host FN} ask): the functions, and for each
 * the attributes the DVM acts on (those it refuses, such as {@code PMIX_ALLOC_LEND}, are not
 * listed). Descriptions and types come from jdvm-pmix's attribute dictionary.
 *
 * <p>Shapes: the functions as one string under {@code PMIX_HOST_FUNCTIONS}, which is where {@code
 * pattrs} 4.2.2 reads them; the attributes as libpmix's server answers them, {@code
 * PMIX_QUERY_ATTRIBUTE_SUPPORT} holding one array of {@code pmix_regattr_t} per function. {@code
 * pattrs} 4.2.2 prints every function's array with the first one's length, so the functions go
 * shortest first: none is read past its end.
 */
final class HostSupport {
  private HostSupport() {}

  private static final List<String> SPAWN =
      List.of(
          SPAWN_TARGET,
          WDIR,
          SET_ENVAR,
          UNSET_ENVAR,
          PREPEND_ENVAR,
          APPEND_ENVAR,
          MAPBY,
          RANKBY,
          BINDTO,
          PPR,
          CPUS_PER_PROC,
          NO_OVERSUBSCRIBE,
          REPORT_BINDINGS,
          FWD_STDIN,
          FWD_STDOUT,
          FWD_STDERR,
          MERGE_STDERR_STDOUT,
          IOF_TAG_OUTPUT,
          IOF_TIMESTAMP_OUTPUT,
          IOF_RANK_OUTPUT,
          IOF_OUTPUT_TO_FILE,
          IOF_OUTPUT_TO_DIRECTORY,
          IOF_FILE_ONLY,
          IOF_OUTPUT_RAW,
          NOTIFY_COMPLETION,
          JOB_TIMEOUT,
          SPAWN_TIMEOUT);

  private static final List<String> ALLOCATION =
      List.of(
          ALLOC_REQ_ID,
          ALLOC_ID,
          ALLOC_NUM_NODES,
          ALLOC_NODE_LIST,
          ALLOC_TIME,
          ALLOC_SHARE,
          ALLOC_INHERITANCE,
          ALLOC_TARGET,
          ALLOC_WARN_TIMEOUT);

  private static final List<String> SESSION =
      List.of(
          SESSION_CTRL_ID,
          SESSION_INSTANTIATE,
          SESSION_TERMINATE,
          SESSION_EXTEND,
          SESSION_PAUSE,
          SESSION_RESUME,
          SESSION_PREEMPT,
          SESSION_RESTORE,
          SESSION_COMPLETE,
          SESSION_SIGNAL);

  /** The functions served, each with the attributes it acts on. */
  static final Map<String, List<String>> FUNCTIONS = functions();

  private static Map<String, List<String>> functions() {
    Map<String, List<String>> f = new LinkedHashMap<>();
    f.put("PMIx_Allocation_request", ALLOCATION);
    f.put("PMIx_Spawn", SPAWN);
    f.put(
        "PMIx_Job_control",
        List.of(JOB_CTRL_KILL, JOB_CTRL_TERMINATE, JOB_CTRL_SIGNAL, JOB_CTRL_CANCEL));
    f.put(
        "PMIx_Query_info",
        List.of(
            QUERY_NAMESPACES,
            QUERY_JOB_STATUS,
            QUERY_ALLOC_STATUS,
            QUERY_ALLOCATION,
            NUM_SLOTS,
            QUERY_ATTRIBUTE_SUPPORT));
    f.put(
        "PMIx_Log",
        List.of(
            LOG_STDOUT, LOG_STDERR, LOG_SYSLOG, LOG_TIMESTAMP, LOG_GENERATE_TIMESTAMP, LOG_ONCE));
    f.put("PMIx_Fence", List.of(COLLECT_DATA, TIMEOUT));
    f.put("PMIx_Publish", List.of(RANGE, PERSISTENCE, TIMEOUT));
    f.put("PMIx_Lookup", List.of(RANGE, WAIT, TIMEOUT));
    f.put("PMIx_Unpublish", List.of(RANGE, TIMEOUT));
    f.put("PMIx_Connect", List.of(TIMEOUT));
    f.put("PMIx_Disconnect", List.of(TIMEOUT));
    f.put("PMIx_Notify_event", List.of(RANGE, EVENT_CUSTOM_RANGE));
    f.put("PMIx_Session_control", SESSION);
    f.put("PMIx_Abort", List.of());
    f.put("PMIx_Register_event_handler", List.of());
    f.put("PMIx_IOF_pull", List.of());
    f.put("PMIx_IOF_push", List.of());
    return f;
  }

  /** The answer to one {@code PMIX_QUERY_ATTRIBUTE_SUPPORT} query, by its qualifiers. */
  static List<Info> answer(List<Info> qualifiers) throws BadRequest {
    List<Info> out = new ArrayList<>();
    for (Info q : qualifiers) {
      switch (q.key()) {
        case PmixKeys.HOST_FUNCTIONS ->
            out.add(Info.of(HOST_FUNCTIONS, Value.string(String.join(",", FUNCTIONS.keySet()))));
        case PmixKeys.HOST_ATTRIBUTES -> out.add(attributes(Values.string(q)));
        default -> {} // client, server and tool attributes: the caller's own library answers
      }
    }
    if (out.isEmpty()) {
      throw BadRequest.notSupported(
          "PMIX_QUERY_ATTRIBUTE_SUPPORT answers PMIX_HOST_FUNCTIONS and PMIX_HOST_ATTRIBUTES");
    }
    return out;
  }

  /**
   * A description cut into lines of at most {@link #LINE} characters at spaces, as libpmix's own
   * dictionary holds them: {@code pattrs} 4.2.2 copies each line into a fixed 55-character column
   * ({@code pmix_attributes_print_attrs}) and aborts on a longer one.
   */
  static List<String> lines(String description) {
    List<String> out = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : description.split(" ")) {
      while (word.length() > LINE) { // a word longer than a line is cut where the line ends
        flush(out, line);
        out.add(word.substring(0, LINE));
        word = word.substring(LINE);
      }
      if (!line.isEmpty() && line.length() + 1 + word.length() > LINE) {
        flush(out, line);
      }
      line.append(line.isEmpty() ? "" : " ").append(word);
    }
    flush(out, line);
    return out;
  }

  private static void flush(List<String> out, StringBuilder line) {
    if (!line.isEmpty()) {
      out.add(line.toString());
      line.setLength(0);
    }
  }

  /** The longest description line, as libpmix's dictionary cuts them. */
  static final int LINE = 53;

  /** The attributes of the functions named ({@code a,b} or {@code all}), shortest list first. */
  private static Info attributes(String names) throws BadRequest {
    List<String> wanted = names == null ? List.of("all") : List.of(names.split(","));
    List<Map.Entry<String, List<String>>> chosen = new ArrayList<>();
    for (var e : FUNCTIONS.entrySet()) {
      if (!e.getValue().isEmpty() && (wanted.contains("all") || wanted.contains(e.getKey()))) {
        chosen.add(e);
      }
    }
    if (chosen.isEmpty()) {
      throw BadRequest.notSupported("no attributes are registered for " + names);
    }
    chosen.sort(Comparator.comparingInt(e -> e.getValue().size()));
    List<Info> perFunction = new ArrayList<>();
    for (var e : chosen) {
      List<RegAttr> regs = new ArrayList<>();
      for (String key : e.getValue()) {
        Attribute a = AttributeDictionary.byKey(key).orElseThrow();
        regs.add(new RegAttr(a.name(), a.key(), a.type().code(), lines(a.description())));
      }
      perFunction.add(Info.of(e.getKey(), Value.array(DataArray.of(DataType.REGATTR, regs))));
    }
    return Info.of(QUERY_ATTRIBUTE_SUPPORT, Value.array(DataArray.ofInfos(perFunction)));
  }
}
