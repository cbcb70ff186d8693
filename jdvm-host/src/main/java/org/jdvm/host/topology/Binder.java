package org.jdvm.host.topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import org.jdvm.host.topology.Directives.Bind;
import org.jdvm.host.topology.Topology.Level;

/**
 * Each process's cpus on its node, from the node's topology, how many of the job's processes the
 * node runs (in rank order) and the job's directives, as PRRTE's mapper and binder decide them:
 *
 * <ul>
 *   <li>Within the node, process k goes to object {@code k mod count} of the {@code --map-by} level
 *       (map-by socket: rank k of the node on package k mod S); {@code slot} and {@code node} leave
 *       the whole node.
 *   <li>It is bound to the least loaded object of the {@code --bind-to} level inside that object
 *       (or the one holding it, when the binding level is coarser), in logical order on a tie.
 *   <li>With {@code PE=n} (or {@code --cpus-per-proc n}) it gets n cores (n hardware threads when
 *       mapping by hwthread), the least loaded in its object.
 *   <li>Without {@code --bind-to}, PRRTE's default ({@code rmaps_base_map_job.c}): PE given or
 *       map-by core: core; map-by package, numa, hwthread: that; otherwise core for a job of at
 *       most two processes and numa beyond; and no binding when the node runs more processes than
 *       it has cores (oversubscribed).
 *   <li>An object holds as many bound processes as it has cores (hardware threads when binding to
 *       those); one more is refused unless {@code :overload-allowed}.
 * </ul>
 */
public final class Binder {
  private Binder() {}

  /**
   * Where one process runs.
   *
   * @param cpus its cpu set (the whole node's when not bound)
   * @param bound whether it is bound
   * @param description PRRTE's {@code --report-bindings} words: {@code package[0][core:0-1]}
   */
  public record Bound(BitSet cpus, boolean bound, String description) {}

  /** A request the node cannot honour; the message names what is missing. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    public Refused(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The binding of each of the node's processes, in the order given.
   *
   * @param node the node's name, for messages
   * @param procs how many of the job's processes the node runs
   * @param jobProcs how many the whole job has (PRRTE's default depends on it)
   */
  public static List<Bound> bind(Topology t, String node, int procs, int jobProcs, Directives d)
      throws Refused {
    return bind(t, node, procs, jobProcs, d, Neighbours.NONE);
  }

  /**
   * What other jobs run on the node when a job is bound there: PRRTE binds a DVM's jobs knowing
   * each other's processes. They count in the default rule (a node running more processes than
   * cores, all jobs together, binds none) and steer each process to the least used objects, but an
   * object full of other jobs' processes does not refuse this job's.
   *
   * @param taken the cpu sets the node's other bound processes have
   * @param procs how many processes of other jobs the node runs, bound or not
   */
  public record Neighbours(List<BitSet> taken, int procs) {
    public static final Neighbours NONE = new Neighbours(List.of(), 0);

    public Neighbours {
      taken = List.copyOf(taken);
    }
  }

  /** The binding of each of the node's processes, with the node's other jobs in mind. */
  public static List<Bound> bind(
      Topology t, String node, int procs, int jobProcs, Directives d, Neighbours others)
      throws Refused {
    Bind bind =
        d.bindTo() == null && procs + others.procs() > t.count(Level.CORE)
            ? (d.pe() > 0 ? effective(t, procs, jobProcs, d) : Bind.NONE)
            : effective(t, procs, jobProcs, d);
    List<Bound> out = new ArrayList<>(procs);
    if (bind == Bind.NONE) {
      for (int k = 0; k < procs; k++) {
        out.add(new Bound(t.cpuSet(), false, "not bound"));
      }
      return out;
    }
    Level unit = d.pe() > 0 ? (d.mapBy() == Level.HWTHREAD ? Level.HWTHREAD : Level.CORE) : null;
    Level level = unit != null ? unit : bind.level();
    if (d.pe() > t.count(level)) {
      throw new Refused(
          "node "
              + node
              + " cannot give a process "
              + d.pe()
              + " "
              + plural(level)
              + " (PE="
              + d.pe()
              + "): it has "
              + t.count(level));
    }
    List<BitSet> where = d.mapBy() == null ? List.of(t.cpuSet()) : t.objects(d.mapBy());
    List<BitSet> objs = t.objects(level);
    int[] load = new int[objs.size()];
    int[] busy = new int[objs.size()];
    for (BitSet other : others.taken()) {
      for (int o = 0; o < objs.size(); o++) {
        busy[o] += objs.get(o).intersects(other) ? 1 : 0;
      }
    }
    for (int k = 0; k < procs; k++) {
      BitSet in = where.get(k % where.size());
      List<Integer> chosen =
          choose(t, objs, new int[][] {load, busy}, in, Math.max(1, d.pe()), level, d, node, procs);
      BitSet cpus = new BitSet();
      for (int o : chosen) {
        cpus.or(objs.get(o));
        load[o]++;
      }
      out.add(new Bound(cpus, true, describe(t, cpus, level)));
    }
    return out;
  }

