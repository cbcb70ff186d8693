package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.host.topology.Directives;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;

/**
 * The placement and binding directives of a spawn, as a C tool sets them and PRRTE reads them:
 * {@code PMIX_MAPBY} (PRRTE's string, {@code core:PE=2}, {@code ppr:2:socket}), {@code
 * PMIX_BINDTO}, {@code PMIX_CPUS_PER_PROC}, {@code PMIX_REPORT_BINDINGS}, {@code PMIX_RANKBY},
 * {@code PMIX_NO_OVERSUBSCRIBE}. Job-level values are folded into each app's info, an app's own
 * winning (as {@link JobOps#mergeStderr} folds its directive), because the launch reads them per
 * app; each app's set is checked here ({@link Directives#parse}), so one the binder would not
 * understand is refused with {@code PMIX_ERR_BAD_PARAM} before the core sees the spawn. Whether a
 * node can honour it is the controller's to say, from the node's topology, before anything of the
 * job starts.
 *
 * <p>Across nodes, mapping by an object ({@code core}, {@code socket}, {@code numa}, {@code
 * hwthread}) fills each node's slots before the next, as {@code slot} does (PRRTE fills a node's
 * objects before the next node's).
 *
 * <p>{@code ppr:N:node} (or {@code PMIX_PPR} {@code "N:node"}, what {@code -N} sends) and {@code
 * PMIX_NO_OVERSUBSCRIBE} false (or the {@code :OVERSUBSCRIBE} modifier) become the core's {@link
 * NodeFill}. {@code ppr:N:socket|numa|core|hwthread|package} is refused {@code
 * PMIX_ERR_NOT_SUPPORTED}: N per object is a different cap on each node whose count of that object
 * differs, the core is pure and has no topology, and this endpoint does not see the nodes' either
 * (docs/cli.md "Placement and binding").
 */
final class SpawnPlacement {
  /** The directives this class folds into apps. */
  static final Set<String> KEYS =
      Set.of(
          PmixKeys.MAPBY,
          PmixKeys.BINDTO,
          PmixKeys.CPUS_PER_PROC,
          PmixKeys.REPORT_BINDINGS,
          PmixKeys.RANKBY,
          PmixKeys.NO_OVERSUBSCRIBE,
          PmixKeys.PPR);

  private SpawnPlacement() {}

  /** The core's node-level policy from the job's {@code PMIX_MAPBY}; SLOT when there is none. */
  static MapBy nodeMapBy(List<Info> jobInfos) throws BadRequest {
    MapBy by = MapBy.SLOT;
    for (Info i : jobInfos) {
      if (i.key().equals(PmixKeys.MAPBY)) {
        String policy = Values.string(i);
        String base = policy == null ? "" : policy.split(":", 2)[0].toLowerCase(Locale.ROOT);
        by =
            switch (base) {
              case "slot", "core", "socket", "package", "numa", "hwthread", "ppr" -> MapBy.SLOT;
              case "node" -> MapBy.NODE;
              default -> throw BadRequest.param("mapping policy \"" + policy + "\"");
            };
      }
    }
    return by;
  }

  /**
   * The core's {@link NodeFill} from the job's {@code PMIX_PPR}, {@code PMIX_MAPBY} ({@code
   * ppr:N:node}, {@code :OVERSUBSCRIBE}, {@code :NOOVERSUBSCRIBE}) and {@code
   * PMIX_NO_OVERSUBSCRIBE} (which wins over the modifier); {@code null} for neither. These are the
   * job's: an app's own {@code PMIX_PPR}, or {@code PMIX_NO_OVERSUBSCRIBE} false, is refused.
   */
  static NodeFill nodeFill(List<Info> jobInfos, List<App> apps) throws BadRequest {
    for (App a : apps) {
      for (Info i : a.info()) {
        if (i.key().equals(PmixKeys.PPR)
            || i.key().equals(PmixKeys.NO_OVERSUBSCRIBE) && !Values.bool(i)
            || i.key().equals(PmixKeys.RANKBY) && rankByNode(i)) {
          throw BadRequest.notSupported(i.key() + " for one app (give it for the whole job)");
        }
      }
    }
    int perNode = 0;
    Boolean over = null;
    Boolean noOver = null;
    boolean byNode = false;
    for (Info i : jobInfos) {
      switch (i.key()) {
        case PmixKeys.RANKBY -> byNode = rankByNode(i);
        case PmixKeys.PPR ->
            perNode = perNode(perNode, Values.string(i), "PMIX_PPR " + Values.string(i));
        case PmixKeys.NO_OVERSUBSCRIBE -> noOver = Values.bool(i);
        case PmixKeys.MAPBY -> {
          String v = Values.string(i);
          String[] parts = v == null ? new String[] {""} : v.toLowerCase(Locale.ROOT).split(":");
          if (parts[0].equals("ppr") && parts.length >= 3) {
            perNode = perNode(perNode, parts[1] + ":" + parts[2], "--map-by " + v);
          }
          for (String m : parts) {
            over =
                m.equals("oversubscribe")
                    ? Boolean.TRUE
                    : m.equals("nooversubscribe") ? Boolean.FALSE : over;
          }
        }
        default -> {}
      }
    }
    boolean oversubscribe = noOver != null ? !noOver : over != null && over;
    return NodeFill.of(perNode, oversubscribe, byNode);
  }

