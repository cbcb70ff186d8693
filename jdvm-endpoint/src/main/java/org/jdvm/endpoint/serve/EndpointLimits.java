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
 * @param modexBytesPerJob bytes all ranks of one job may hold in committed data together, counted
 *     as {@code modexBytesPerRank}; past it a commit is refused as past the rank's bound
 * @param inFlightPerConnection requests of one connection that may wait for the controller thread
 *     at once (reads of the DVM's state, requests not yet taken): while this many wait, the
 *     connection's next frame is not read, so a flood waits in its own socket, not ahead of
 *     everyone else's requests (docs/protocol.md "What one peer may cost")
 * @param requestsPerSecond the rate one connection's requests are read at, in the long run; a
 *     connection past it is slowed (its next frame is read when a token is there), never refused
 * @param requestBurst requests one connection may send at once before the rate slows it
 */
public record EndpointLimits(
    int pendingRequests,
    int infosPerRequest,
    int namespacesPerRequest,
    int eventCodesPerConnection,
    int iofPullsPerConnection,
    long modexBytesPerRank,
    int fencesPerNamespace,
    long modexBytesPerJob,
    int inFlightPerConnection,
    int requestsPerSecond,
    int requestBurst) {

  /** Far above what any libpmix caller does, far below what would strain the DVM. */
  public static final EndpointLimits DEFAULT =
      new EndpointLimits(1024, 4096, 4096, 1024, 256, 1 << 20, 256, 256L << 20, 16, 5000, 10_000);

  /** The bounds on counts and sizes given, the rates and shared bytes at their defaults. */
  public EndpointLimits(
      int pendingRequests,
      int infosPerRequest,
      int namespacesPerRequest,
      int eventCodesPerConnection,
      int iofPullsPerConnection,
      long modexBytesPerRank,
      int fencesPerNamespace) {
    this(
        pendingRequests,
        infosPerRequest,
        namespacesPerRequest,
        eventCodesPerConnection,
        iofPullsPerConnection,
        modexBytesPerRank,
        fencesPerNamespace,
        256L << 20,
        16,
        5000,
        10_000);
  }

  public EndpointLimits {
    if (pendingRequests < 1
        || infosPerRequest < 1
        || namespacesPerRequest < 1
        || eventCodesPerConnection < 1
        || iofPullsPerConnection < 1
        || modexBytesPerRank < 1
        || fencesPerNamespace < 1
        || modexBytesPerJob < 1
        || inFlightPerConnection < 1
        || requestsPerSecond < 1
        || requestBurst < 1) {
      throw new IllegalArgumentException("every endpoint limit must be at least 1: " + this);
    }
  }
}
