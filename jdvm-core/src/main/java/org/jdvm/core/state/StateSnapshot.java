package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.AskTerms;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect.JobStatus;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.ProcUsage;
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
  static final int MAGIC = 0x4A53_4E31; // "JSN1"

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
      return new SnapshotReader(config, in).read();
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
    out.i32(j.fill == null ? -1 : j.fill.perNode()).bool(j.fill != null && j.fill.oversubscribe());
    out.bool(j.fill != null && j.fill.rankByNode());
    RecordCodec.write(out, Integer.class, j.stdinRank);
    RecordCodec.write(out, Long.class, j.deadlineNs);
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
          RecordCodec.write(out, ProcUsage.class, p.usage);
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
}