  /**
   * Whether {@code PMIX_RANKBY} says {@code node} (PRRTE's {@code rank_by node}, any modifiers).
   */
  private static boolean rankByNode(Info i) throws BadRequest {
    String r = Values.string(i);
    return r != null && r.toLowerCase(Locale.ROOT).split(":")[0].equals("node");
  }

  /** N of {@code "N:node"}, refusing another resource or an N that differs from one given. */
  private static int perNode(int before, String ppr, String what) throws BadRequest {
    String[] p = ppr.toLowerCase(Locale.ROOT).split(":");
    int n;
    try {
      n = p.length >= 2 ? Integer.parseInt(p[0]) : 0;
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1) {
      throw BadRequest.param(what + ": processes per resource must be N:RESOURCE, N at least 1");
    }
    if (!p[1].equals("node")) {
      throw BadRequest.notSupported(
          what
              + ": N per "
              + p[1]
              + " is not supported (jdvm caps processes per node only; use ppr:N:node or -N)");
    }
    if (before != 0 && before != n) {
      throw BadRequest.param(what + " contradicts another processes-per-node count " + before);
    }
    return n;
  }

  /** Each app with the job's directives under its own, checked. */
  static List<App> fold(List<Info> jobInfos, List<App> apps) throws BadRequest {
    Map<String, Info> job = directives(jobInfos);
    List<App> out = new ArrayList<>(apps.size());
    for (App a : apps) {
      Map<String, Info> mine = new LinkedHashMap<>(job);
      mine.putAll(directives(a.info()));
      check(mine);
      if (mine.isEmpty()) {
        out.add(a);
        continue;
      }
      List<Info> rest = new ArrayList<>();
      for (Info i : a.info()) {
        if (!KEYS.contains(i.key())) {
          rest.add(i);
        }
      }
      rest.addAll(mine.values());
      out.add(new App(a.cmd(), a.argv(), a.env(), a.cwd(), a.maxprocs(), rest));
    }
    return out;
  }

  private static Map<String, Info> directives(List<Info> infos) {
    Map<String, Info> d = new LinkedHashMap<>();
    for (Info i : infos) {
      if (KEYS.contains(i.key())) {
        d.put(i.key(), i);
      }
    }
    return d;
  }

  /** Refuses what the binder or the core cannot do, naming it. */
  private static void check(Map<String, Info> d) throws BadRequest {
    Info rankBy = d.get(PmixKeys.RANKBY);
    if (rankBy != null) {
      String r = Values.string(rankBy).toLowerCase(Locale.ROOT);
      String policy = r.split(":")[0];
      if (!policy.equals("slot") && !policy.equals("node")) {
        throw BadRequest.notSupported(
            "ranking policy \"" + r + "\" (jdvm ranks by slot or by node)");
      }
    }
    Info cpp = d.get(PmixKeys.CPUS_PER_PROC);
    try {
      directives(d, cpp == null ? 0 : Values.count(cpp));
    } catch (IllegalArgumentException e) {
      throw BadRequest.param(e.getMessage());
    }
    if (cpp != null && Values.count(cpp) == 0) {
      throw BadRequest.param("PMIX_CPUS_PER_PROC must be at least 1");
    }
  }

  private static Directives directives(Map<String, Info> d, int cpp) throws BadRequest {
    Info map = d.get(PmixKeys.MAPBY);
    Info bind = d.get(PmixKeys.BINDTO);
    Info report = d.get(PmixKeys.REPORT_BINDINGS);
    return Directives.parse(
        map == null ? null : Values.string(map),
        bind == null ? null : Values.string(bind),
        cpp,
        report != null && Values.bool(report));
  }
}
