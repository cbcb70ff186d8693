package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect.JobStatus;
import org.jdvm.core.JobKind;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.NodeView.Origin;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;

/**
 * The whole state as bytes and back, field by field, with every order that is itself state (table
 * order, the order of a pool's nodes and of the nodes with room, a node's residents, owner sets,
 * the retirement queue): a state read back from its snapshot has the same digest and behaves the
 * same under every later command. Terminated jobs that left the table but are still some job's
 * parent or child are written too, so the genealogy stays whole. Pure: bytes in, bytes out
 * (docs/journal.md "Snapshots").
 */
public final class StateSnapshot {
  private static final int MAGIC = 0x4A53_4E31; // "JSN1"

  private StateSnapshot() {}

  /** Writes {@code state} to {@code out}. */
  public static void write(State state, Bytes.Out out) {
    out.i32(MAGIC);
    out.bool(state.tornDown).i64(state.terminationSeq);
    JobTable jobs = state.jobs();
    out.i64(jobs.lastMinted()).i64(state.allocations().lastMintedSessionId());
    out.i64(state.asks().lastAskId()).i64(state.nodes().joinSeq());
    strings(out, new ArrayList<>(jobs.retiredChosenNames()));
    NodeTable nodes = state.nodes();
    out.i32(nodes.size());
    for (Node n : nodes.all()) {
      out.str(n.name()).i32(n.slots()).i32(n.origin().ordinal()).bool(n.controller());
      out.i64(n.claimedBy).i64(n.joinSeq);
    }
    pool(out, nodes.defaultPool());
    List<Job> all = parentsFirst(jobClosure(jobs));
    Map<Job, Integer> index = new IdentityHashMap<>();
    for (int i = 0; i < all.size(); i++) {
      index.put(all.get(i), i);
    }
    out.i32(all.size());
    for (Job j : all) {
      job(out, j, index, nodes);
    }
    out.i32(jobs.size());
    for (Job j : jobs.all()) {
      out.i32(index.get(j)); // the table's own order, which is state
    }
    out.i32(jobs.retirableQueue().size());
    for (Job j : jobs.retirableQueue()) {
      out.i32(index.get(j));
    }
    AllocationTable allocations = state.allocations();
    out.i32(allocations.size());
    for (Allocation a : allocations.all()) {
      allocation(out, a);
    }
    Map<String, Allocation> bySchedulerId = allocations.bySchedulerId();
    out.i32(bySchedulerId.size());
    for (Map.Entry<String, Allocation> e : bySchedulerId.entrySet()) {
      out.str(e.getKey()).str(e.getValue().allocId());
    }
    out.i32(state.asks().size());
    for (Ask a : state.asks().all()) {
      out.i64(a.askId()).i32(a.kind().ordinal());
      out.bool(a.replyTo() != null).i64(a.replyTo() == null ? 0 : a.replyTo().value());
      RecordCodec.write(out, Proc.class, a.requester());
      RecordCodec.write(out, AskTerms.class, a.terms());
      out.bool(a.queued);
      names(out, a.claimed);
    }
    for (Node n : nodes.all()) {
      out.i32(n.residents().size());
      for (ProcRecord p : n.residents()) {
        out.i32(index.get(p.job())).i32(p.rank());
      }
    }
  }

  /**
   * Reads a state written by {@link #write}.
   *
   * @throws Bytes.Corrupt if the bytes are not a snapshot
   */
  public static State read(CoreConfig config, Bytes.In in) {
    try {
      return new Reader(config, in).read();
    } catch (IllegalStateException | NullPointerException | ClassCastException e) {
      throw new Bytes.Corrupt("the snapshot does not make a state: " + e.getMessage());
    }
  }

  /** The table's jobs, then every retired job some listed job still names, in discovery order. */
  private static List<Job> jobClosure(JobTable jobs) {
    List<Job> all = new ArrayList<>(jobs.all());
    Map<Job, Boolean> seen = new IdentityHashMap<>();
    all.forEach(j -> seen.put(j, true));
    for (int i = 0; i < all.size(); i++) {
      Job j = all.get(i);
      if (j.parentJob() != null && seen.put(j.parentJob(), true) == null) {
        all.add(j.parentJob());
      }
      for (Job c : j.children) {
        if (seen.put(c, true) == null) {
          all.add(c);
        }
      }
    }
    return all;
  }

