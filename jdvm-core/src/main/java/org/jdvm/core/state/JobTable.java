package org.jdvm.core.state;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import org.jdvm.core.JobKind;

/**
 * Every namespace the core knows, and the genealogy's live-descendant counts (decisions.md #12): a
 * spawn adds one to each ancestor's count and a termination takes one away, so whether a namespace
 * still has a live descendant anywhere, in any session, is a field read.
 *
 * <p>A terminated job stays visible to queries until nothing needs it any more (no live descendant,
 * no allocation it owns) and more than the configured number of such jobs exist; then the oldest is
 * retired, which keeps a long-lived DVM's table bounded.
 */
public final class JobTable {
  private final String mintPrefix;
  private final LinkedHashMap<String, Job> byNamespace = new LinkedHashMap<>();
  private final Set<String> retiredChosenNames = new HashSet<>();
  private final ArrayDeque<Job> retirable = new ArrayDeque<>();
  private final java.util.TreeSet<Job> deadlines =
      new java.util.TreeSet<>(
          java.util.Comparator.comparingLong((Job j) -> j.deadlineNs)
              .thenComparing(Job::namespace));
  private long lastMinted;
  private Job scheduler;

  JobTable(String dvmName) {
    this.mintPrefix = dvmName + "@";
  }

  public Job get(String namespace) {
    return namespace == null ? null : byNamespace.get(namespace);
  }

  public Collection<Job> all() {
    return Collections.unmodifiableCollection(byNamespace.values());
  }

  public int size() {
    return byNamespace.size();
  }

  /** The live scheduler, or {@code null}. */
  public Job scheduler() {
    return scheduler;
  }

  /** The next namespace the core would mint: {@code <dvm>@<n>}. */
  public String nextNamespace() {
    return mintPrefix + (lastMinted + 1);
  }

  /** Whether a name has the minted form, which a tool may not choose for itself. */
  public boolean isMintedForm(String namespace) {
    return mintedNumber(namespace) >= 0;
  }

  /** Whether a namespace was ever used (a namespace names one job, ever). */
  public boolean everUsed(String namespace) {
    long n = mintedNumber(namespace);
    return n >= 0
        ? n <= lastMinted
        : byNamespace.containsKey(namespace) || retiredChosenNames.contains(namespace);
  }

  /** Terminated jobs nothing needs any more, oldest first. */
  public int retirableCount() {
    return retirable.size();
  }

  public Job oldestRetirable() {
    return retirable.peekFirst();
  }

  /** The live job with the earliest time limit, or {@code null}. */
  public Job earliestDeadline() {
    return deadlines.isEmpty() ? null : deadlines.first();
  }

  /** Arms ({@code deadlineNs}) or disarms ({@code null}) a job's time limit. */
  void setDeadline(Job job, Long deadlineNs) {
    if (job.deadlineNs != null) {
      deadlines.remove(job);
    }
    job.deadlineNs = deadlineNs;
    if (deadlineNs != null) {
      deadlines.add(job);
    }
  }

  void add(Job job) {
    Check.state(byNamespace.putIfAbsent(job.namespace(), job) == null, "namespace reused", job);
    long n = mintedNumber(job.namespace());
    lastMinted = Math.max(lastMinted, n);
    if (job.kind() == JobKind.SCHEDULER) {
      Check.state(scheduler == null, "a second live scheduler", job);
      scheduler = job;
    }
    Job parent = job.parentJob();
    if (parent != null) {
      if (parent.children.isEmpty()) {
        parent.children = new ArrayList<>(2);
      }
      parent.children.add(job);
      for (Job a = parent; a != null; a = a.parentJob()) {
        a.liveDescendants++;
      }
    }
  }

  /** Marks the job terminated and updates every ancestor's count: O(depth). */
  void terminate(Job job, long seq) {
    Check.state(job.live(), "a namespace terminated twice", job);
    Check.state(job.liveProcs == 0, "a job terminated with live processes", job);
    job.state = Job.State.TERMINATED;
    job.terminationSeq = seq;
    setDeadline(job, null);
    if (job == scheduler) {
      scheduler = null;
    }
    offerRetirable(job);
    for (Job a = job.parentJob(); a != null; a = a.parentJob()) {
      a.liveDescendants--;
      Check.state(a.liveDescendants >= 0, "live-descendant count went negative", a);
      offerRetirable(a);
    }
  }

  /** Enqueues a job for retirement once it is terminated, drained, and owns nothing. */
  void offerRetirable(Job job) {
    if (!job.live() && job.liveDescendants == 0 && job.owning.isEmpty() && !job.queuedToRetire) {
      job.queuedToRetire = true;
      retirable.addLast(job);
    }
  }

  void retire(Job job) {
    Check.state(retirable.peekFirst() == job, "retired out of order", job);
    retirable.pollFirst();
    Check.state(byNamespace.remove(job.namespace()) == job, "retired an unknown job", job);
    if (mintedNumber(job.namespace()) < 0) {
      retiredChosenNames.add(job.namespace());
    }
    job.retired = true;
    Job parent = job.parentJob();
    if (parent != null && !parent.retired) {
      parent.retiredChildren++;
      if (parent.retiredChildren * 2 > parent.children.size()) {
        parent.children.removeIf(c -> c.retired);
        parent.retiredChildren = 0;
      }
    }
  }

  long lastMinted() {
    return lastMinted;
  }

  Set<String> retiredChosenNames() {
    return retiredChosenNames;
  }

  ArrayDeque<Job> retirableQueue() {
    return retirable;
  }

  /** Fills an empty table from a snapshot, indexes and counters as they were. */
  void restore(List<Job> table, List<String> retiredChosen, List<Job> queue, long minted) {
    Check.state(byNamespace.isEmpty(), "restored into a used job table");
    for (Job j : table) {
      Check.state(byNamespace.putIfAbsent(j.namespace(), j) == null, "namespace reused", j);
      if (j.deadlineNs != null) {
        deadlines.add(j);
      }
      if (j.kind() == JobKind.SCHEDULER && j.live()) {
        Check.state(scheduler == null, "a second live scheduler", j);
        scheduler = j;
      }
    }
    retiredChosenNames.addAll(retiredChosen);
    retirable.addAll(queue);
    lastMinted = minted;
  }

  private long mintedNumber(String namespace) {
    if (!namespace.startsWith(mintPrefix) || namespace.length() == mintPrefix.length()) {
      return -1;
    }
    long n = 0;
    for (int i = mintPrefix.length(); i < namespace.length(); i++) {
      char c = namespace.charAt(i);
      if (c < '0' || c > '9' || n > Long.MAX_VALUE / 20) {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }
}