  /** The binding level a job gets on this node, PRRTE's default when it asked none. */
  public static Bind effective(Topology t, int procs, int jobProcs, Directives d) {
    if (d.bindTo() != null) {
      return d.bindTo();
    }
    if (d.pe() > 0) {
      return d.mapBy() == Level.HWTHREAD ? Bind.HWTHREAD : Bind.CORE;
    }
    if (procs > t.count(Level.CORE)) {
      return Bind.NONE; // oversubscribed: PRRTE binds nothing it was not asked to
    }
    if (d.mapBy() == null) {
      return jobProcs <= 2 ? Bind.CORE : Bind.NUMA;
    }
    return switch (d.mapBy()) {
      case PACKAGE -> Bind.PACKAGE;
      case NUMA -> Bind.NUMA;
      case CORE -> Bind.CORE;
      case HWTHREAD -> Bind.HWTHREAD;
    };
  }

  /**
   * The {@code n} least loaded objects touching {@code in} (this job's load, then the other jobs'),
   * refused when this job has filled them.
   */
  private static List<Integer> choose(
      Topology t,
      List<BitSet> objs,
      int[][] loadAndBusy,
      BitSet in,
      int n,
      Level level,
      Directives d,
      String node,
      int procs)
      throws Refused {
    List<Integer> candidates = new ArrayList<>();
    for (int o = 0; o < objs.size(); o++) {
      if (objs.get(o).intersects(in)) {
        candidates.add(o);
      }
    }
    if (candidates.size() < n) {
      throw new Refused(
          "node "
              + node
              + " cannot give a process "
              + n
              + " "
              + plural(level)
              + " within one "
              + word(d)
              + " (PE="
              + n
              + "): a "
              + word(d)
              + " there has "
              + candidates.size());
    }
    int[] load = loadAndBusy[0];
    int[] busy = loadAndBusy[1];
    // this job's processes first, the other jobs' next, then logical order
    candidates.sort(Comparator.comparingInt((Integer o) -> load[o]).thenComparingInt(o -> busy[o]));
    List<Integer> chosen = candidates.subList(0, n);
    for (int o : chosen) {
      if (load[o] >= capacity(t, objs.get(o), level) && !d.overload()) {
        throw overloaded(t, node, procs, n, level);
      }
    }
    return new ArrayList<>(chosen);
  }

  private static Refused overloaded(Topology t, String node, int procs, int n, Level level) {
    return new Refused(
        "node "
            + node
            + " cannot bind "
            + procs
            + " processes"
            + (n > 1 ? " of " + n + " " + plural(level) : "")
            + " to "
            + plural(level)
            + ": it has "
            + t.count(level)
            + " "
            + plural(level)
            + (level == Level.PACKAGE || level == Level.NUMA
                ? " with " + t.count(Level.CORE) + " cores"
                : "")
            + " (--bind-to "
            + level.word()
            + ":overload-allowed lets processes share, --bind-to none leaves them unbound)");
  }

  /** How many processes an object takes bound before it is overloaded: its cores (or threads). */
  private static int capacity(Topology t, BitSet obj, Level level) {
    if (level == Level.HWTHREAD) {
      return obj.cardinality();
    }
    return t.restrictedTo(obj).count(Level.CORE);
  }

  private static String word(Directives d) {
    return d.mapBy() == null ? "node" : d.mapBy().word();
  }

  private static String plural(Level level) {
    return switch (level) {
      case PACKAGE -> "packages";
      case NUMA -> "NUMA nodes";
      case CORE -> "cores";
      case HWTHREAD -> "hardware threads";
    };
  }

  /**
   * PRRTE's words for a binding, one {@code package[P][core:list]} per package it touches ({@code
   * hwt:} when bound to hardware threads), logical indexes.
   */
  static String describe(Topology t, BitSet cpus, Level level) {
    TreeMap<Integer, BitSet> byPkg = new TreeMap<>();
    for (Topology.Cpu c : t.cpus()) {
      if (cpus.get(c.id())) {
        byPkg
            .computeIfAbsent(c.pkg(), p -> new BitSet())
            .set(level == Level.HWTHREAD ? c.pu() : c.core());
      }
    }
    StringBuilder b = new StringBuilder();
    byPkg.forEach(
        (p, set) -> {
          if (!b.isEmpty()) {
            b.append(' ');
          }
          b.append("package[")
              .append(p)
              .append("][")
              .append(level == Level.HWTHREAD ? "hwt:" : "core:")
              .append(CpuList.format(set))
              .append(']');
        });
    return b.toString();
  }
}
