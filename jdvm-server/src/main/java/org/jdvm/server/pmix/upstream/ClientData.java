package org.jdvm.server.pmix.upstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdvm.core.JobKind;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * The job data a launched process reads at {@code PMIx_Init} and later gets (pmix-interop-notes.md
 * §6): the REQ reply is its own namespace, then job-level KVALs, then one {@code pmix.pdata} array
 * per rank with {@code pmix.rank} first, so the client's hash store resolves job size, local peers,
 * node list and every rank's host, node id, app number and local ranks without asking again. A
 * GETNB is answered from the same data. Everything is computed on the controller thread from the
 * core's views and returned as copies.
 */
final class ClientData {
  private ClientData() {}

  /** One process of a job as the job data describes it. */
  private record Rank(int rank, String node, int appIndex, long pid, int localRank) {}

  /** The job as a snapshot. */
  private record Job(String nspace, List<Rank> ranks, long sessionId, String allocId, int univ) {
    List<String> nodes() {
      Set<String> names = new LinkedHashSet<>();
      for (Rank r : ranks) {
        names.add(r.node);
      }
      return new ArrayList<>(names);
    }

    List<Rank> on(String node) {
      List<Rank> local = new ArrayList<>();
      for (Rank r : ranks) {
        if (r.node.equals(node)) {
          local.add(r);
        }
      }
      return local;
    }
  }

  /** The REQ reply's KVALs for a launched process, or empty if the core has no such process. */
  static Optional<List<KVal>> jobInfo(CoreView v, Proc proc) {
    Job job = snapshot(v, proc.nspace());
    if (job == null) {
      return Optional.empty();
    }
    Rank self = null;
    for (Rank r : job.ranks) {
      if (r.rank == proc.rank()) {
        self = r;
      }
    }
    if (self == null) {
      return Optional.empty();
    }
    Map<String, Integer> nodeIds = nodeIds(v);
    List<KVal> kvals = new ArrayList<>(jobLevel(job));
    List<Rank> local = job.on(self.node);
    kvals.add(new KVal(PmixKeys.LOCAL_SIZE, Value.uint32(local.size())));
    kvals.add(new KVal(PmixKeys.LOCAL_PEERS, Value.string(ranksText(local))));
    kvals.add(new KVal(PmixKeys.LOCALLDR, Value.rank(local.get(0).rank)));
    Proc parent = parent(v, proc.nspace());
    for (Rank r : job.ranks) {
      kvals.add(
          new KVal(
              PmixKeys.PROC_INFO_ARRAY,
              Value.array(DataArray.ofInfos(withParent(rankLevel(r, nodeIds), parent)))));
    }
    return Optional.of(kvals);
  }

  /**
   * A namespace's job data as a process of another job stores it after {@code PMIx_Connect}
   * (docs/wireup.md §c.5): the job level and every rank's data, without the node-level keys that
   * only describe one process's own node. Empty when the core has no such application job.
   */
  static Optional<List<KVal>> namespaceInfo(CoreView v, String nspace) {
    Job job = snapshot(v, nspace);
    if (job == null) {
      return Optional.empty();
    }
    Map<String, Integer> nodeIds = nodeIds(v);
    List<KVal> kvals = new ArrayList<>(jobLevel(job));
    Proc parent = parent(v, nspace);
    for (Rank r : job.ranks) {
      kvals.add(
          new KVal(
              PmixKeys.PROC_INFO_ARRAY,
              Value.array(DataArray.ofInfos(withParent(rankLevel(r, nodeIds), parent)))));
    }
    return Optional.of(kvals);
  }

  /**
   * The process that spawned the job, when it is a process of an application job: {@code
   * PMIX_PARENT_ID}, as PRRTE gives a job spawned by a non-tool (docs/wireup.md §b).
   */
  private static Proc parent(CoreView v, String nspace) {
    Proc spawner = v.job(nspace).map(JobView::spawner).orElse(null);
    if (spawner == null) {
      return null;
    }
    boolean application =
        v.job(spawner.nspace()).map(j -> j.kind() == JobKind.APPLICATION).orElse(false);
    return application ? spawner : null;
  }

  private static List<Info> withParent(List<Info> rank, Proc parent) {
    if (parent == null) {
      return rank;
    }
    List<Info> out = new ArrayList<>(rank);
    out.add(Info.of(PmixKeys.PARENT_ID, Value.proc(parent)));
    return out;
  }

