package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;

/**
 * A successful allocation or session-control request (decisions.md #9): the allocation's id, the
 * request id if one is known, the session id, the nodes the request added (or released), and the
 * time limit the scheduler set; every info of the reply is kept in {@link #infos}.
 *
 * @param allocId {@code PMIX_ALLOC_ID}
 * @param reqId {@code PMIX_ALLOC_REQ_ID}, or {@code null}
 * @param sessionId {@code PMIX_SESSION_ID}, or {@code null}
 * @param nodes {@code PMIX_ALLOC_NODE_LIST}, split; empty when the request added none
 * @param timeLimitSeconds the scheduler's time limit ({@code PMIX_ALLOC_TIME}), or {@code null}
 */
public record AllocationResult(
    String allocId,
    String reqId,
    Long sessionId,
    List<String> nodes,
    Long timeLimitSeconds,
    List<Info> infos) {
  public AllocationResult {
    nodes = List.copyOf(nodes);
    infos = List.copyOf(infos);
  }

  static AllocationResult of(List<Info> infos) {
    String allocId = null;
    String reqId = null;
    Long session = null;
    Long limit = null;
    List<String> nodes = new ArrayList<>();
    for (Info i : infos) {
      Object d = i.value().data();
      switch (i.key()) {
        case PmixKeys.ALLOC_ID -> allocId = d instanceof String s ? s : allocId;
        case PmixKeys.ALLOC_REQ_ID -> reqId = d instanceof String s ? s : reqId;
        case PmixKeys.SESSION_ID -> session = d instanceof Long l ? l : session;
        case PmixKeys.ALLOC_TIME -> limit = d instanceof Long l ? l : limit;
        case PmixKeys.ALLOC_NODE_LIST -> {
          if (d instanceof String s && !s.isEmpty()) {
            nodes.addAll(List.of(s.split(",")));
          }
        }
        default -> {}
      }
    }
    return new AllocationResult(allocId, reqId, session, nodes, limit, infos);
  }

  /**
   * Any other info of the reply as text (e.g. {@code PMIX_NSPACE}, {@code PMIX_SESSION_CTRL_ID}).
   */
  public String info(String key) {
    for (Info i : infos) {
      if (i.key().equals(key)) {
        Object d = i.value().data();
        return d == null ? null : String.valueOf(d);
      }
    }
    return null;
  }
}
