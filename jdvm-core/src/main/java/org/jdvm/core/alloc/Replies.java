package org.jdvm.core.alloc;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.state.Allocation;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;

/**
 * What a successful allocation reply carries (spec §8.2.1.5.2; decisions.md #9): {@code
 * PMIX_ALLOC_ID}, {@code PMIX_ALLOC_REQ_ID} when one is known (the request's own, else the
 * allocation's), {@code PMIX_SESSION_ID}, the nodes this request added as {@code
 * PMIX_ALLOC_NODE_LIST} (absent when it added none, e.g. an EXTEND in time only), and the
 * scheduler's time limit as {@code PMIX_ALLOC_TIME} seconds when it set one.
 */
public final class Replies {
  private Replies() {}

  public static List<Info> allocation(Allocation a, String requestReqId, List<String> nodes) {
    List<Info> infos = new ArrayList<>(5);
    infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(a.allocId())));
    String reqId = requestReqId != null ? requestReqId : a.allocReqId();
    if (reqId != null) {
      infos.add(Info.of(PmixKeys.ALLOC_REQ_ID, Value.string(reqId)));
    }
    infos.add(Info.of(PmixKeys.SESSION_ID, Value.uint32(a.sessionId())));
    if (!nodes.isEmpty()) {
      infos.add(Info.of(PmixKeys.ALLOC_NODE_LIST, Value.string(String.join(",", nodes))));
    }
    if (a.timeLimitSeconds() != null) {
      infos.add(Info.of(PmixKeys.ALLOC_TIME, Value.uint32(a.timeLimitSeconds())));
    }
    return infos;
  }

  /** The reply to a release: the allocation (when one) and the nodes it gave up. */
  public static List<Info> released(String allocId, List<String> nodes) {
    List<Info> infos = new ArrayList<>(2);
    if (allocId != null) {
      infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(allocId)));
    }
    infos.add(Info.of(PmixKeys.ALLOC_NODE_LIST, Value.string(String.join(",", nodes))));
    return infos;
  }
}
