/**
 * The host's processor topology and where each process of a job is bound in it.
 *
 * <p>{@link org.jdvm.host.topology.TopologyReader} reads packages, NUMA nodes, cores, hardware
 * threads and caches from {@code /sys} ({@code cpuN/topology/physical_package_id}, {@code core_id},
 * {@code cpuN/cache/indexM}, {@code nodeN/cpulist}), restricted to the cpus this process may use
 * ({@code Cpus_allowed_list}) as hwloc restricts itself to its allowed set. Why {@code /sys} and
 * not hwloc's library through the foreign-function API: an agent's host then needs nothing
 * installed beyond a JDK (hwloc is not on every host, and its ABI changed between 1.x and 2.x);
 * what jdvm binds by — packages, NUMA nodes, cores, threads — is exactly what the kernel publishes
 * there, and hwloc itself reads the same files on Linux. What hwloc adds (PCI devices, distances,
 * memory tiers, Windows and BSD) jdvm does not use. The reader takes a root directory, so tests
 * feed it fake trees.
 *
 * <p>{@link org.jdvm.host.topology.Topology} numbers objects logically, as hwloc does (0, 1, ... in
 * the order of their first cpu), and keeps the host's numbering in a virtual node's share ({@link
 * org.jdvm.host.topology.Topology#share}: contiguous blocks of whole cores per virtual node when
 * there are no more nodes than cores, else one core per node round-robin). It writes the node's
 * signature (PRRTE's {@code PMIX_TOPOLOGY_SIGNATURE} form) and a cpu set's locality string
 * (OpenPMIx's {@code PMIX_LOCALITY_STRING} form; hardware threads by their kernel number).
 *
 * <p>{@link org.jdvm.host.topology.Binder} decides each process's cpus from {@link
 * org.jdvm.host.topology.Directives} as PRRTE's mapper and binder do; it is pure, and the
 * controller runs it for every node before anything of a job starts.
 */
package org.jdvm.host.topology;
