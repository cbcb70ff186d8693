package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.JobKind;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.ProcView;
import org.jdvm.host.JobDirectories;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * The job data a launched process reads at {@code PMIx_Init} and later gets (docs/wireup.md §b,
 * pmix-interop-notes.md §6), with the PMIx types Open MPI 4.1 requires: its unload fails on any
 * other type, so {@code pmix.lrank}/{@code pmix.nrank} are UINT16 and {@code pmix.max.size}/{@code
 * pmix.job.size} UINT32.
 *
 * <p>The REQ reply is the namespace, then, in the order libpmix's client stores them ({@code
 * hash_store_job_info}, gds_hash.c:744 there): the job-level keys (session id first, so the session
 * keys after it land in that session), one {@code pmix.app.arr} per app, one {@code pmix.node.arr}
 * per node of the job, the caller's own node's keys alone (how a client finds its node's keys), and
 * one {@code pmix.pdata} per rank with {@code pmix.rank} first. So the client resolves job size,
 * maps, local peers and every rank's host, node, app and local ranks without asking again.
 *
 * <p>A node is one of the DVM's (virtual) nodes, by name, everywhere: {@code pmix.hname}, {@code
 * pmix.lpeers} and the scope rule of gets agree, so two virtual nodes on one host are two nodes
 * (docs/wireup.md §b "Locality must match the scopes").
 *
 * <p>Where a process was bound ({@code shell.ProcPlaces}), its data has {@code pmix.locstr} (the
 * objects its cpus touch, OpenPMIx's form, which Open MPI compares between local peers) and {@code
 * pmix.cpuset} (its cpu list), and its node's {@code pmix.toposig}; a process that is not bound has
 * neither, and Open MPI then takes peers of {@code pmix.lpeers} as sharing the node. Local and node
 * ranks follow the order the core placed a node's processes in, which is the order they were bound
 * in. The job level has the job's {@code pmix.mapby}, {@code pmix.rankby} and {@code pmix.bindto}
 * in PRRTE's words ({@code BYCORE}, {@code SLOT}, {@code CORE}).
 *
 * <p>Everything is computed on the controller thread from the core's views and returned as copies.
 */
final class ClientData {
  private ClientData() {}

  /** What the core does not hold: the job directories and who spawned a job. */
  record Extras(JobDirectories dirs, Proc spawner, org.jdvm.server.shell.ProcPlaces places) {
    Extras(JobDirectories dirs, Proc spawner) {
      this(dirs, spawner, null);
    }

    org.jdvm.server.shell.ProcPlaces.Place place(String nspace, int rank) {
      return places == null ? null : places.of(nspace, rank);
    }
  }

  /** One process of a job as the job data describes it. */
  private record Rank(
      int rank, String node, int appIndex, int appRank, long pid, int localRank, int nodeRank) {}

  /** The job as a snapshot. */
  private record Job(
      String nspace, List<Rank> ranks, long sessionId, String allocId, int univ, int apps) {
    /** The job's nodes, in the order of their lowest rank. */
    Map<String, List<Rank>> byNode() {
      Map<String, List<Rank>> nodes = new LinkedHashMap<>();
      for (Rank r : ranks) {
        nodes.computeIfAbsent(r.node, k -> new ArrayList<>()).add(r);
      }
      return nodes;
    }

    Rank rank(int rank) {
      return rank >= 0 && rank < ranks.size() && ranks.get(rank).rank == rank
          ? ranks.get(rank)
          : ranks.stream().filter(r -> r.rank == rank).findFirst().orElse(null);
    }
  }

