package org.jdvm.host.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a host's topology from {@code /sys} (package-info says why not hwloc), intersected with the
 * cpus this process may use ({@code Cpus_allowed_list} of {@code /proc/self/status}, what {@code
 * sched_getaffinity} returns) and those online, as hwloc restricts itself to its allowed set. Every
 * path is taken under a root directory, so tests read fake trees.
 */
public final class TopologyReader {
  private final Path root;

  /**
   * @param root where {@code sys/} and {@code proc/} are: {@code /} for this host
   */
  public TopologyReader(Path root) {
    this.root = root;
  }

  /** This host's topology, as this process sees it. */
  public static Topology host() throws IOException {
    return new TopologyReader(Path.of("/")).read();
  }

  /** This host's topology, or {@code null} (logged) when it cannot be read: nothing is bound. */
  public static Topology hostOrNull() {
    try {
      return host();
    } catch (IOException | RuntimeException e) {
      System.getLogger("org.jdvm.host")
          .log(System.Logger.Level.WARNING, "cannot read this host's topology; no binding: " + e);
      return null;
    }
  }

  /**
   * The topology.
   *
   * @throws IOException when {@code /sys} has no cpu this process may use
   */
  public Topology read() throws IOException {
    Path cpuDir = root.resolve("sys/devices/system/cpu");
    BitSet allowed = allowed();
    Optional<String> online = text(cpuDir.resolve("online"));
    if (online.isPresent()) {
      allowed.and(CpuList.parse(online.get()));
    }
    Map<Integer, Integer> numaOf = numaNodes();
    List<Raw> raws = new ArrayList<>();
    for (int id = allowed.nextSetBit(0); id >= 0; id = allowed.nextSetBit(id + 1)) {
      Path topo = cpuDir.resolve("cpu" + id).resolve("topology");
      Optional<String> pkg = text(topo.resolve("physical_package_id"));
      Optional<String> core = text(topo.resolve("core_id"));
      if (pkg.isEmpty() || core.isEmpty()) {
        continue; // not present here: offline or not a cpu of this tree
      }
      raws.add(
          new Raw(
              id,
              Integer.parseInt(pkg.get()),
              numaOf.getOrDefault(id, 0),
              Integer.parseInt(core.get()),
              caches(cpuDir.resolve("cpu" + id).resolve("cache"))));
    }
    if (raws.isEmpty()) {
      throw new IOException("no usable cpu in " + cpuDir + " (allowed: " + allowed + ")");
    }
    return logical(raws);
  }

  /** What {@code /sys} says of one cpu, before logical numbering. */
  private record Raw(int id, int pkg, int numa, int core, Map<Integer, String> caches) {}

  /** The cpus allowed to this process; every cpu when the status file is not there. */
  private BitSet allowed() throws IOException {
    Optional<String> status = text(root.resolve("proc/self/status"));
    if (status.isPresent()) {
      for (String line : status.get().split("\n")) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return CpuList.parse(line.substring("Cpus_allowed_list:".length()));
        }
      }
    }
    Optional<String> possible = text(root.resolve("sys/devices/system/cpu/possible"));
    if (possible.isEmpty()) {
      throw new IOException("cannot tell which cpus this process may use");
    }
    return CpuList.parse(possible.get());
  }

  /** Each cpu's NUMA node number ({@code nodeN/cpulist}); empty where there are none. */
  private Map<Integer, Integer> numaNodes() throws IOException {
    Map<Integer, Integer> numaOf = new HashMap<>();
    Path nodes = root.resolve("sys/devices/system/node");
    if (!Files.isDirectory(nodes)) {
      return numaOf;
    }
    try (var list = Files.list(nodes)) {
      for (Path p : list.toList()) {
        String name = p.getFileName().toString();
        if (!name.matches("node[0-9]+")) {
          continue;
        }
        int n = Integer.parseInt(name.substring(4));
        Optional<String> cpus = text(p.resolve("cpulist"));
        if (cpus.isPresent()) {
          BitSet s = CpuList.parse(cpus.get());
          s.stream().forEach(c -> numaOf.put(c, n));
        }
      }
    }
    return numaOf;
  }

  /** A cpu's data and unified caches: level to the cpus sharing it ({@code shared_cpu_list}). */
  private Map<Integer, String> caches(Path dir) throws IOException {
    Map<Integer, String> out = new HashMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (var list = Files.list(dir)) {
      for (Path p : list.toList()) {
        if (!p.getFileName().toString().matches("index[0-9]+")) {
          continue;
        }
        Optional<String> level = text(p.resolve("level"));
        Optional<String> type = text(p.resolve("type"));
        Optional<String> shared = text(p.resolve("shared_cpu_list"));
        if (level.isPresent()
            && shared.isPresent()
            && !type.orElse("Unified").equals("Instruction")) {
          out.put(Integer.parseInt(level.get()), CpuList.format(CpuList.parse(shared.get())));
        }
      }
    }
    return out;
  }

  /** Numbers packages, NUMA nodes, cores and caches logically: in the order of their first cpu. */
  private static Topology logical(List<Raw> raws) {
    Map<Integer, Integer> pkgs = new LinkedHashMap<>();
    Map<Integer, Integer> numas = new TreeMap<>();
    Map<String, Integer> cores = new LinkedHashMap<>();
    List<Map<String, Integer>> caches = List.of(new HashMap<>(), new HashMap<>(), new HashMap<>());
    raws.forEach(r -> numas.put(r.numa(), 0));
    int n = 0;
    for (int k : numas.keySet()) {
      numas.put(k, n++);
    }
    List<Topology.Cpu> cpus = new ArrayList<>();
    for (Raw r : raws) {
      int pkg = pkgs.computeIfAbsent(r.pkg(), k -> pkgs.size());
      int core = cores.computeIfAbsent(r.pkg() + "/" + r.core(), k -> cores.size());
      int[] c = new int[3];
      for (int level = 1; level <= 3; level++) {
        String shared = r.caches().get(level);
        Map<String, Integer> idx = caches.get(level - 1);
        c[level - 1] =
            shared == null ? Topology.NONE : idx.computeIfAbsent(shared, k -> idx.size());
      }
      cpus.add(new Topology.Cpu(r.id(), 0, pkg, numas.get(r.numa()), core, c[2], c[1], c[0]));
    }
    List<Topology.Cpu> byCore = new ArrayList<>(cpus);
    byCore.sort(
        java.util.Comparator.comparingInt(Topology.Cpu::core).thenComparingInt(Topology.Cpu::id));
    List<Topology.Cpu> numbered = new ArrayList<>();
    for (int pu = 0; pu < byCore.size(); pu++) {
      Topology.Cpu x = byCore.get(pu);
      numbered.add(
          new Topology.Cpu(x.id(), pu, x.pkg(), x.numa(), x.core(), x.l3(), x.l2(), x.l1()));
    }
    return new Topology(numbered);
  }

  private static Optional<String> text(Path p) throws IOException {
    try {
      return Optional.of(Files.readString(p).strip());
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty();
    }
  }
}
