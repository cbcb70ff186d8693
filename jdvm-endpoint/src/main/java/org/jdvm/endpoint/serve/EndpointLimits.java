package org.jdvm.endpoint.serve;

/**
 * What one peer may make the endpoint hold (house-style.md "TigerBeetle"): past a limit the request
 * is refused with {@code PMIX_ERR_OUT_OF_RESOURCE} and nothing changes. Frame and queue sizes are
 * bounded by the transport; counts the core keeps (processes, nodes, allocations) by the core's own
 * limits.
 *
 * @param pendingRequests requests one connection may have waiting for the DVM at once; a libpmix
 *     client waits for each blocking call, so only a flood of non-blocking ones reaches it
 * @param infosPerRequest infos one request may carry (a C caller passes a handful; the codec
 *     already bounds the bytes, this bounds what reaches the core)
 * @param namespacesPerRequest distinct namespaces (or processes) one request may name as targets
 * @param eventCodesPerConnection event codes one connection may register
 * @param iofPullsPerConnection output registrations (IOF_PULL) one connection may hold
 * @param modexBytesPerRank bytes one rank's committed data may hold, both scopes together, counted
 *     as the keys' size on the wire (Open MPI 4.1 commits about 4.3 KiB per rank)
 * @param fencesPerNamespace fences naming one namespace that may be open at once (Open MPI has one
 *     open at a time; a non-blocking caller a few)
 */
public record EndpointLimits(
    int pendingRequests,
    int infosPerRequest,
    int namespacesPerRequest,
    int eventCodesPerConnection,
    int iofPullsPerConnection,
    long modexBytesPerRank,
    int fencesPerNamespace) {

  /** Far above what any libpmix caller does, far below what would strain the DVM. */
  public static final EndpointLimits DEFAULT =
      new EndpointLimits(1024, 4096, 4096, 1024, 256, 1 << 20, 256);

  public EndpointLimits {
    if (pendingRequests < 1
        || infosPerRequest < 1
        || namespacesPerRequest < 1
        || eventCodesPerConnection < 1
        || iofPullsPerConnection < 1
        || modexBytesPerRank < 1
        || fencesPerNamespace < 1) {
      throw new IllegalArgumentException("every endpoint limit must be at least 1: " + this);
    }
  }
}
