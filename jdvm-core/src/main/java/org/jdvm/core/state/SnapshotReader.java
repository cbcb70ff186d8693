package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect.JobStatus;
import org.jdvm.core.JobKind;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.NodeView.Origin;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;

/**
 * Reads a state snapshot in the order {@link StateSnapshot#write} wrote it: the nodes, every job
 * (parents first), the job table, the allocations, the asks, then the links between them once all
 * exist, and the nodes' residents.
 */
final class SnapshotReader {
  private final CoreConfig config;
  private final Bytes.In in;
  private final State state;
  private final Map<String, Node> nodes = new HashMap<>();
  private final Map<String, Allocation> allocations = new HashMap<>();
  private final Map<Long, Ask> asks = new HashMap<>();
  private Job[] jobs;
  private final Map<String, Job> tableByName = new HashMap<>();
  private final List<Runnable> links = new ArrayList<>();

  SnapshotReader(CoreConfig config, Bytes.In in) {
    this.config = config;
    this.in = in;
    this.state = State.empty(config);
  }

  State read() {
    if (in.i32() != StateSnapshot.MAGIC) {
      throw new Bytes.Corrupt("not a state snapshot");
    }
    state.tornDown = in.bool();
    state.terminationSeq = in.i64();
    long lastMinted = in.i64();
    long lastSession = in.i64();
    long lastAsk = in.i64();
    long joinSeq = in.i64();
    List<String> retiredChosen = strings();
    readNodes();
    readPool(state.nodes().defaultPool());
    List<Runnable> jobLinks = readJobs();
    List<Job> table = readTable();
    List<Job> retirable = new ArrayList<>();
    int queued = in.count(4);
    for (int i = 0; i < queued; i++) {
      retirable.add(job(in.i32()));
    }
    Map<String, Allocation> bySchedulerId = readAllocations();
    int askCount = in.count(8);
    for (int i = 0; i < askCount; i++) {
      readAsk();
    }
    jobLinks.forEach(Runnable::run);
    links.forEach(Runnable::run);
    long slotsInUse = readResidents();
    state.jobs().restore(table, retiredChosen, retirable, lastMinted);
    state.allocations().restore(bySchedulerId, lastSession);
    state.asks().restoreLastAskId(lastAsk);
    state.nodes().restoreCounters(joinSeq, slotsInUse);
    return state;
  }

  private void readNodes() {
    int nodeCount = in.count(16);
    for (int i = 0; i < nodeCount; i++) {
      Node n = new Node(in.str(), in.i32(), enumOf(Origin.values(), in.i32()), in.bool());
      n.claimedBy = in.i64();
      n.joinSeq = in.i64();
      Check.state(nodes.put(n.name(), n) == null, "node listed twice", n.name());
      state.nodes().restore(n);
    }
  }

  /** Every job, parents first; returns what links each to others once all exist. */
  private List<Runnable> readJobs() {
    int allJobs = in.count(1);
    jobs = new Job[allJobs];
    int[] parents = new int[allJobs];
    List<Runnable> jobLinks = new ArrayList<>();
    for (int i = 0; i < allJobs; i++) {
      readJob(i, parents, jobLinks);
    }
    return jobLinks;
  }

  private List<Job> readTable() {
    int tableJobs = in.count(4);
    List<Job> table = new ArrayList<>(tableJobs);
    for (int i = 0; i < tableJobs; i++) {
      Job j = job(in.i32());
      Check.state(tableByName.put(j.namespace(), j) == null, "job twice in the table", i);
      table.add(j);
    }
    return table;
  }

  /** Every allocation; returns them by their scheduler's id. */
  private Map<String, Allocation> readAllocations() {
    int allocationCount = in.count(1);
    for (int i = 0; i < allocationCount; i++) {
      readAllocation();
    }
    Map<String, Allocation> bySchedulerId = new HashMap<>();
    int schedIds = in.count(8);
    for (int i = 0; i < schedIds; i++) {
      bySchedulerId.put(in.str(), allocation(in.str()));
    }
    return bySchedulerId;
  }

  /** Each node's resident processes; returns the slots they use in all. */
  private long readResidents() {
    long slotsInUse = 0;
    for (Node n : state.nodes().all()) {
      int residents = in.count(8);
      for (int r = 0; r < residents; r++) {
        Job j = job(in.i32());
        ProcRecord p = Check.found(j.proc(in.i32()), "resident process", n.name());
        Check.state(p.nodeRecord() == n, "a resident on another node", n.name());
        n.addResident(p);
      }
      n.slotsInUse = residents;
      slotsInUse += residents;
    }
    return slotsInUse;
  }

