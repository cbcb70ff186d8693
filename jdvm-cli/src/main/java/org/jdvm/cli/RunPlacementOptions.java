package org.jdvm.cli;

import java.util.List;
import java.util.Locale;
import org.jdvm.client.SpawnRequest;
import org.jdvm.host.topology.Directives;
import picocli.CommandLine.Option;

/**
 * {@code jdvm run}'s placement and binding options, in mpirun's spellings (docs/cli.md "Placement
 * and binding"). They travel as the PMIx spawn attributes a C tool would set ({@code PMIX_MAPBY} as
 * PRRTE takes its string, {@code PMIX_BINDTO}, {@code PMIX_CPUS_PER_PROC}, {@code PMIX_RANKBY},
 * {@code PMIX_PPR}, {@code PMIX_NO_OVERSUBSCRIBE}, {@code PMIX_REPORT_BINDINGS}), so the DVM
 * decides with each node's topology; what is malformed is refused here first.
 */
public final class RunPlacementOptions {
  @Option(
      names = "--map-by",
      paramLabel = "POLICY",
      description =
          "Where ranks go: slot (fill each node's slots first, the default), node (round the"
              + " nodes), ppr:N:node (at most N per node), or within a node core, socket (package),"
              + " numa or hwthread (rank k of a node on object k mod count); modifiers :PE=n (n"
              + " cores each), :OVERSUBSCRIBE, :NOOVERSUBSCRIBE.")
  String mapBy;

  @Option(
      names = "--bind-to",
      paramLabel = "OBJECT",
      description =
          "Bind each process to none, hwthread, core, socket (package) or numa; :overload-allowed"
              + " lets more processes than cores share an object. Default as mpirun: core for"
              + " up to 2 processes, numa beyond, none when a node runs more than its cores.")
  String bindTo;

  @Option(
      names = {"-c", "--cpus-per-proc", "--cpus-per-rank"},
      paramLabel = "N",
      description = "Give each process N cores, bound to them (as --map-by ...:PE=N).")
  Integer cpusPerProc;

  @Option(
      names = "--report-bindings",
      description = "Print each process's binding on stderr before it starts, as mpirun does.")
  boolean reportBindings;

  @Option(
      names = "--rank-by",
      paramLabel = "slot|node",
      description =
          "How ranks are numbered over the placed processes: in placement order (slot, the"
              + " default) or one node at a time round the nodes (node).")
  String rankBy;

  @Option(
      names = "--oversubscribe",
      description =
          "When the free slots are too few, place the rest beyond the slots, spread evenly over"
              + " the nodes (as mpirun --oversubscribe).")
  boolean oversubscribe;

  @Option(
      names = "--nooversubscribe",
      description = "Refuse more processes on a node than its slots (jdvm's default).")
  boolean noOversubscribe;

  @Option(
      names = {"-N", "--npernode"},
      paramLabel = "N",
      description = "At most N processes on each node (as --map-by ppr:N:node).")
  Integer perNode;

  /** What is wrong with the options as given, or {@code null}. */
  String check() {
    if (cpusPerProc != null && cpusPerProc < 1) {
      return "-c/--cpus-per-proc must be at least 1";
    }
    if (cpusPerProc != null && mapBy != null && mapBy.toUpperCase(Locale.ROOT).contains(":PE=")) {
      return "give cpus per process once: -c/--cpus-per-proc or --map-by ...:PE=n";
    }
    if (oversubscribe && noOversubscribe) {
      return "--oversubscribe and --nooversubscribe contradict each other";
    }
    if (perNode != null && perNode < 1) {
      return "-N/--npernode must be at least 1";
    }
    try {
      Directives.parse(mapBy, bindTo, cpusPerProc == null ? 0 : cpusPerProc, reportBindings);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return null;
  }

  /**
   * Before a refused spawn is reported: what the DVM wrote to the job's stderr first (why it could
   * not bind the job) reaches this command's stderr, waited for at most a second.
   */
  static void outputFirst(org.jdvm.client.JdvmClient client) {
    try {
      client.delivered().get(1, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // nothing more to wait for
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The options that decide where processes may go, as given: what {@code jdvm explain} takes. */
  List<String> whereArgs() {
    List<String> out = new java.util.ArrayList<>();
    if (mapBy != null) {
      out.addAll(List.of("--map-by", mapBy));
    }
    if (rankBy != null) {
      out.addAll(List.of("--rank-by", rankBy));
    }
    if (oversubscribe) {
      out.add("--oversubscribe");
    }
    if (noOversubscribe) {
      out.add("--nooversubscribe");
    }
    if (perNode != null) {
      out.addAll(List.of("-N", String.valueOf(perNode)));
    }
    return out;
  }

  /** The options as spawn attributes. */
  void applyTo(SpawnRequest.Builder b) {
    if (mapBy != null) {
      b.mapBy(mapBy);
    }
    if (bindTo != null) {
      b.bindTo(bindTo);
    }
    if (cpusPerProc != null) {
      b.cpusPerProc(cpusPerProc);
    }
    if (reportBindings) {
      b.reportBindings(true);
    }
    if (rankBy != null) {
      b.rankBy(rankBy);
    }
    if (oversubscribe || noOversubscribe) {
      b.noOversubscribe(noOversubscribe);
    }
    if (perNode != null) {
      b.info(
          org.jdvm.pmix.Info.of(
              org.jdvm.pmix.PmixKeys.PPR, org.jdvm.pmix.Value.string(perNode + ":node")));
    }
  }
}