  /** The REQ reply's KVALs for a launched process, or empty if the core has no such process. */
  static Optional<List<KVal>> jobInfo(CoreView v, Proc proc, Extras extras) {
    Job job = snapshot(v, proc.nspace());
    Rank self = job == null ? null : job.rank(proc.rank());
    if (self == null) {
      return Optional.empty();
    }
    Map<String, Integer> nodeIds = nodeIds(v);
    Map<String, List<Rank>> byNode = job.byNode();
    List<KVal> kvals = new ArrayList<>(jobLevel(v, job, extras, byNode));
    kvals.addAll(arrays(v, job, nodeIds, byNode));
    for (Info i : nodeLevel(liveProcsPerNode(v), self.node, byNode.get(self.node), nodeIds)) {
      if (!i.key().equals(PmixKeys.HOSTNAME) && !i.key().equals(PmixKeys.NODEID)) {
        kvals.add(new KVal(i.key(), i.value()));
      }
    }
    var place = extras.place(proc.nspace(), proc.rank());
    if (place != null && place.signature() != null) {
      kvals.add(new KVal(PmixKeys.TOPOLOGY_SIGNATURE, Value.string(place.signature())));
    }
    kvals.addAll(rankArrays(v, job, nodeIds, extras));
    return Optional.of(kvals);
  }

  /**
   * The job-level data of a namespace as a GETNB of rank WILDCARD answers it (docs/wireup.md §c.3):
   * the job keys and the app and node arrays, without the per-rank arrays (a client stores a
   * WILDCARD blob's keys as they are). Empty when the core has no such application job.
   */
  static Optional<List<KVal>> jobBlob(CoreView v, String nspace, Extras extras) {
    Job job = snapshot(v, nspace);
    if (job == null) {
      return Optional.empty();
    }
    Map<String, List<Rank>> byNode = job.byNode();
    List<KVal> kvals = new ArrayList<>(jobLevel(v, job, extras, byNode));
    kvals.addAll(arrays(v, job, nodeIds(v), byNode));
    return Optional.of(kvals);
  }

  /**
   * A namespace's job data as a process of another job stores it after {@code PMIx_Connect}
   * (docs/wireup.md §c.5): the job level, the app and node arrays, and every rank's data, without
   * the node-level keys that only describe one process's own node. Empty when the core has no such
   * application job.
   */
  static Optional<List<KVal>> namespaceInfo(CoreView v, String nspace, Extras extras) {
    Optional<List<KVal>> blob = jobBlob(v, nspace, extras);
    if (blob.isEmpty()) {
      return blob;
    }
    Job job = snapshot(v, nspace);
    Map<String, Integer> nodeIds = nodeIds(v);
    List<KVal> kvals = new ArrayList<>(blob.get());
    kvals.addAll(rankArrays(v, job, nodeIds, extras));
    return Optional.of(kvals);
  }

  /** One {@code pmix.pdata} array per rank, {@code pmix.rank} first. */
  private static List<KVal> rankArrays(
      CoreView v, Job job, Map<String, Integer> nodeIds, Extras extras) {
    Proc parent = parentOf(v, extras);
    List<KVal> out = new ArrayList<>(job.ranks.size());
    for (Rank r : job.ranks) {
      out.add(
          new KVal(
              PmixKeys.PROC_INFO_ARRAY,
              Value.array(DataArray.ofInfos(rankLevel(job, r, nodeIds, extras, parent)))));
    }
    return out;
  }

  /**
   * One rank's process-level data ({@code pmix.hname}, {@code pmix.lrank}, ...), as the second blob
   * of a GETNB for a rank of another namespace carries it; empty when there is no such rank.
   */
  static Optional<List<KVal>> procBlob(CoreView v, Proc proc, Extras extras) {
    Job job = snapshot(v, proc.nspace());
    Rank r = job == null ? null : job.rank(proc.rank());
    if (r == null) {
      return Optional.empty();
    }
    List<KVal> kvals = new ArrayList<>();
    for (Info i : rankLevel(job, r, nodeIds(v), extras, parentOf(v, extras))) {
      if (!i.key().equals(PmixKeys.RANK)) {
        kvals.add(new KVal(i.key(), i.value()));
      }
    }
    if (r.pid > 0) {
      kvals.add(new KVal(PmixKeys.PROC_PID, Value.pid(r.pid)));
    }
    return Optional.of(kvals);
  }

