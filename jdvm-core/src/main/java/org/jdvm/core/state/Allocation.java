package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import org.jdvm.core.Change.AllocationCreated;
import org.jdvm.core.Effect.JobStatus;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.query.AllocationView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Proc;

/**
 * An allocation: a reservation (its own pool of nodes), a shared allocation (members in the default
 * session), or a session the scheduler instantiated. Spec §8.2.1.3–§8.2.1.9; decisions.md #2, #13,
 * #14.
 */
public final class Allocation implements AllocationView {
  private final String allocId;
  private final long sessionId;
  private final String allocReqId;
  private final Job owner;
  private final boolean reserved;
  private final String schedulerAllocId;
  private final boolean schedulerSession;
  private final boolean autoComplete;
  private final Long parentSessionId;
  final Pool pool;
  final LinkedHashSet<Node> members = new LinkedHashSet<>();
  final LinkedHashSet<String> owners = new LinkedHashSet<>(4);
  final LinkedHashSet<Job> jobs = new LinkedHashSet<>(4);
  final List<JobStatus> history;
  final List<Allocation> children = new ArrayList<>(0);
  Allocation parent;
  Proc requester;
  AllocInheritance inheritance;
  Long timeLimitSeconds;
  Long deadlineNs;
  boolean separated;
  boolean detached;
  boolean terminating;
  List<NodeSpec> lent = List.of();
  long lendSeconds;

  Allocation(AllocationCreated c, Job owner) {
    this.allocId = c.allocId();
    this.sessionId = c.sessionId();
    this.allocReqId = c.allocReqId();
    this.owner = owner;
    this.requester = c.requester();
    this.inheritance = c.inheritance();
    this.reserved = c.reserved();
    this.parentSessionId = c.parentSession();
    this.separated = c.separated();
    this.detached = c.detached();
    this.schedulerAllocId = c.schedulerAllocId();
    this.timeLimitSeconds = c.timeLimitSeconds();
    this.schedulerSession = c.scheduled() != null;
    this.autoComplete = schedulerSession && c.scheduled().autoComplete();
    this.history = schedulerSession ? new ArrayList<>() : List.of();
    this.pool = reserved ? new Pool(sessionId) : null;
  }

  @Override
  public String allocId() {
    return allocId;
  }

  @Override
  public String allocReqId() {
    return allocReqId;
  }

  @Override
  public long sessionId() {
    return sessionId;
  }

  @Override
  public String schedulerAllocId() {
    return schedulerAllocId;
  }

  @Override
  public String owner() {
    return owner.namespace();
  }

  public Job ownerJob() {
    return owner;
  }

  @Override
  public Collection<String> owners() {
    return Collections.unmodifiableSet(owners);
  }

  /** Whether {@code namespace} is in the owner set (the scheduler's implicit ownership aside). */
  public boolean ownedBy(String namespace) {
    return owners.contains(namespace);
  }

  @Override
  public Proc requester() {
    return requester;
  }

  @Override
  public AllocInheritance inheritance() {
    return inheritance;
  }

  @Override
  public boolean reserved() {
    return reserved;
  }

  /** The reservation's pool, or {@code null} for a shared allocation. */
  public Pool pool() {
    return pool;
  }

  @Override
  public Collection<Node> nodes() {
    return Collections.unmodifiableSet(members);
  }

  @Override
  public List<NodeSpec> lentNodes() {
    return lent;
  }

  public long lendSeconds() {
    return lendSeconds;
  }

  @Override
  public Long timeLimitSeconds() {
    return timeLimitSeconds;
  }

  /** The armed session deadline, or {@code null}. */
  public Long deadlineNs() {
    return deadlineNs;
  }

  @Override
  public Long parentSessionId() {
    return parent == null ? null : parent.sessionId;
  }

  /** The session it was created as a child of, even if that one has ended since. */
  public Long createdUnderSessionId() {
    return parentSessionId;
  }

  public Allocation parent() {
    return parent;
  }

  public List<Allocation> children() {
    return Collections.unmodifiableList(children);
  }

  @Override
  public boolean separated() {
    return separated;
  }

  /** Whether the owner's termination leaves it alone (a session-control session by default). */
  public boolean detached() {
    return detached;
  }

  @Override
  public boolean schedulerSession() {
    return schedulerSession;
  }

  public boolean autoComplete() {
    return autoComplete;
  }

  public boolean terminating() {
    return terminating;
  }

  @Override
  public String state() {
    return terminating ? "TERMINATING" : "ACTIVE";
  }

  @Override
  public Collection<String> jobs() {
    List<String> names = new ArrayList<>(jobs.size());
    for (Job j : jobs) {
      names.add(j.namespace());
    }
    return names;
  }

  /** The live jobs whose primary session this is. */
  public Collection<Job> liveJobs() {
    return Collections.unmodifiableSet(jobs);
  }

  /** For a scheduler session: every job that ended in it, with its status. */
  public List<JobStatus> history() {
    return Collections.unmodifiableList(history);
  }

  @Override
  public String toString() {
    return allocId;
  }
}
