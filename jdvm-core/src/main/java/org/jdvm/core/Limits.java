package org.jdvm.core;

/**
 * A bound on everything a client can make the core hold (house-style.md "TigerBeetle": every loop
 * and queue has a bound). A request that would take the DVM past one is refused with {@code
 * PMIX_ERR_OUT_OF_RESOURCE} (an {@link OverLimit}) before anything changes; a scheduler grant that
 * would is handed back and its requester told the same. Counts are summed in {@code long}, so no
 * input can overflow on the way to a limit. The defaults are sized for a real machine, not for a
 * test: every one of them is well above what the largest systems in service run, and low enough
 * that the core's memory at the limit stays within what a controller on a service node can commit
 * (the core costs about half a KiB per process, and a few hundred bytes per node or allocation; see
 * the module README).
 *
 * @param procsPerSpawn processes one spawn (or one session instantiation with apps) may start.
 *     Default 2^20 = 1,048,576: a flat-MPI job on the whole of Aurora (10,624 nodes × 104 cores ≈
 *     1.1 M ranks) or Frontier (9,408 × 64 ≈ 602 k) fits; one job may fill the whole DVM.
 * @param liveProcs processes alive in the whole DVM at once. Default 2^20: the same machines, fully
 *     subscribed; about 0.5 GiB of core state at the limit.
 * @param appsPerSpawn apps (executables) in one spawn. Default 4,096: MPMD launches couple a
 *     handful to a few hundred executables (coupled climate and multiphysics codes stay below 100);
 *     each app carries its own argv and environment, so this also bounds a spawn's size.
 * @param nodesInDvm nodes the DVM holds at once, start-up pool included. Default 2^18 = 262,144:
 *     above every machine in service, Fugaku's 158,976 nodes included; the core was measured at
 *     100,000 nodes, and no per-command cost grows with the pool.
 * @param nodesPerRequest nodes one allocation request or session control may bring, by count or by
 *     name. Default 2^18: one request may ask for a whole DVM, and no more.
 * @param liveAllocations allocations (reservations, shared allocations and scheduler sessions)
 *     alive at once. Default 2^18: every allocation holds at least one node when it is created, so
 *     more allocations than nodes would only be idle bookkeeping; 10,000 were measured.
 * @param pendingAsksPerRequester requests of one namespace waiting for the scheduler at once (the
 *     only requests the core keeps waiting in a queue of its own). Default 1,024: a PMIx client
 *     usually waits for each allocation request; a workflow manager that pipelines them still gets
 *     a deep queue, and no one client can fill the ask table.
 */
public record Limits(
    int procsPerSpawn,
    int liveProcs,
    int appsPerSpawn,
    int nodesInDvm,
    int nodesPerRequest,
    int liveAllocations,
    int pendingAsksPerRequester) {

  /** The defaults, documented on each component. */
  public static final Limits DEFAULT =
      new Limits(1 << 20, 1 << 20, 4096, 1 << 18, 1 << 18, 1 << 18, 1024);

  /**
   * The longest duration the core accepts (a time limit, a timeout warning, a loan): {@code
   * UINT32_MAX} seconds, about 136 years, the range of {@code PMIX_ALLOC_TIME} on the wire. Longer
   * is nonsense and refused {@code PMIX_ERR_BAD_PARAM}; it also keeps every deadline in nanoseconds
   * far from overflow.
   */
  public static final long MAX_SECONDS = 0xFFFF_FFFFL;

  public Limits {
    positive("procsPerSpawn", procsPerSpawn);
    positive("liveProcs", liveProcs);
    positive("appsPerSpawn", appsPerSpawn);
    positive("nodesInDvm", nodesInDvm);
    positive("nodesPerRequest", nodesPerRequest);
    positive("liveAllocations", liveAllocations);
    positive("pendingAsksPerRequester", pendingAsksPerRequester);
  }

  /**
   * The names {@link #with(String, int)} takes, as {@code jdvm start --limit NAME=N} spells them.
   */
  public static final java.util.List<String> NAMES =
      java.util.List.of(
          "procs-per-spawn",
          "live-procs",
          "apps-per-spawn",
          "nodes-in-dvm",
          "nodes-per-request",
          "live-allocations",
          "pending-asks-per-requester");

  /** These limits with the one named {@code name} (one of {@link #NAMES}) set to {@code n}. */
  public Limits with(String name, int n) {
    return switch (name) {
      case "procs-per-spawn" -> withProcsPerSpawn(n);
      case "live-procs" -> withLiveProcs(n);
      case "apps-per-spawn" -> withAppsPerSpawn(n);
      case "nodes-in-dvm" -> withNodesInDvm(n);
      case "nodes-per-request" -> withNodesPerRequest(n);
      case "live-allocations" -> withLiveAllocations(n);
      case "pending-asks-per-requester" -> withPendingAsksPerRequester(n);
      default ->
          throw new IllegalArgumentException(
              "no limit '" + name + "'; the limits are " + String.join(", ", NAMES));
    };
  }

  private static void positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException("limit " + name + " must be at least 1: " + value);
    }
  }

  public Limits withProcsPerSpawn(int n) {
    return new Limits(
        n,
        liveProcs,
        appsPerSpawn,
        nodesInDvm,
        nodesPerRequest,
        liveAllocations,
        pendingAsksPerRequester);
  }

  public Limits withLiveProcs(int n) {
    return new Limits(
        procsPerSpawn,
        n,
        appsPerSpawn,
        nodesInDvm,
        nodesPerRequest,
        liveAllocations,
        pendingAsksPerRequester);
  }

  public Limits withAppsPerSpawn(int n) {
    return new Limits(
        procsPerSpawn,
        liveProcs,
        n,
        nodesInDvm,
        nodesPerRequest,
        liveAllocations,
        pendingAsksPerRequester);
  }

  public Limits withNodesInDvm(int n) {
    return new Limits(
        procsPerSpawn,
        liveProcs,
        appsPerSpawn,
        n,
        nodesPerRequest,
        liveAllocations,
        pendingAsksPerRequester);
  }

  public Limits withNodesPerRequest(int n) {
    return new Limits(
        procsPerSpawn,
        liveProcs,
        appsPerSpawn,
        nodesInDvm,
        n,
        liveAllocations,
        pendingAsksPerRequester);
  }

  public Limits withLiveAllocations(int n) {
    return new Limits(
        procsPerSpawn,
        liveProcs,
        appsPerSpawn,
        nodesInDvm,
        nodesPerRequest,
        n,
        pendingAsksPerRequester);
  }

  public Limits withPendingAsksPerRequester(int n) {
    return new Limits(
        procsPerSpawn, liveProcs, appsPerSpawn, nodesInDvm, nodesPerRequest, liveAllocations, n);
  }
}
