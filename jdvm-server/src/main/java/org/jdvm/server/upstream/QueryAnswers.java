package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.query.AllocationStatus;
import org.jdvm.core.query.AllocationView;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.ProcView;
import org.jdvm.endpoint.serve.BadRequest;
import org.jdvm.endpoint.serve.Values;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.server.Dvm;

/**
 * {@code PMIx_Query_info} answered from the core's views, on the controller thread, as copies
 * (decisions.md #9; prrte-behavior.md §2 #1; docs/protocol.md "Listings"). Each answer's key is the
 * query key. A 4.2.2 caller drops the data of any reply that is not SUCCESS (pmix-interop-notes.md
 * §5), so PARTIAL_SUCCESS is never sent: the keys that can be answered are, with SUCCESS, and the
 * others are left out; only when none can be is the reply the first key's error.
 */
final class QueryAnswers {
  private QueryAnswers() {}

  /** The reply: SUCCESS with the answers, or the error when nothing could be answered. */
  record Result(int status, List<Info> infos) {}

  static Result answer(CoreView v, List<Query> queries) {
    return answer(v, queries, Map.of());
  }

  /** The same, with the nodes' agent facts for {@code jdvm.qry.nodes}. */
  static Result answer(CoreView v, List<Query> queries, Map<String, Dvm.AgentFacts> agents) {
    List<Info> answers = new ArrayList<>();
    int firstError = PmixStatus.SUCCESS;
    for (Query q : queries) {
      for (String key : q.keys()) {
        try {
          if (key.equals(PmixKeys.QUERY_ATTRIBUTE_SUPPORT)) {
            answers.addAll(HostSupport.answer(q.qualifiers()));
            continue;
          }
          answers.add(
              Info.of(
                  key,
                  key.equals(JdvmProtocol.QUERY_NODES)
                      ? Value.string(Listings.nodes(v, agents))
                      : value(v, key, q.qualifiers())));
        } catch (BadRequest e) {
          firstError = firstError == PmixStatus.SUCCESS ? e.status() : firstError;
        }
      }
    }
    if (answers.isEmpty() && firstError != PmixStatus.SUCCESS) {
      return new Result(firstError, List.of());
    }
    return new Result(PmixStatus.SUCCESS, answers);
  }

  private static Value value(CoreView v, String key, List<Info> qualifiers) throws BadRequest {
    return switch (key) {
      case PmixKeys.QUERY_ALLOC_STATUS -> allocStatus(v, qualifiers);
      case PmixKeys.QUERY_ALLOC_IDS ->
          Value.array(DataArray.ofStrings(new ArrayList<>(v.allocationIds())));
      case PmixKeys.QUERY_ALLOCATION -> allocation(v, qualifiers);
      case PmixKeys.QUERY_NAMESPACES -> Value.string(String.join(",", liveNamespaces(v)));
      case PmixKeys.QUERY_JOB_STATUS -> jobStatus(v, qualifiers);
      case PmixKeys.QUERY_PROC_TABLE -> procTable(v, qualifiers);
      case PmixKeys.NUM_SLOTS -> Value.uint32(slots(v, qualifiers));
      case JdvmProtocol.QUERY_NODES -> Value.string(Listings.nodes(v));
      case JdvmProtocol.QUERY_ALLOCS -> Value.string(Listings.allocs(v));
      case JdvmProtocol.QUERY_JOBS -> jobs(v, qualifiers);
      case JdvmProtocol.QUERY_JOBS_SUMMARY -> Value.string(Listings.jobsSummary(v));
      case JdvmProtocol.QUERY_TREE ->
          Value.string(
              Trees.json(v, ns -> v.job(ns).map(j -> Listings.usage(j.usage())).orElse(null)));
      default -> throw BadRequest.notSupported("query key " + key);
    };
  }

  /** {@code active}, {@code terminating}, {@code pending} or {@code queued}, by either id. */
  private static Value allocStatus(CoreView v, List<Info> qualifiers) throws BadRequest {
    String id = qualifier(qualifiers, PmixKeys.ALLOC_ID);
    if (id == null) {
      id = qualifier(qualifiers, PmixKeys.ALLOC_REQ_ID);
    }
    if (id == null) {
      throw BadRequest.param("PMIX_QUERY_ALLOC_STATUS needs PMIX_ALLOC_ID or PMIX_ALLOC_REQ_ID");
    }
    Optional<AllocationStatus> s = v.allocationStatus(id);
    if (s.isEmpty()) {
      throw new BadRequest(PmixStatus.ERR_NOT_FOUND, "no allocation " + id);
    }
    return Value.string(s.get().state().name().toLowerCase(Locale.ROOT));
  }

