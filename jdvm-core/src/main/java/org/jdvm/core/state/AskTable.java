package org.jdvm.core.state;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;

/**
 * Requests waiting for the scheduler, by ask id; NEW asks also by the {@code PMIX_ALLOC_ID} and
 * {@code PMIX_ALLOC_REQ_ID} they will carry, so those stay unique while the scheduler thinks.
 */
public final class AskTable {
  private final LinkedHashMap<Long, Ask> byId = new LinkedHashMap<>();
  private final HashMap<String, Ask> byNewAllocId = new HashMap<>();
  private final HashMap<String, Ask> byNewReqId = new HashMap<>();
  private final HashMap<String, Integer> countByRequester = new HashMap<>();
  private long lastAskId;

  public Ask get(long askId) {
    return byId.get(askId);
  }

  /** A pending NEW that will create the allocation with this id. */
  public Ask newByAllocId(String allocId) {
    return allocId == null ? null : byNewAllocId.get(allocId);
  }

  /** A pending NEW that carries this request id. */
  public Ask newByReqId(String allocReqId) {
    return allocReqId == null ? null : byNewReqId.get(allocReqId);
  }

  public Collection<Ask> all() {
    return Collections.unmodifiableCollection(byId.values());
  }

  public int size() {
    return byId.size();
  }

  /** How many asks the requester's namespace has waiting. */
  public int countBy(String requesterNamespace) {
    return countByRequester.getOrDefault(requesterNamespace, 0);
  }

  public long nextAskId() {
    return lastAskId + 1;
  }

  void add(Ask ask) {
    Check.state(byId.putIfAbsent(ask.askId(), ask) == null, "ask id reused", ask);
    lastAskId = Math.max(lastAskId, ask.askId());
    countByRequester.merge(ask.requester().nspace(), 1, Integer::sum);
    if (ask.kind() == org.jdvm.core.AskKind.NEW) {
      if (ask.allocId() != null) {
        byNewAllocId.put(ask.allocId(), ask);
      }
      if (ask.allocReqId() != null) {
        byNewReqId.put(ask.allocReqId(), ask);
      }
    }
  }

  void remove(Ask ask) {
    Check.state(byId.remove(ask.askId()) == ask, "ask closed twice", ask);
    countByRequester.merge(ask.requester().nspace(), -1, (n, d) -> n + d == 0 ? null : n + d);
    if (ask.kind() == org.jdvm.core.AskKind.NEW) {
      byNewAllocId.remove(ask.allocId(), ask);
      byNewReqId.remove(ask.allocReqId(), ask);
    }
  }

  void restoreLastAskId(long last) {
    Check.state(last >= lastAskId, "an ask above the last ask id", last);
    lastAskId = last;
  }

  long lastAskId() {
    return lastAskId;
  }
}