  /** The node a rank of an application job was placed on; {@code null} when there is none. */
  static String nodeOf(CoreView v, Proc proc) {
    JobView job = v.job(proc.nspace()).orElse(null);
    if (job == null || job.kind() != JobKind.APPLICATION) {
      return null;
    }
    for (ProcView p : job.procs()) {
      if (p.rank() == proc.rank()) {
        return p.node();
      }
    }
    return null;
  }

  /**
   * Where each rank of a live application job was placed, by rank; {@code null} when there is no
   * such job or it ended. Placements do not change, so callers may keep them for the job's life.
   */
  static List<String> placement(CoreView v, String nspace) {
    JobView job = v.job(nspace).orElse(null);
    if (job == null
        || job.kind() != JobKind.APPLICATION
        || job.state() == JobView.State.TERMINATED) {
      return null;
    }
    String[] nodes = new String[job.procs().size()];
    for (ProcView p : job.procs()) {
      if (p.rank() < 0 || p.rank() >= nodes.length) {
        return null;
      }
      nodes[p.rank()] = p.node();
    }
    return List.of(nodes);
  }

  /**
   * The number of ranks of an application job that has not ended; {@code null} when the core has no
   * such job.
   */
  static Integer size(CoreView v, String nspace) {
    return v.job(nspace)
        .filter(j -> j.kind() == JobKind.APPLICATION && j.state() != JobView.State.TERMINATED)
        .map(j -> j.procs().size())
        .orElse(null);
  }

  private static List<KVal> jobLevel(
      CoreView v, Job job, Extras extras, Map<String, List<Rank>> byNode) {
    List<KVal> kvals = new ArrayList<>(20);
    kvals.add(new KVal(PmixKeys.JOBID, Value.string(job.nspace)));
    kvals.add(new KVal(PmixKeys.SESSION_ID, Value.uint32(job.sessionId)));
    kvals.add(new KVal(PmixKeys.UNIV_SIZE, Value.uint32(job.univ)));
    if (job.allocId != null) {
      kvals.add(new KVal(PmixKeys.ALLOC_ID, Value.string(job.allocId)));
    }
    kvals.add(new KVal(PmixKeys.JOB_SIZE, Value.uint32(job.ranks.size())));
    kvals.add(new KVal(PmixKeys.MAX_PROCS, Value.uint32(job.univ)));
    kvals.add(new KVal(PmixKeys.JOB_NUM_APPS, Value.uint32(job.apps)));
    kvals.add(new KVal(PmixKeys.NUM_NODES, Value.uint32(byNode.size())));
    String nodes = String.join(",", byNode.keySet());
    kvals.add(new KVal(PmixKeys.NODE_LIST, Value.string(nodes)));
    kvals.add(new KVal(PmixKeys.NODE_MAP, Value.string("raw:" + nodes)));
    List<String> perNode = new ArrayList<>(byNode.size());
    for (List<Rank> local : byNode.values()) {
      perNode.add(ranksText(local));
    }
    kvals.add(new KVal(PmixKeys.PROC_MAP, Value.string("raw:" + String.join(";", perNode))));
    if (extras.dirs() != null) {
      kvals.add(new KVal(PmixKeys.TMPDIR, Value.string(extras.dirs().root().toString())));
      kvals.add(new KVal(PmixKeys.NSDIR, Value.string(extras.dirs().nsdir(job.nspace).toString())));
      kvals.add(new KVal(PmixKeys.TDIR_RMCLEAN, Value.bool(true)));
    }
    Proc parent = parentOf(v, extras);
    if (parent != null) {
      kvals.add(new KVal(PmixKeys.PARENT_ID, Value.proc(parent)));
      kvals.add(new KVal(PmixKeys.SPAWNED, Value.bool(true)));
    }
    var policies = extras.places() == null ? null : extras.places().policies(job.nspace);
    if (policies != null) {
      kvals.add(new KVal(PmixKeys.MAPBY, Value.string(policies.mapBy())));
      kvals.add(new KVal(PmixKeys.RANKBY, Value.string(policies.rankBy())));
      kvals.add(new KVal(PmixKeys.BINDTO, Value.string(policies.bindTo())));
    }
    return kvals;
  }

