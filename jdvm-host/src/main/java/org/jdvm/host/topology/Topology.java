package org.jdvm.host.topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * The cpus a node may run its processes on, each with the objects it sits in: package (socket),
 * NUMA node, core, and its caches. Indexes are logical, as hwloc numbers its objects: 0, 1, ... in
 * the order of their first cpu, over the cpus of the host that this process may use (a node's share
 * of a host keeps the host's numbering, so a report names the real core).
 *
 * @param cpus ordered by {@link Cpu#id}; never empty
 */
public record Topology(List<Cpu> cpus) {
  /** No cache at this level. */
  public static final int NONE = -1;

  /** The machine's architecture as {@code uname -m} names it (Java says amd64 for x86_64). */
  public static final String ARCH =
      System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch");

  /**
   * One hardware thread.
   *
   * @param id its number for the kernel ({@code cpuN}, what {@code sched_setaffinity} takes)
   * @param pu its logical index as hwloc gives it: hardware threads in core order, so the threads
   *     of core 0 come first whatever their kernel numbers
   * @param pkg its package's logical index
   * @param numa its NUMA node's logical index (0 where the host has no NUMA nodes in /sys)
   * @param core its core's logical index, across packages
   * @param l3 its L3 cache's logical index, or {@link #NONE}
   * @param l2 its L2 cache's logical index, or {@link #NONE}
   * @param l1 its L1 data cache's logical index, or {@link #NONE}
   */
  public record Cpu(int id, int pu, int pkg, int numa, int core, int l3, int l2, int l1) {
    /** A cpu without caches known, its logical index its kernel number. */
    public Cpu(int id, int pkg, int numa, int core) {
      this(id, id, pkg, numa, core, NONE, NONE, NONE);
    }
  }

  /** The kinds of objects a process can be mapped to or bound to. */
  public enum Level {
    PACKAGE("package"),
    NUMA("numa"),
    CORE("core"),
    HWTHREAD("hwthread");

    private final String word;

    Level(String word) {
      this.word = word;
    }

    /** The word mpirun spells it with. */
    public String word() {
      return word;
    }

    int of(Cpu c) {
      return switch (this) {
        case PACKAGE -> c.pkg();
        case NUMA -> c.numa();
        case CORE -> c.core();
        case HWTHREAD -> c.pu();
      };
    }
  }

  public Topology {
    cpus = cpus.stream().sorted(Comparator.comparingInt(Cpu::id)).toList();
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("a topology without cpus");
    }
  }

  /** The set of every cpu. */
  public BitSet cpuSet() {
    BitSet s = new BitSet();
    cpus.forEach(c -> s.set(c.id()));
    return s;
  }

  /** The objects of a level, in logical order, each as the set of its cpus here. */
  public List<BitSet> objects(Level level) {
    return group(level::of);
  }

  /** The logical indexes of a level's objects, in the order of {@link #objects}. */
  public List<Integer> indexes(Level level) {
    Map<Integer, Boolean> seen = new TreeMap<>();
    cpus.forEach(c -> seen.put(level.of(c), true));
    return new ArrayList<>(seen.keySet());
  }

  /** How many objects of a level there are. */
  public int count(Level level) {
    return indexes(level).size();
  }

  private List<BitSet> group(ToIntFunction<Cpu> key) {
    Map<Integer, BitSet> by = new TreeMap<>();
    for (Cpu c : cpus) {
      int k = key.applyAsInt(c);
      if (k != NONE) {
        by.computeIfAbsent(k, x -> new BitSet()).set(c.id());
      }
    }
    return new ArrayList<>(by.values());
  }

  /** The cpu with this kernel number, or {@code null}. */
  public Cpu cpu(int id) {
    for (Cpu c : cpus) {
      if (c.id() == id) {
        return c;
      }
    }
    return null;
  }

  /** The same topology on fewer cpus (a virtual node's share of its host): indexes are kept. */
  public Topology restrictedTo(BitSet set) {
    return new Topology(cpus.stream().filter(c -> set.get(c.id())).toList());
  }

  /**
   * Share {@code index} of {@code of} virtual nodes on this host: when there are no more nodes than
   * cores, each node a contiguous block of whole cores (the first {@code cores mod of} nodes one
   * core more); when there are more, node i the one core {@code i mod cores}, so nodes share cores
   * round-robin. A core's hardware threads always go together.
   */
  public Topology share(int index, int of) {
    if (of < 1 || index < 0) {
      throw new IllegalArgumentException("share " + index + " of " + of);
    }
    List<BitSet> cores = objects(Level.CORE);
    int c = cores.size();
    BitSet mine = new BitSet();
    if (of > c) {
      mine.or(cores.get(index % c));
    } else {
      int i = index % of;
      int base = c / of;
      int extra = c % of;
      int from = i * base + Math.min(i, extra);
      int to = from + base + (i < extra ? 1 : 0);
      for (int k = from; k < to; k++) {
        mine.or(cores.get(k));
      }
    }
    return restrictedTo(mine);
  }

  /**
   * The topology as one line, for an agent's hello: each cpu as {@code
   * id.pu.package.numa.core.l3.l2.l1}, comma-separated ({@link #decode} reads it back).
   */
  public String encode() {
    StringBuilder b = new StringBuilder();
    for (Cpu c : cpus) {
      if (!b.isEmpty()) {
        b.append(',');
      }
      b.append(c.id()).append('.').append(c.pu()).append('.').append(c.pkg()).append('.');
      b.append(c.numa()).append('.').append(c.core()).append('.').append(c.l3()).append('.');
      b.append(c.l2()).append('.').append(c.l1());
    }
    return b.toString();
  }

  /** A topology {@link #encode} wrote, or {@code null} for "" or a text that is not one. */
  public static Topology decodeOrNull(String text) {
    try {
      return text == null || text.isEmpty() ? null : decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * A topology {@link #encode} wrote.
   *
   * @throws IllegalArgumentException when the text is not one
   */
  public static Topology decode(String text) {
    List<Cpu> cpus = new ArrayList<>();
    try {
      for (String one : text.split(",")) {
        String[] f = one.split("\\.");
        if (f.length != 8) {
          throw new IllegalArgumentException("not a topology: " + text);
        }
        int[] v = new int[8];
        for (int i = 0; i < 8; i++) {
          v[i] = Integer.parseInt(f[i]);
        }
        cpus.add(new Cpu(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a topology: " + text, e);
    }
    return new Topology(cpus);
  }

  /**
   * The signature of this topology, in the form PRRTE's {@code prte_hwloc_base_get_topo_signature}
   * gave {@code PMIX_TOPOLOGY_SIGNATURE} ({@code "%dN:%dS:%dL3:%dL2:%dL1:%dC:%dH:%s:%s"}: NUMA
   * nodes, packages, L3, L2 and L1 caches, cores, hardware threads, architecture, byte order), so
   * two nodes whose processes are laid out alike have the same one.
   */
  public String signature() {
    return count(Level.NUMA)
        + "N:"
        + count(Level.PACKAGE)
        + "S:"
        + group(Cpu::l3).size()
        + "L3:"
        + group(Cpu::l2).size()
        + "L2:"
        + group(Cpu::l1).size()
        + "L1:"
        + count(Level.CORE)
        + "C:"
        + cpus.size()
        + "H:"
        + ARCH
        + ":le";
  }

  /**
   * The locality string of a set of these cpus, as OpenPMIx's {@code
   * pmix_hwloc_generate_locality_string} writes {@code PMIX_LOCALITY_STRING} and Open MPI's {@code
   * opal_hwloc_compute_relative_locality} reads it: for each kind of object from the package down,
   * a two-letter code and the logical indexes of the objects the set touches, then the NUMA nodes:
   * {@code SK0:L30:L20-1:L10-1:CR0-1:HT0-3:NM0}. Kinds the host does not have are left out.
   */
  public String localityString(BitSet set) {
    StringBuilder b = new StringBuilder();
    append(b, "SK", set, Cpu::pkg);
    append(b, "L3", set, Cpu::l3);
    append(b, "L2", set, Cpu::l2);
    append(b, "L1", set, Cpu::l1);
    append(b, "CR", set, Cpu::core);
    append(b, "HT", set, Cpu::pu);
    append(b, "NM", set, Cpu::numa);
    return b.toString();
  }

  private void append(StringBuilder b, String code, BitSet set, ToIntFunction<Cpu> key) {
    BitSet touched = new BitSet();
    for (Cpu c : cpus) {
      int k = key.applyAsInt(c);
      if (set.get(c.id()) && k != NONE) {
        touched.set(k);
      }
    }
    if (touched.isEmpty()) {
      return;
    }
    if (!b.isEmpty()) {
      b.append(':');
    }
    b.append(code).append(CpuList.format(touched));
  }
}