  /**
   * The jobs with every parent before its children (a job's parent is fixed when it is made, and a
   * retired parent may come after its child in the table's order).
   */
  private static List<Job> parentsFirst(List<Job> jobs) {
    List<Job> out = new ArrayList<>(jobs.size());
    Map<Job, Boolean> placed = new IdentityHashMap<>();
    List<Job> chain = new ArrayList<>();
    for (Job j : jobs) {
      chain.clear();
      for (Job a = j; a != null && !placed.containsKey(a); a = a.parentJob()) {
        chain.add(a);
      }
      for (int i = chain.size() - 1; i >= 0; i--) {
        placed.put(chain.get(i), true);
        out.add(chain.get(i));
      }
    }
    return out;
  }

  private static void job(Bytes.Out out, Job j, Map<Job, Integer> index, NodeTable tableNodes) {
    out.str(j.namespace()).i32(j.kind().ordinal());
    out.i32(j.parentJob() == null ? -1 : index.get(j.parentJob()));
    RecordCodec.write(out, Proc.class, j.spawner());
    out.bool(j.replyTo != null).i64(j.replyTo == null ? 0 : j.replyTo.value());
    long[] targets = j.targetSessions();
    out.i32(targets.length);
    for (long t : targets) {
      out.i64(t);
    }
    out.i32(j.apps() == null ? -1 : j.apps().size());
    if (j.apps() != null) {
      for (App app : j.apps()) {
        RecordCodec.write(out, App.class, app);
      }
    }
    out.i32(j.mapBy() == null ? -1 : j.mapBy().ordinal());
    out.bool(j.recoverable);
    RecordCodec.write(out, Integer.class, j.stdinRank);
    RecordCodec.write(out, Integer.class, j.abortExitCode);
    out.i32(j.replyInfos.size());
    for (Info info : j.replyInfos) {
      RecordCodec.write(out, Info.class, info);
    }
    RecordCodec.write(out, ProcEnd.class, j.firstAbnormal);
    out.i32(j.state.ordinal()).i32(j.status).i32(j.exitCode).bool(j.stopped);
    out.i32(j.liveProcs).i32(j.startedProcs).i32(j.liveDescendants).i64(j.terminationSeq);
    out.bool(j.queuedToRetire).bool(j.pendingTermination).bool(j.retired).i32(j.retiredChildren);
    out.i32(j.procs == null ? -1 : j.procs.length);
    if (j.procs != null) {
      for (ProcRecord p : j.procs) {
        out.bool(p != null);
        if (p != null) {
          Node n = p.nodeRecord();
          boolean gone = tableNodes.get(n.name()) != n;
          out.str(n.name()).bool(gone);
          if (gone) {
            // The node left the DVM; the ended process still names it.
            out.i32(n.slots()).i32(n.origin().ordinal()).bool(n.controller());
          }
          out.i32(p.appIndex()).i64(p.pid).i32(p.state.ordinal());
          RecordCodec.write(out, ProcEnd.class, p.end);
        }
      }
    }
    out.i32(j.children.size());
    for (Job c : j.children) {
      out.i32(index.get(c));
    }
    allocIds(out, j.owning);
    allocIds(out, j.ownerOf);
    out.i32(j.asksFor.size());
    for (Ask a : j.asksFor) {
      out.i64(a.askId());
    }
  }

  private static void allocation(Bytes.Out out, Allocation a) {
    out.str(a.allocId()).i64(a.sessionId()).str(a.allocReqId()).str(a.owner());
    RecordCodec.write(out, Proc.class, a.requester);
    RecordCodec.write(out, AllocInheritance.class, a.inheritance);
    out.bool(a.reserved());
    RecordCodec.write(out, Long.class, a.parentSessionId());
    out.bool(a.separated).bool(a.detached).str(a.schedulerAllocId());
    RecordCodec.write(out, Long.class, a.timeLimitSeconds);
    out.bool(a.schedulerSession()).bool(a.autoComplete());
    RecordCodec.write(out, Long.class, a.deadlineNs);
    out.bool(a.terminating);
    out.i32(a.lent.size());
    for (NodeSpec n : a.lent) {
      out.str(n.name()).i32(n.slots());
    }
    out.i64(a.lendSeconds);
    out.i32(a.history.size());
    for (JobStatus s : a.history) {
      out.str(s.namespace()).i32(s.status()).i32(s.exitCode());
    }
    names(out, a.members);
    strings(out, new ArrayList<>(a.owners));
    List<String> jobs = new ArrayList<>();
    a.jobs.forEach(j -> jobs.add(j.namespace()));
    strings(out, jobs);
    allocIds(out, a.children);
    out.str(a.parent == null ? null : a.parent.allocId());
    if (a.pool != null) {
      pool(out, a.pool);
    }
  }

  private static void pool(Bytes.Out out, Pool p) {
    names(out, p.nodes());
    names(out, p.withFreeSlots());
    out.i64(p.freeSlots());
  }

