package org.jdvm.core.query;

import java.util.List;

/**
 * What a launched process needs at {@code PMIx_Init}: who it is, how big its job is, where it runs,
 * its peers on that node, its app, and the allocation it runs in.
 *
 * @param allocId the primary session's allocation id, or {@code null} in the default session
 */
public record ProcInitInfo(
    String namespace,
    int rank,
    int jobSize,
    String node,
    List<Integer> localPeers,
    int appIndex,
    long sessionId,
    String allocId) {
  public ProcInitInfo {
    localPeers = List.copyOf(localPeers);
  }
}
