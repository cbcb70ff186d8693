package org.jdvm.core.state;

import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every live allocation, by {@code PMIX_ALLOC_ID}, by {@code PMIX_ALLOC_REQ_ID}, by the scheduler's
 * own id and by session id; and the armed session deadlines in time order.
 */
public final class AllocationTable {
  private final LinkedHashMap<String, Allocation> byId = new LinkedHashMap<>();
  private final HashMap<String, Allocation> byReqId = new HashMap<>();
  private final HashMap<String, Allocation> bySchedulerId = new HashMap<>();
  private final HashMap<Long, Allocation> bySession = new HashMap<>();
  private final TreeSet<Allocation> deadlines =
      new TreeSet<>(
          Comparator.comparingLong((Allocation a) -> a.deadlineNs)
              .thenComparingLong(Allocation::sessionId));
  private long lastMintedSessionId;

  public Allocation byAllocId(String allocId) {
    return allocId == null ? null : byId.get(allocId);
  }

  /** By {@code PMIX_ALLOC_ID}, then by the scheduler's own id. */
  public Allocation byAnyId(String id) {
    Allocation a = byAllocId(id);
    return a != null || id == null ? a : bySchedulerId.get(id);
  }

  public Allocation byReqId(String allocReqId) {
    return allocReqId == null ? null : byReqId.get(allocReqId);
  }

  public Allocation bySession(long sessionId) {
    return bySession.get(sessionId);
  }

  public Collection<Allocation> all() {
    return Collections.unmodifiableCollection(byId.values());
  }

  public Collection<String> ids() {
    return Collections.unmodifiableSet(byId.keySet());
  }

  public int size() {
    return byId.size();
  }

  /** The next session id to mint: above the last minted one, skipping ids in use. */
  public long nextSessionId() {
    long id = lastMintedSessionId + 1;
    while (bySession.containsKey(id)) {
      id++;
    }
    Check.state(id <= Sessions.MAX_ID, "session ids exhausted");
    return id;
  }

  /** The allocation with the earliest armed deadline, or {@code null}. */
  public Allocation earliestDeadline() {
    return deadlines.isEmpty() ? null : deadlines.first();
  }

  void add(Allocation a, boolean minted) {
    Check.state(byId.putIfAbsent(a.allocId(), a) == null, "allocation id reused", a);
    Check.state(bySession.putIfAbsent(a.sessionId(), a) == null, "session id reused", a);
    if (a.allocReqId() != null) {
      Check.state(byReqId.putIfAbsent(a.allocReqId(), a) == null, "request id reused", a);
    }
    if (a.schedulerAllocId() != null) {
      bySchedulerId.putIfAbsent(a.schedulerAllocId(), a);
    }
    if (minted) {
      lastMintedSessionId = Math.max(lastMintedSessionId, a.sessionId());
    }
  }

  void remove(Allocation a) {
    Check.state(byId.remove(a.allocId()) == a, "allocation removed twice", a);
    bySession.remove(a.sessionId());
    if (a.allocReqId() != null) {
      byReqId.remove(a.allocReqId());
    }
    if (a.schedulerAllocId() != null && bySchedulerId.get(a.schedulerAllocId()) == a) {
      bySchedulerId.remove(a.schedulerAllocId());
    }
    setDeadline(a, null);
  }

  void setDeadline(Allocation a, Long deadlineNs) {
    if (a.deadlineNs != null) {
      deadlines.remove(a);
    }
    a.deadlineNs = deadlineNs;
    if (deadlineNs != null) {
      deadlines.add(a);
    }
  }

  Map<String, Allocation> bySchedulerId() {
    return bySchedulerId;
  }

  /** Adds an allocation read from a snapshot, with its deadline. */
  void restore(Allocation a, Long deadlineNs) {
    Check.state(byId.putIfAbsent(a.allocId(), a) == null, "allocation id reused", a);
    Check.state(bySession.putIfAbsent(a.sessionId(), a) == null, "session id reused", a);
    if (a.allocReqId() != null) {
      Check.state(byReqId.putIfAbsent(a.allocReqId(), a) == null, "request id reused", a);
    }
    setDeadline(a, deadlineNs);
  }

  /** The scheduler-id index and the session counter of a snapshot. */
  void restore(Map<String, Allocation> schedulerIds, long lastSession) {
    bySchedulerId.putAll(schedulerIds);
    lastMintedSessionId = lastSession;
  }

  long lastMintedSessionId() {
    return lastMintedSessionId;
  }
}