  private static void names(Bytes.Out out, Iterable<Node> nodes) {
    List<String> names = new ArrayList<>();
    nodes.forEach(n -> names.add(n.name()));
    strings(out, names);
  }

  private static void allocIds(Bytes.Out out, List<Allocation> list) {
    List<String> ids = new ArrayList<>(list.size());
    list.forEach(a -> ids.add(a.allocId()));
    strings(out, ids);
  }

  private static void strings(Bytes.Out out, List<String> list) {
    out.i32(list.size());
    for (String s : list) {
      out.str(s);
    }
  }

  /** Reads in the order {@link #write} wrote. */
  private static final class Reader {
    private final CoreConfig config;
    private final Bytes.In in;
    private final State state;
    private final Map<String, Node> nodes = new HashMap<>();
    private final Map<String, Allocation> allocations = new HashMap<>();
    private final Map<Long, Ask> asks = new HashMap<>();
    private Job[] jobs;
    private final Map<String, Job> tableByName = new HashMap<>();
    private final List<Runnable> links = new ArrayList<>();

    Reader(CoreConfig config, Bytes.In in) {
      this.config = config;
      this.in = in;
      this.state = State.empty(config);
    }

    State read() {
      if (in.i32() != MAGIC) {
        throw new Bytes.Corrupt("not a state snapshot");
      }
      state.tornDown = in.bool();
      state.terminationSeq = in.i64();
      long lastMinted = in.i64();
      long lastSession = in.i64();
      long lastAsk = in.i64();
      long joinSeq = in.i64();
      List<String> retiredChosen = strings();
      int nodeCount = in.count(16);
      for (int i = 0; i < nodeCount; i++) {
        Node n = new Node(in.str(), in.i32(), enumOf(Origin.values(), in.i32()), in.bool());
        n.claimedBy = in.i64();
        n.joinSeq = in.i64();
        Check.state(nodes.put(n.name(), n) == null, "node listed twice", n.name());
        state.nodes().restore(n);
      }
      readPool(state.nodes().defaultPool());
      int allJobs = in.count(1);
      jobs = new Job[allJobs];
      int[] parents = new int[allJobs];
      List<Runnable> jobLinks = new ArrayList<>();
      for (int i = 0; i < allJobs; i++) {
        readJob(i, parents, jobLinks);
      }
      int tableJobs = in.count(4);
      List<Job> table = new ArrayList<>(tableJobs);
      for (int i = 0; i < tableJobs; i++) {
        Job j = job(in.i32());
        Check.state(tableByName.put(j.namespace(), j) == null, "job twice in the table", i);
        table.add(j);
      }
      List<Job> retirable = new ArrayList<>();
      int queued = in.count(4);
      for (int i = 0; i < queued; i++) {
        retirable.add(job(in.i32()));
      }
      int allocationCount = in.count(1);
      for (int i = 0; i < allocationCount; i++) {
        readAllocation();
      }
      Map<String, Allocation> bySchedulerId = new HashMap<>();
      int schedIds = in.count(8);
      for (int i = 0; i < schedIds; i++) {
        bySchedulerId.put(in.str(), allocation(in.str()));
      }
      int askCount = in.count(8);
      for (int i = 0; i < askCount; i++) {
        readAsk();
      }
      jobLinks.forEach(Runnable::run);
      links.forEach(Runnable::run);
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
      state.jobs().restore(table, retiredChosen, retirable, lastMinted);
      state.allocations().restore(bySchedulerId, lastSession);
      state.asks().restoreLastAskId(lastAsk);
      state.nodes().restoreCounters(joinSeq, slotsInUse);
      return state;
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
      j.recoverable = in.bool();
      j.stdinRank = (Integer) RecordCodec.read(in, Integer.class);
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
      int size = in.i32();
      if (size >= 0) {
        Check.state(size <= in.remaining(), "a job larger than its snapshot", namespace);
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
            j.procs[r] = p;
          }
        }
      }
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
      String allocId = in.str();
      long sessionId = in.i64();
      String allocReqId = in.str();
      String owner = in.str();
      Proc requester = (Proc) RecordCodec.read(in, Proc.class);
      AllocInheritance inheritance =
          (AllocInheritance) RecordCodec.read(in, AllocInheritance.class);
      boolean reserved = in.bool();
      Long parentSession = (Long) RecordCodec.read(in, Long.class);
      boolean separated = in.bool();
      boolean detached = in.bool();
      String schedulerAllocId = in.str();
      Long timeLimit = (Long) RecordCodec.read(in, Long.class);
      boolean schedulerSession = in.bool();
      boolean autoComplete = in.bool();
      Change.AllocationCreated created =
          new Change.AllocationCreated(
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
      Allocation a = new Allocation(created, jobByName(owner));
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
}