  private void readJob(int i, int[] parents, List<Runnable> jobLinks) {
    String namespace = in.str();
    JobKind kind = enumOf(JobKind.values(), in.i32());
    int parent = in.i32();
    Check.state(parent < i, "a job listed before its parent", namespace);
    Proc spawner = (Proc) RecordCodec.read(in, Proc.class);
    RequestId replyTo = in.bool() ? new RequestId(in.i64()) : skipRequestId();
    long[] targets = new long[in.count(8)];
    for (int t = 0; t < targets.length; t++) {
      targets[t] = in.i64();
    }
    int appCount = in.i32();
    List<App> apps = null;
    if (appCount >= 0) {
      apps = new ArrayList<>(appCount);
      for (int a = 0; a < appCount; a++) {
        apps.add((App) RecordCodec.read(in, App.class));
      }
      apps = List.copyOf(apps);
    }
    int mapBy = in.i32();
    Job j =
        new Job(
            namespace,
            kind,
            parent < 0 ? null : jobs[parent],
            spawner,
            replyTo,
            targets,
            apps,
            mapBy < 0 ? null : enumOf(MapBy.values(), mapBy));
    jobs[i] = j;
    parents[i] = parent;
    readJobFields(j);
    readProcs(j);
    readJobLinks(j, jobLinks);
  }

  /** A job's flags and counters, after its identity. */
  private void readJobFields(Job j) {
    j.recoverable = in.bool();
    int perNode = in.i32();
    boolean oversubscribe = in.bool();
    boolean rankByNode = in.bool();
    j.fill = perNode < 0 ? null : new NodeFill(perNode, oversubscribe, rankByNode);
    j.stdinRank = (Integer) RecordCodec.read(in, Integer.class);
    j.deadlineNs = (Long) RecordCodec.read(in, Long.class);
    j.abortExitCode = (Integer) RecordCodec.read(in, Integer.class);
    int infos = in.count(1);
    List<Info> replyInfos = new ArrayList<>(infos);
    for (int k = 0; k < infos; k++) {
      replyInfos.add((Info) RecordCodec.read(in, Info.class));
    }
    j.replyInfos = List.copyOf(replyInfos);
    j.firstAbnormal = (ProcEnd) RecordCodec.read(in, ProcEnd.class);
    j.state = enumOf(Job.State.values(), in.i32());
    j.status = in.i32();
    j.exitCode = in.i32();
    j.stopped = in.bool();
    j.liveProcs = in.i32();
    j.startedProcs = in.i32();
    j.liveDescendants = in.i32();
    j.terminationSeq = in.i64();
    j.queuedToRetire = in.bool();
    j.pendingTermination = in.bool();
    j.retired = in.bool();
    j.retiredChildren = in.i32();
  }

  /** A job's processes, by rank (absent ranks left null). */
  private void readProcs(Job j) {
    int size = in.i32();
    if (size >= 0) {
      Check.state(size <= in.remaining(), "a job larger than its snapshot", j.namespace());
      j.procs = new ProcRecord[size];
      for (int r = 0; r < size; r++) {
        if (in.bool()) {
          String nodeName = in.str();
          Node node =
              in.bool()
                  ? new Node(nodeName, in.i32(), enumOf(Origin.values(), in.i32()), in.bool())
                  : Check.found(nodes.get(nodeName), "node", nodeName);
          ProcRecord p = new ProcRecord(j, r, node, in.i32());
          p.pid = in.i64();
          p.state = enumOf(ProcRecord.State.values(), in.i32());
          p.end = (ProcEnd) RecordCodec.read(in, ProcEnd.class);
          p.usage = (ProcUsage) RecordCodec.read(in, ProcUsage.class);
          j.procs[r] = p;
        }
      }
    }
  }

  /** A job's children, allocations and asks, linked once every job and allocation exists. */
  private void readJobLinks(Job j, List<Runnable> jobLinks) {
    int childCount = in.count(4);
    int[] children = new int[childCount];
    for (int c = 0; c < childCount; c++) {
      children[c] = in.i32();
    }
    List<String> owning = strings();
    List<String> ownerOf = strings();
    int askCount = in.count(8);
    long[] asksFor = new long[askCount];
    for (int a = 0; a < askCount; a++) {
      asksFor[a] = in.i64();
    }
    jobLinks.add(
        () -> {
          if (childCount > 0) {
            j.children = new ArrayList<>(childCount);
            for (int c : children) {
              j.children.add(job(c));
            }
          }
          j.owning = allocationList(owning);
          j.ownerOf = allocationList(ownerOf);
          if (askCount > 0) {
            List<Ask> list = new ArrayList<>(askCount);
            for (long id : asksFor) {
              list.add(Check.found(asks.get(id), "ask", id));
            }
            j.asksFor = list;
          }
        });
  }