  /**
   * The process that spawned the job when it is a process of a job (PMIx_Spawn, MPI_Comm_spawn),
   * not a tool; {@code null} otherwise. It is job-level data, and also each rank's: a libpmix 4.2.2
   * client asking {@code PMIx_Get(self, PMIX_PARENT_ID)} looks in its own rank's data only (seen
   * with cconnect.c), as PRRTE gives it.
   */
  private static Proc parentOf(CoreView v, Extras extras) {
    Proc spawner = extras.spawner();
    boolean application =
        spawner != null
            && v.job(spawner.nspace()).map(j -> j.kind() == JobKind.APPLICATION).orElse(false);
    return application ? spawner : null;
  }

  /** One {@code pmix.app.arr} per app and one {@code pmix.node.arr} per node of the job. */
  private static List<KVal> arrays(
      CoreView v, Job job, Map<String, Integer> nodeIds, Map<String, List<Rank>> byNode) {
    List<KVal> kvals = new ArrayList<>();
    for (int app = 0; app < job.apps; app++) {
      int size = 0;
      int leader = -1;
      for (Rank r : job.ranks) {
        if (r.appIndex == app) {
          size++;
          leader = leader < 0 ? r.rank : leader;
        }
      }
      List<Info> infos = new ArrayList<>(3);
      infos.add(Info.of(PmixKeys.APPNUM, Value.uint32(app)));
      infos.add(Info.of(PmixKeys.APP_SIZE, Value.uint32(size)));
      if (leader >= 0) {
        infos.add(Info.of(PmixKeys.APPLDR, Value.rank(leader)));
      }
      kvals.add(new KVal(PmixKeys.APP_INFO_ARRAY, Value.array(DataArray.ofInfos(infos))));
    }
    Map<String, Integer> live = liveProcsPerNode(v);
    for (Map.Entry<String, List<Rank>> node : byNode.entrySet()) {
      List<Info> infos = nodeLevel(live, node.getKey(), node.getValue(), nodeIds);
      kvals.add(new KVal(PmixKeys.NODE_INFO_ARRAY, Value.array(DataArray.ofInfos(infos))));
    }
    return kvals;
  }

  /** A node's keys, naming it first: host name, id, the job's peers there, every job's count. */
  private static List<Info> nodeLevel(
      Map<String, Integer> live, String node, List<Rank> local, Map<String, Integer> nodeIds) {
    return List.of(
        Info.of(PmixKeys.HOSTNAME, Value.string(node)),
        Info.of(PmixKeys.NODEID, Value.uint32(nodeIds.getOrDefault(node, 0))),
        Info.of(PmixKeys.LOCAL_PEERS, Value.string(ranksText(local))),
        Info.of(PmixKeys.LOCAL_SIZE, Value.uint32(local.size())),
        Info.of(PmixKeys.LOCALLDR, Value.rank(local.get(0).rank)),
        Info.of(PmixKeys.NODE_SIZE, Value.uint32(live.getOrDefault(node, 0))));
  }

