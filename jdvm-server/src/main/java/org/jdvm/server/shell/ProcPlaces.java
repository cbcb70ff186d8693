package org.jdvm.server.shell;

import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each launched process was bound, kept from its launch until its job ends, for its job data
 * ({@code PMIX_LOCALITY_STRING}, {@code PMIX_CPUSET}, {@code PMIX_TOPOLOGY_SIGNATURE}). Written by
 * the shell before the launch, read by the upstream on the controller thread. Thread-safe.
 */
public final class ProcPlaces {
  /**
   * Where one process was bound.
   *
   * @param cpus its cpus (kernel numbers), {@code null} when not bound
   * @param description PRRTE's report words ({@code package[0][core:0]}, or "not bound")
   * @param locality its {@code PMIX_LOCALITY_STRING}, {@code null} when not bound
   * @param cpuset its {@code PMIX_CPUSET} (a cpu list), {@code null} when not bound
   * @param signature its node's {@code PMIX_TOPOLOGY_SIGNATURE}
   */
  public record Place(
      BitSet cpus, String description, String locality, String cpuset, String signature) {}

  /**
   * A job's policies as PRRTE names them in its job data ({@code prte_rmaps_base_print_mapping},
   * {@code _ranking}, {@code prte_hwloc_base_print_binding}): {@code PMIX_MAPBY} {@code BYCORE},
   * {@code PMIX_RANKBY} {@code SLOT}, {@code PMIX_BINDTO} {@code CORE:OVERLOAD-ALLOWED}; the
   * binding is the one its first node got.
   */
  public record Policies(String mapBy, String rankBy, String bindTo) {}

  private final Map<String, Map<Integer, Place>> byJob = new ConcurrentHashMap<>();

  /** Per node, the cpus of each live bound process, by {@code nspace.rank}. */
  private final Map<String, Map<String, BitSet>> byNode = new ConcurrentHashMap<>();

  private final Map<String, Policies> policies = new ConcurrentHashMap<>();

  void put(String nspace, Policies p) {
    policies.putIfAbsent(nspace, p);
  }

  /** A job's policies, or {@code null} when none of its processes was launched here. */
  public Policies policies(String nspace) {
    return policies.get(nspace);
  }

  /** A job's processes on {@code node} were bound so ({@code places}: by rank). */
  void put(String nspace, String node, Map<Integer, Place> places) {
    byJob.computeIfAbsent(nspace, k -> new ConcurrentHashMap<>()).putAll(places);
    Map<String, BitSet> live = byNode.computeIfAbsent(node, k -> new ConcurrentHashMap<>());
    places.forEach(
        (rank, p) -> {
          if (p.cpus() != null) {
            live.put(nspace + "." + rank, p.cpus());
          }
        });
  }

  /** A process ended: its cpus are free for the next job's binding. */
  void ended(String node, String nspace, int rank) {
    Map<String, BitSet> live = byNode.get(node);
    if (live != null) {
      live.remove(nspace + "." + rank);
    }
  }

  /** The cpu sets the live jobs' bound processes on a node have. */
  java.util.List<BitSet> takenOn(String node) {
    return new java.util.ArrayList<>(byNode.getOrDefault(node, Map.of()).values());
  }

  /** Where a process was bound, or {@code null} when it was not placed by the binder. */
  public Place of(String nspace, int rank) {
    Map<Integer, Place> job = byJob.get(nspace);
    return job == null ? null : job.get(rank);
  }

  /** The job ended. */
  public void forget(String nspace) {
    byJob.remove(nspace);
    policies.remove(nspace);
    byNode.values().forEach(m -> m.keySet().removeIf(k -> k.startsWith(nspace + ".")));
  }
}