  private RequestId skipRequestId() {
    in.i64();
    return null;
  }

  private void readAllocation() {
    Change.AllocationCreated created = readCreated();
    String allocId = created.allocId();
    Allocation a = new Allocation(created, jobByName(created.owner()));
    Long deadline = (Long) RecordCodec.read(in, Long.class);
    a.terminating = in.bool();
    int lent = in.count(8);
    List<NodeSpec> lentNodes = new ArrayList<>(lent);
    for (int i = 0; i < lent; i++) {
      lentNodes.add(new NodeSpec(in.str(), in.i32()));
    }
    a.lent = List.copyOf(lentNodes);
    a.lendSeconds = in.i64();
    int history = in.count(12);
    for (int i = 0; i < history; i++) {
      a.history.add(new JobStatus(in.str(), in.i32(), in.i32()));
    }
    for (String n : strings()) {
      Node node = Check.found(nodes.get(n), "member node", allocId);
      node.allocation = a;
      a.members.add(node);
    }
    a.owners.addAll(strings());
    for (String ns : strings()) {
      a.jobs.add(jobByName(ns));
    }
    List<String> children = strings();
    String parent = in.str();
    if (a.pool != null) {
      readPool(a.pool);
    }
    Check.state(allocations.put(allocId, a) == null, "allocation listed twice", allocId);
    state.allocations().restore(a, deadline);
    links.add(
        () -> {
          for (String c : children) {
            a.children.add(allocation(c));
          }
          a.parent = parent == null ? null : allocation(parent);
        });
  }

  /** What created the allocation, as {@link Change.AllocationCreated} carries it. */
  private Change.AllocationCreated readCreated() {
    String allocId = in.str();
    long sessionId = in.i64();
    String allocReqId = in.str();
    String owner = in.str();
    Proc requester = (Proc) RecordCodec.read(in, Proc.class);
    AllocInheritance inheritance = (AllocInheritance) RecordCodec.read(in, AllocInheritance.class);
    boolean reserved = in.bool();
    Long parentSession = (Long) RecordCodec.read(in, Long.class);
    boolean separated = in.bool();
    boolean detached = in.bool();
    String schedulerAllocId = in.str();
    Long timeLimit = (Long) RecordCodec.read(in, Long.class);
    boolean schedulerSession = in.bool();
    boolean autoComplete = in.bool();
    return new Change.AllocationCreated(
        allocId,
        sessionId,
        allocReqId,
        owner,
        requester,
        inheritance,
        reserved,
        parentSession,
        separated,
        detached,
        schedulerAllocId,
        timeLimit,
        schedulerSession ? new Change.ScheduledSession(autoComplete) : null);
  }

  private void readAsk() {
    long askId = in.i64();
    org.jdvm.core.AskKind kind = enumOf(org.jdvm.core.AskKind.values(), in.i32());
    RequestId replyTo = in.bool() ? new RequestId(in.i64()) : skipRequestId();
    Proc requester = (Proc) RecordCodec.read(in, Proc.class);
    AskTerms terms = (AskTerms) RecordCodec.read(in, AskTerms.class);
    boolean queued = in.bool();
    List<Node> claimed = new ArrayList<>();
    for (String n : strings()) {
      claimed.add(Check.found(nodes.get(n), "claimed node", askId));
    }
    Ask ask = new Ask(askId, kind, replyTo, requester, terms, claimed);
    ask.queued = queued;
    state.asks().add(ask);
    asks.put(askId, ask);
  }

  private void readPool(Pool pool) {
    List<Node> members = nodeList(strings());
    List<Node> withRoom = nodeList(strings());
    pool.restore(members, withRoom, in.i64());
  }

  private List<Node> nodeList(List<String> names) {
    List<Node> out = new ArrayList<>(names.size());
    for (String n : names) {
      out.add(Check.found(nodes.get(n), "node", n));
    }
    return out;
  }

  private List<Allocation> allocationList(List<String> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    List<Allocation> out = new ArrayList<>(ids.size());
    for (String id : ids) {
      out.add(allocation(id));
    }
    return out;
  }

  private Allocation allocation(String id) {
    return Check.found(allocations.get(id), "allocation", id);
  }

  private Job job(int i) {
    Check.state(i >= 0 && i < jobs.length && jobs[i] != null, "no job", i);
    return jobs[i];
  }

  private Job jobByName(String ns) {
    return Check.found(tableByName.get(ns), "job", ns);
  }

  private List<String> strings() {
    int n = in.count(4);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(in.str());
    }
    return out;
  }

  private static <E> E enumOf(E[] values, int ordinal) {
    if (ordinal < 0 || ordinal >= values.length) {
      throw new Bytes.Corrupt("no constant " + ordinal);
    }
    return values[ordinal];
  }
}