  private static List<Info> rankLevel(
      Job job, Rank r, Map<String, Integer> nodeIds, Extras extras, Proc parent) {
    List<Info> infos = new ArrayList<>(10);
    infos.add(Info.of(PmixKeys.RANK, Value.rank(r.rank)));
    infos.add(Info.of(PmixKeys.GLOBAL_RANK, Value.rank(r.rank)));
    infos.add(Info.of(PmixKeys.APP_RANK, Value.rank(r.appRank)));
    infos.add(Info.of(PmixKeys.HOSTNAME, Value.string(r.node)));
    infos.add(Info.of(PmixKeys.NODEID, Value.uint32(nodeIds.getOrDefault(r.node, 0))));
    infos.add(Info.of(PmixKeys.APPNUM, Value.uint32(r.appIndex)));
    infos.add(Info.of(PmixKeys.LOCAL_RANK, Value.uint16(r.localRank)));
    infos.add(Info.of(PmixKeys.NODE_RANK, Value.uint16(r.nodeRank)));
    var place = extras.place(job.nspace, r.rank);
    if (place != null && place.cpus() != null) {
      infos.add(Info.of(PmixKeys.LOCALITY_STRING, Value.string(place.locality())));
      infos.add(Info.of(PmixKeys.CPUSET, Value.string(place.cpuset())));
    }
    if (extras.dirs() != null) {
      infos.add(
          Info.of(
              PmixKeys.PROCDIR,
              Value.string(extras.dirs().procdir(job.nspace, r.rank).toString())));
    }
    if (parent != null) {
      infos.add(Info.of(PmixKeys.PARENT_ID, Value.proc(parent)));
    }
    return infos;
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

  /** Live processes of every application job, per node: one pass over the jobs. */
  private static Map<String, Integer> liveProcsPerNode(CoreView v) {
    Map<String, Integer> perNode = new HashMap<>();
    for (JobView j : v.jobs()) {
      if (j.kind() == JobKind.APPLICATION && j.state() != JobView.State.TERMINATED) {
        for (ProcView p : j.procs()) {
          if (p.state() != ProcView.State.ENDED) {
            perNode.merge(p.node(), 1, Integer::sum);
          }
        }
      }
    }
    return perNode;
  }

  /**
   * The order jobs take node ranks in: by the number the DVM minted their namespace with ({@code
   * <dvm>@<n>}), then by name.
   */
  private static final Comparator<String> SPAWN_ORDER =
      Comparator.comparingLong(ClientData::mintedNumber).thenComparing(Comparator.naturalOrder());

  private static long mintedNumber(String nspace) {
    int at = nspace.lastIndexOf('@');
    try {
      return at < 0 ? Long.MAX_VALUE : Long.parseLong(nspace.substring(at + 1));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Per node, the live processes of the application jobs spawned before {@code nspace}: a node rank
   * counts every job's processes on the node, not only this job's (docs/wireup.md §b "Node rank").
   */
  private static Map<String, Integer> earlierOnNodes(CoreView v, String nspace) {
    Map<String, Integer> before = new HashMap<>();
    for (JobView j : v.jobs()) {
      if (j.kind() != JobKind.APPLICATION
          || j.state() == JobView.State.TERMINATED
          || SPAWN_ORDER.compare(j.namespace(), nspace) >= 0) {
        continue;
      }
      for (ProcView p : j.procs()) {
        if (p.state() != ProcView.State.ENDED) {
          before.merge(p.node(), 1, Integer::sum);
        }
      }
    }
    return before;
  }

  private static Job snapshot(CoreView v, String nspace) {
    JobView job = v.job(nspace).orElse(null);
    if (job == null || job.kind() != JobKind.APPLICATION) {
      return null;
    }
    Map<String, Integer> before = earlierOnNodes(v, nspace);
    Map<String, Integer> perNode = new HashMap<>();
    Map<Integer, Integer> perApp = new HashMap<>();
    List<Rank> ranks = new ArrayList<>(job.procs().size());
    int apps = 0;
    for (ProcView p : job.procs()) {
      int localRank = perNode.merge(p.node(), 1, Integer::sum) - 1;
      int appRank = perApp.merge(p.appIndex(), 1, Integer::sum) - 1;
      int nodeRank = before.getOrDefault(p.node(), 0) + localRank;
      ranks.add(new Rank(p.rank(), p.node(), p.appIndex(), appRank, p.pid(), localRank, nodeRank));
      apps = Math.max(apps, p.appIndex() + 1);
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
    return new Job(
        nspace, ranks, job.primarySessionId(), allocId, Math.max(univ, ranks.size()), apps);
  }
}