  /**
   * A GETNB: the key for {@code nspace.rank} (WILDCARD: job-level only), or empty when the core
   * does not know it.
   */
  static Optional<KVal> lookup(CoreView v, String nspace, int rank, String key) {
    Job job = snapshot(v, nspace);
    if (job == null) {
      return Optional.empty();
    }
    List<KVal> candidates = new ArrayList<>(jobLevel(job));
    if (rank != Proc.RANK_WILDCARD) {
      Rank r = job.ranks.stream().filter(x -> x.rank == rank).findFirst().orElse(null);
      if (r == null) {
        return Optional.empty();
      }
      for (Info i : rankLevel(r, nodeIds(v))) {
        candidates.add(new KVal(i.key(), i.value()));
      }
      List<Rank> local = job.on(r.node);
      candidates.add(new KVal(PmixKeys.LOCAL_SIZE, Value.uint32(local.size())));
      candidates.add(new KVal(PmixKeys.LOCAL_PEERS, Value.string(ranksText(local))));
      if (r.pid > 0) {
        candidates.add(new KVal(PmixKeys.PROC_PID, Value.pid(r.pid)));
      }
    }
    return candidates.stream().filter(k -> k.key().equals(key)).findFirst();
  }

  private static List<KVal> jobLevel(Job job) {
    List<KVal> kvals = new ArrayList<>(8);
    kvals.add(new KVal(PmixKeys.JOB_SIZE, Value.uint32(job.ranks.size())));
    kvals.add(new KVal(PmixKeys.UNIV_SIZE, Value.uint32(job.univ)));
    kvals.add(new KVal(PmixKeys.JOBID, Value.string(job.nspace)));
    kvals.add(new KVal(PmixKeys.NUM_NODES, Value.uint32(job.nodes().size())));
    kvals.add(new KVal(PmixKeys.NODE_LIST, Value.string(String.join(",", job.nodes()))));
    kvals.add(new KVal(PmixKeys.SESSION_ID, Value.uint32(job.sessionId)));
    if (job.allocId != null) {
      kvals.add(new KVal(PmixKeys.ALLOC_ID, Value.string(job.allocId)));
    }
    return kvals;
  }

  private static List<Info> rankLevel(Rank r, Map<String, Integer> nodeIds) {
    return List.of(
        Info.of(PmixKeys.RANK, Value.rank(r.rank)),
        Info.of(PmixKeys.HOSTNAME, Value.string(r.node)),
        Info.of(PmixKeys.NODEID, Value.uint32(nodeIds.getOrDefault(r.node, 0))),
        Info.of(PmixKeys.APPNUM, Value.uint32(r.appIndex)),
        Info.of(PmixKeys.LOCAL_RANK, Value.uint16(r.localRank)),
        Info.of(PmixKeys.NODE_RANK, Value.uint16(r.localRank)));
  }

  private static String ranksText(List<Rank> ranks) {
    StringBuilder sb = new StringBuilder();
    for (Rank r : ranks) {
      if (!sb.isEmpty()) {
        sb.append(',');
      }
      sb.append(Integer.toUnsignedString(r.rank));
    }
    return sb.toString();
  }

  private static Map<String, Integer> nodeIds(CoreView v) {
    Map<String, Integer> ids = new HashMap<>();
    int n = 0;
    for (NodeView node : v.nodes()) {
      ids.put(node.name(), n++);
    }
    return ids;
  }

  private static Job snapshot(CoreView v, String nspace) {
    JobView job = v.job(nspace).orElse(null);
    if (job == null || job.kind() != JobKind.APPLICATION) {
      return null;
    }
    Map<String, Integer> perNode = new HashMap<>();
    List<Rank> ranks = new ArrayList<>(job.procs().size());
    for (ProcView p : job.procs()) {
      int localRank = perNode.merge(p.node(), 1, Integer::sum) - 1;
      ranks.add(new Rank(p.rank(), p.node(), p.appIndex(), p.pid(), localRank));
    }
    int univ = 0;
    for (NodeView n : v.nodes()) {
      univ += n.slots();
    }
    String allocId = null;
    for (var a : v.allocations()) {
      if (a.sessionId() == job.primarySessionId()) {
        allocId = a.allocId();
      }
    }
    return new Job(nspace, ranks, job.primarySessionId(), allocId, univ);
  }
}
