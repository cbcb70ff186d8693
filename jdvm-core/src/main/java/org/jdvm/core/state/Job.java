package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.jdvm.core.JobKind;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * A namespace: a tool, the scheduler, or an application job with its processes. Keeps its
 * live-descendant count (decisions.md #12) so a CHILD drain is decided in O(depth).
 */
public final class Job implements JobView {
  /** The status of every job a DVM teardown ends. */
  public static final int TORN_DOWN_STATUS = PmixStatus.ERR_JOB_ABORTED_BY_SYS_EVENT;

  private static final List<Job> NONE = List.of();
  private static final long[] DEFAULT_SESSION = {Sessions.DEFAULT_ID};

  private final String namespace;
  private final JobKind kind;
  private final Job parent;
  private final Proc spawner;
  private final long[] targetSessions;
  private final List<App> apps;
  private final MapBy mapBy;
  boolean recoverable;
  Long deadlineNs;
  NodeFill fill;
  Integer stdinRank;
  Integer abortExitCode;
  RequestId replyTo;
  List<Info> replyInfos = List.of();
  ProcEnd firstAbnormal;
  State state;
  int status;
  int exitCode;
  boolean stopped;
  ProcRecord[] procs;
  int liveProcs;
  int startedProcs;
  int liveDescendants;
  List<Job> children = NONE;
  List<Allocation> owning = List.of();
  List<Allocation> ownerOf = List.of();
  long terminationSeq;
  List<Ask> asksFor = List.of();
  boolean queuedToRetire;
  boolean pendingTermination;
  boolean retired;
  int retiredChildren;

  Job(
      String namespace,
      JobKind kind,
      Job parent,
      Proc spawner,
      RequestId replyTo,
      long[] targetSessions,
      List<App> apps,
      MapBy mapBy) {
    this.namespace = namespace;
    this.kind = kind;
    this.parent = parent;
    this.spawner = spawner;
    this.replyTo = replyTo;
    this.targetSessions = targetSessions == null ? DEFAULT_SESSION : targetSessions;
    this.apps = apps;
    this.mapBy = mapBy;
    this.state = kind == JobKind.APPLICATION ? State.LAUNCHING : State.RUNNING;
    this.status = PmixStatus.SUCCESS;
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public JobKind kind() {
    return kind;
  }

  @Override
  public State state() {
    return state;
  }

  public boolean live() {
    return state != State.TERMINATED;
  }

  @Override
  public String parent() {
    return parent == null ? null : parent.namespace;
  }

  public Job parentJob() {
    return parent;
  }

  /** The process that asked for this job, to which its job-end event goes; or {@code null}. */
  @Override
  public Proc spawner() {
    return spawner;
  }

  /** When the job's time limit ends it ({@code PMIX_JOB_TIMEOUT}), or {@code null}. */
  public Long deadlineNs() {
    return deadlineNs;
  }

  /** The spawn request still to be answered, or {@code null}. */
  public RequestId replyTo() {
    return replyTo;
  }

  /** What the launch reply carries before {@code PMIX_NSPACE}. */
  public List<Info> replyInfos() {
    return replyInfos;
  }

  /** The first process end that was not a clean exit, or {@code null}. */
  public ProcEnd firstAbnormal() {
    return firstAbnormal;
  }

  @Override
  public List<String> children() {
    List<String> names = new ArrayList<>(children.size());
    for (Job child : children) {
      if (!child.retired) {
        names.add(child.namespace);
      }
    }
    return names;
  }

  @Override
  public long primarySessionId() {
    return targetSessions[0];
  }

  public long[] targetSessions() {
    return targetSessions.clone();
  }

  @Override
  public List<Long> targetSessionIds() {
    return Arrays.stream(targetSessions).boxed().toList();
  }

  public List<App> apps() {
    return apps;
  }

  public MapBy mapBy() {
    return mapBy;
  }

  /** {@code -N}/{@code --oversubscribe} as the job was spawned with; {@code null} for neither. */
  public NodeFill fill() {
    return fill;
  }

  /**
   * Whether a process that ends abnormally leaves the others running ({@code
   * PMIX_JOB_RECOVERABLE}).
   */
  public boolean recoverable() {
    return recoverable;
  }

  /** The rank whose stdin is a pipe ({@code Proc.RANK_WILDCARD}: every rank), or {@code null}. */
  public Integer stdinRank() {
    return stdinRank;
  }

  /** The exit code a {@code PMIx_Abort} decided, or {@code null} when the processes decide it. */
  public Integer abortExitCode() {
    return abortExitCode;
  }

  @Override
  public int liveDescendants() {
    return liveDescendants;
  }

  @Override
  public boolean stopped() {
    return stopped;
  }

  @Override
  public int status() {
    return status;
  }

  @Override
  public int exitCode() {
    return exitCode;
  }

  /** The job's size: the number of processes it was spawned with (0 for a tool). */
  public int size() {
    return procs == null ? 0 : procs.length;
  }

  public ProcRecord proc(int rank) {
    return procs == null || rank < 0 || rank >= procs.length ? null : procs[rank];
  }

  @Override
  public List<ProcRecord> procs() {
    return procs == null ? List.of() : Collections.unmodifiableList(Arrays.asList(procs));
  }

  public int liveProcs() {
    return liveProcs;
  }

  public int startedProcs() {
    return startedProcs;
  }

  /** The allocations whose owning namespace this is (their disposition fires on it). */
  public List<Allocation> owning() {
    return Collections.unmodifiableList(owning);
  }

  /** The allocations whose owner set holds this namespace. */
  public List<Allocation> ownerOf() {
    return Collections.unmodifiableList(ownerOf);
  }

  @Override
  public List<String> owningAllocIds() {
    return ids(owning);
  }

  @Override
  public List<String> ownerSetAllocIds() {
    return ids(ownerOf);
  }

  private static List<String> ids(List<Allocation> allocations) {
    List<String> out = new ArrayList<>(allocations.size());
    for (Allocation a : allocations) {
      out.add(a.allocId());
    }
    return out;
  }

  /** The NEW requests waiting for the scheduler whose allocation this namespace would own. */
  public List<Ask> asksFor() {
    return Collections.unmodifiableList(asksFor);
  }

  /** Whether {@code other} is this job or one of its ancestors: O(depth). */
  public boolean hasAncestorOrSelf(String other) {
    for (Job j = this; j != null; j = j.parent) {
      if (j.namespace.equals(other)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return namespace;
  }
}