  /**
   * {@code PMIX_QUERY_ALLOCATION}: one {@code PMIX_NODE_INFO} array per node ({@code PMIX_HOSTNAME}
   * first, then {@code PMIX_NUM_SLOTS}) of the allocation named, or of the DVM.
   */
  private static Value allocation(CoreView v, List<Info> qualifiers) throws BadRequest {
    String id = qualifier(qualifiers, PmixKeys.ALLOC_ID);
    Iterable<? extends NodeView> nodes;
    if (id == null) {
      nodes = v.nodes();
    } else {
      nodes =
          v.allocation(id)
              .orElseThrow(() -> new BadRequest(PmixStatus.ERR_NOT_FOUND, "no allocation " + id))
              .nodes();
    }
    List<Info> entries = new ArrayList<>();
    for (NodeView n : nodes) {
      List<Info> node =
          List.of(
              Info.of(PmixKeys.HOSTNAME, Value.string(n.name())),
              Info.of(PmixKeys.NUM_SLOTS, Value.uint32(n.slots())));
      entries.add(Info.of(PmixKeys.NODE_INFO, Value.array(DataArray.ofInfos(node))));
    }
    return Value.array(DataArray.of(DataType.INFO, entries));
  }

  private static List<String> liveNamespaces(CoreView v) {
    List<String> out = new ArrayList<>();
    for (JobView j : v.jobs()) {
      if (j.state() != JobView.State.TERMINATED) {
        out.add(j.namespace());
      }
    }
    return out;
  }

  /** A running job is SUCCESS so far; a terminated one has its termination status. */
  private static Value jobStatus(CoreView v, List<Info> qualifiers) throws BadRequest {
    JobView j = namedJob(v, qualifiers, "PMIX_QUERY_JOB_STATUS");
    return Value.status(j.state() == JobView.State.TERMINATED ? j.status() : PmixStatus.SUCCESS);
  }

  /**
   * {@code PMIX_QUERY_PROC_TABLE} of the job {@code PMIX_NSPACE} names: one {@code
   * pmix_proc_info_t} per process, its node as the host name, its pid and state (the executable's
   * name is the shell's, not the core's, and goes empty).
   */
  private static Value procTable(CoreView v, List<Info> qualifiers) throws BadRequest {
    JobView j = namedJob(v, qualifiers, "PMIX_QUERY_PROC_TABLE");
    String ns = j.namespace();
    List<ProcInfo> table = new ArrayList<>();
    for (ProcView p : j.procs()) {
      int state =
          switch (p.state()) {
            case PLACED -> PROC_STATE_LAUNCH_UNDERWAY;
            case RUNNING -> PROC_STATE_RUNNING;
            case ENDED -> p.exitCode() == 0 ? PROC_STATE_TERMINATED : PROC_STATE_TERM_NON_ZERO;
          };
      table.add(new ProcInfo(new Proc(ns, p.rank()), p.node(), "", p.pid(), p.exitCode(), state));
    }
    return Value.array(DataArray.of(DataType.PROC_INFO, table));
  }

  /** The job the {@code PMIX_NSPACE} qualifier names, which {@code what} needs. */
  private static JobView namedJob(CoreView v, List<Info> qualifiers, String what)
      throws BadRequest {
    String ns = qualifier(qualifiers, PmixKeys.NSPACE);
    if (ns == null) {
      throw BadRequest.param(what + " needs PMIX_NSPACE");
    }
    return v.job(ns).orElseThrow(() -> new BadRequest(PmixStatus.ERR_NOT_FOUND, "no job " + ns));
  }

  /** {@code pmix_proc_state_t} values (pmix_common.h). */
  private static final int PROC_STATE_LAUNCH_UNDERWAY = 2;

  private static final int PROC_STATE_RUNNING = 5;
  private static final int PROC_STATE_TERMINATED = 20;
  private static final int PROC_STATE_TERM_NON_ZERO = 62;

  /**
   * {@code jdvm.qry.jobs}: every job, or with a {@code PMIX_NSPACE} qualifier only that one (a
   * one-element array, NOT_FOUND once retired). A client polling its jobs' ends asks one such query
   * per job in one round trip; each answer names its job, so a left-out answer is not misread.
   */
  private static Value jobs(CoreView v, List<Info> qualifiers) throws BadRequest {
    String ns = qualifier(qualifiers, PmixKeys.NSPACE);
    if (ns == null) {
      return Value.string(Listings.jobs(v));
    }
    JobView j =
        v.job(ns).orElseThrow(() -> new BadRequest(PmixStatus.ERR_NOT_FOUND, "no job " + ns));
    return Value.string(Listings.jobs(v, List.of(j), false));
  }

  /** {@code PMIX_NUM_SLOTS} of a host, an allocation, or the whole DVM. */
  private static long slots(CoreView v, List<Info> qualifiers) throws BadRequest {
    String host = qualifier(qualifiers, PmixKeys.HOSTNAME);
    if (host != null) {
      return v.node(host)
          .orElseThrow(() -> new BadRequest(PmixStatus.ERR_NOT_FOUND, "no node " + host))
          .slots();
    }
    String id = qualifier(qualifiers, PmixKeys.ALLOC_ID);
    Iterable<? extends NodeView> nodes = v.nodes();
    if (id != null) {
      AllocationView a =
          v.allocation(id)
              .orElseThrow(() -> new BadRequest(PmixStatus.ERR_NOT_FOUND, "no allocation " + id));
      nodes = a.nodes();
    }
    long total = 0;
    for (NodeView n : nodes) {
      total += n.slots();
    }
    return total;
  }

  private static String qualifier(List<Info> qualifiers, String key) throws BadRequest {
    for (Info i : qualifiers) {
      if (i.key().equals(key)) {
        return Values.string(i);
      }
    }
    return null;
  }
}
