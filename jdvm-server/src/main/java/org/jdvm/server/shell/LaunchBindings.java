package org.jdvm.server.shell;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jdvm.core.Effect;
import org.jdvm.core.Effect.LaunchProcs;
import org.jdvm.core.Effect.ProcLaunch;
import org.jdvm.host.topology.Binder;
import org.jdvm.host.topology.CpuList;
import org.jdvm.host.topology.Directives;
import org.jdvm.host.topology.Topology;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;

/**
 * The bindings of the launches of one batch of the core's effects, decided for every node of a job
 * before any of its processes starts, so a request one node cannot honour starts nothing anywhere
 * (the core emits a job's launches on all its nodes in one outcome). Each node's share of its
 * host's topology comes from its agent ({@code NodeAgent.topology}); the node's processes of a job
 * are numbered in the order the core placed them, and the directives are those the PMIx endpoint
 * folded into each app's info ({@code SpawnPlacement}); a node running processes of several apps
 * binds them by the first's. The node's other jobs steer a job's processes to the least used
 * objects and count in the default rule ({@code Binder.Neighbours}).
 */
final class LaunchBindings {
  private LaunchBindings() {}

  /**
   * The batch's bindings.
   *
   * @param places per namespace, per rank
   * @param refused per namespace, why it cannot be bound as asked (its launches start nothing)
   * @param report the namespaces that asked {@code PMIX_REPORT_BINDINGS}
   */
  record Plan(
      Map<String, Map<Integer, ProcPlaces.Place>> places,
      Map<String, String> refused,
      java.util.Set<String> report,
      java.util.Set<String> refusalSaid,
      Map<String, ProcPlaces.Policies> policies) {
    BitSet cpus(String nspace, int rank) {
      ProcPlaces.Place p = places.getOrDefault(nspace, Map.of()).get(rank);
      return p == null ? null : p.cpus();
    }
  }

  /**
   * Binds every launch of {@code effects}.
   *
   * @param topologyOf a node's topology, {@code null} when its agent does not know it (then its
   *     processes are not bound unless the job asked for a binding, which is refused)
   */
  static Plan plan(List<Effect> effects, Function<String, Topology> topologyOf) {
    return plan(effects, topologyOf, node -> Binder.Neighbours.NONE);
  }

  /**
   * Binds every launch of {@code effects}, with what the nodes already run.
   *
   * @param neighboursOf the other jobs' processes on a node
   */
  static Plan plan(
      List<Effect> effects,
      Function<String, Topology> topologyOf,
      Function<String, Binder.Neighbours> neighboursOf) {
    Map<String, List<LaunchProcs>> byJob = new LinkedHashMap<>();
    for (Effect e : effects) {
      if (e instanceof LaunchProcs l && !l.procs().isEmpty()) {
        byJob.computeIfAbsent(l.namespace(), k -> new ArrayList<>()).add(l);
      }
    }
    Map<String, Map<Integer, ProcPlaces.Place>> places = new HashMap<>();
    Map<String, String> refused = new HashMap<>();
    java.util.Set<String> report = new java.util.HashSet<>();
    Map<String, ProcPlaces.Policies> policies = new HashMap<>();
    for (var job : byJob.entrySet()) {
      int jobProcs = job.getValue().stream().mapToInt(l -> l.procs().size()).sum();
      Map<Integer, ProcPlaces.Place> mine = new HashMap<>();
      try {
        for (LaunchProcs l : job.getValue()) {
          Directives d = directives(l.procs().get(0).app());
          if (d.report()) {
            report.add(job.getKey());
          }
          Topology t = topologyOf.apply(l.node());
          policies.computeIfAbsent(job.getKey(), k -> policies(t, l, jobProcs, d));
          bindNode(l, t, jobProcs, d, neighboursOf.apply(l.node()), mine);
        }
        places.put(job.getKey(), mine);
      } catch (Binder.Refused r) {
        refused.put(job.getKey(), r.getMessage());
      }
    }
    return new Plan(places, refused, report, new java.util.HashSet<>(), policies);
  }

  private static void bindNode(
      LaunchProcs l,
      Topology t,
      int jobProcs,
      Directives d,
      Binder.Neighbours others,
      Map<Integer, ProcPlaces.Place> into)
      throws Binder.Refused {
    if (t == null) {
      if (d.bindTo() != null && d.bindTo() != Directives.Bind.NONE || d.pe() > 0) {
        throw new Binder.Refused(
            "node " + l.node() + " did not report its topology: it cannot bind processes");
      }
      return;
    }
    List<Binder.Bound> bound = Binder.bind(t, l.node(), l.procs().size(), jobProcs, d, others);
    for (int k = 0; k < bound.size(); k++) {
      Binder.Bound b = bound.get(k);
      ProcLaunch p = l.procs().get(k);
      into.put(
          p.rank(),
          b.bound()
              ? new ProcPlaces.Place(
                  b.cpus(),
                  b.description(),
                  t.localityString(b.cpus()),
                  CpuList.format(b.cpus()),
                  t.signature())
              : new ProcPlaces.Place(null, b.description(), null, null, t.signature()));
    }
  }

  /** The job's policies in PRRTE's words, the binding the one this node gets. */
  private static ProcPlaces.Policies policies(
      Topology t, LaunchProcs l, int jobProcs, Directives d) {
    String asked = null;
    for (Info i : l.procs().get(0).app().info()) {
      if (i.key().equals(PmixKeys.MAPBY)) {
        asked = text(i);
      }
    }
    boolean byNode = asked != null && asked.toLowerCase(java.util.Locale.ROOT).startsWith("node");
    String map = d.mapBy() != null ? "BY" + d.mapBy().name() : byNode ? "BYNODE" : "BYSLOT";
    Directives.Bind bind =
        t == null ? Directives.Bind.NONE : Binder.effective(t, l.procs().size(), jobProcs, d);
    return new ProcPlaces.Policies(
        map, "SLOT", bind.name() + (d.overload() ? ":OVERLOAD-ALLOWED" : ""));
  }

  /** The directives an app carries in its info (folded there by the PMIx endpoint). */
  static Directives directives(App app) {
    String mapBy = null;
    String bindTo = null;
    int pe = 0;
    boolean report = false;
    for (Info i : app.info()) {
      switch (i.key()) {
        case PmixKeys.MAPBY -> mapBy = text(i);
        case PmixKeys.BINDTO -> bindTo = text(i);
        case PmixKeys.CPUS_PER_PROC -> pe = (int) i.value().asLong();
        case PmixKeys.REPORT_BINDINGS ->
            report = i.value().type() == DataType.BOOL && i.value().asBoolean();
        default -> {}
      }
    }
    try {
      return Directives.parse(mapBy, bindTo, pe, report);
    } catch (IllegalArgumentException e) {
      return Directives.DEFAULT; // checked by the endpoint; a journaled spawn of an older jdvm
    }
  }

  private static String text(Info i) {
    return i.value().type() == DataType.STRING ? i.value().asString() : null;
  }
}
