package org.jdvm.host.topology;

import java.util.Locale;
import org.jdvm.host.topology.Topology.Level;

/**
 * What a job asks of its processes' placement on a node and binding, as PRRTE reads {@code
 * PMIX_MAPBY}, {@code PMIX_BINDTO} and {@code PMIX_CPUS_PER_PROC}.
 *
 * @param mapBy the objects ranks are dealt to in turn ({@code --map-by core|package|numa|hwthread},
 *     and the resource of {@code ppr:N:RESOURCE}); {@code null} for {@code slot} and {@code node},
 *     which place on nodes and leave the node whole
 * @param bindTo what each process is bound to; {@code null}: PRRTE's default ({@link Binder})
 * @param overload {@code :overload-allowed}: more processes may be bound to an object than it has
 *     cores
 * @param pe cpus (cores, hardware threads with {@code --map-by hwthread}) per process, {@code
 *     :PE=n} or {@code --cpus-per-proc n}; 0 when not asked
 * @param report {@code --report-bindings}
 */
public record Directives(Level mapBy, Bind bindTo, boolean overload, int pe, boolean report) {
  /** {@code --bind-to}'s values. */
  public enum Bind {
    NONE,
    HWTHREAD,
    CORE,
    PACKAGE,
    NUMA;

    Level level() {
      return switch (this) {
        case NONE -> null;
        case HWTHREAD -> Level.HWTHREAD;
        case CORE -> Level.CORE;
        case PACKAGE -> Level.PACKAGE;
        case NUMA -> Level.NUMA;
      };
    }
  }

  /** Nothing asked: PRRTE's defaults. */
  public static final Directives DEFAULT = new Directives(null, null, false, 0, false);

  public Directives {
    if (pe < 0) {
      throw new IllegalArgumentException("cpus per process must be positive: " + pe);
    }
  }

  /**
   * Reads the PMIx spawn directives as PRRTE takes their strings.
   *
   * @param mapBy {@code PMIX_MAPBY}: {@code slot|node|core|socket|package|numa|hwthread} or {@code
   *     ppr:N:RESOURCE}, with modifiers {@code :PE=n}, {@code :OVERSUBSCRIBE}, {@code
   *     :NOOVERSUBSCRIBE} (those two are the core's); {@code null} when absent
   * @param bindTo {@code PMIX_BINDTO}: {@code none|hwthread|core|socket|package|numa} and {@code
   *     :overload-allowed}; {@code null} when absent
   * @param cpusPerProc {@code PMIX_CPUS_PER_PROC}, 0 when absent
   * @throws IllegalArgumentException naming what is not understood
   */
  public static Directives parse(String mapBy, String bindTo, int cpusPerProc, boolean report) {
    Level map = null;
    int pe = cpusPerProc;
    if (mapBy != null) {
      String[] parts = mapBy.toLowerCase(Locale.ROOT).split(":");
      int first = 0;
      if (parts[0].equals("ppr")) {
        if (parts.length < 3) {
          throw new IllegalArgumentException("--map-by ppr needs ppr:N:RESOURCE: " + mapBy);
        }
        first = 2;
      }
      map = mapLevel(parts[first], mapBy);
      for (int i = first + 1; i < parts.length; i++) {
        String m = parts[i];
        if (m.startsWith("pe=")) {
          pe = positive(m.substring(3), mapBy);
        } else if (!m.equals("oversubscribe") && !m.equals("nooversubscribe")) {
          throw new IllegalArgumentException("unknown --map-by modifier " + m + ": " + mapBy);
        }
      }
    }
    Bind bind = null;
    boolean overload = false;
    if (bindTo != null) {
      String[] parts = bindTo.toLowerCase(Locale.ROOT).split(":");
      bind = bindOf(parts[0], bindTo);
      for (int i = 1; i < parts.length; i++) {
        if (parts[i].equals("overload-allowed")) {
          overload = true;
        } else if (!parts[i].equals("report")) {
          throw new IllegalArgumentException("unknown --bind-to modifier " + parts[i]);
        } else {
          report = true;
        }
      }
    }
    if (pe > 0 && bind != null && bind != Bind.CORE && bind != Bind.HWTHREAD) {
      throw new IllegalArgumentException(
          pe + " cpus per process are bound to cores or hardware threads, not --bind-to " + bindTo);
    }
    return new Directives(map, bind, overload, pe, report);
  }

  private static Level mapLevel(String word, String whole) {
    return switch (word) {
      case "slot", "node" -> null;
      case "core" -> Level.CORE;
      case "socket", "package" -> Level.PACKAGE;
      case "numa" -> Level.NUMA;
      case "hwthread" -> Level.HWTHREAD;
      default ->
          throw new IllegalArgumentException(
              "--map-by takes slot, node, core, socket, package, numa, hwthread or ppr:N:RESOURCE,"
                  + " not "
                  + whole);
    };
  }

  private static Bind bindOf(String word, String whole) {
    return switch (word) {
      case "none" -> Bind.NONE;
      case "hwthread" -> Bind.HWTHREAD;
      case "core" -> Bind.CORE;
      case "socket", "package" -> Bind.PACKAGE;
      case "numa" -> Bind.NUMA;
      default ->
          throw new IllegalArgumentException(
              "--bind-to takes none, hwthread, core, socket, package or numa, not " + whole);
    };
  }

  private static int positive(String n, String whole) {
    try {
      int v = Integer.parseInt(n);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("PE= takes a positive number: " + whole);
  }
}
