package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.Value;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jdvm explain}'s options: those of {@code jdvm run} that decide where a job may go ({@code
 * -n}, {@code --target}, placement), and the node or allocation to look at.
 */
final class ExplainOptions {
  @Option(
      names = {"-n", "--np"},
      paramLabel = "NP",
      description = "Number of processes of the would-be spawn (default 1).")
  int procs = 1;

  @Option(
      names = "--target",
      paramLabel = "ID",
      description =
          "An allocation id the would-be spawn targets (repeatable); 'default' is the"
              + " default session.")
  List<String> targets = new ArrayList<>();

  @Mixin RunPlacementOptions placement = new RunPlacementOptions();

  @Option(names = "--node", paramLabel = "NODE", description = "Explain this node only.")
  String node;

  @Option(
      names = "--alloc",
      paramLabel = "ID",
      description = "Explain this allocation's nodes only (also one that ended, if remembered).")
  String alloc;

  /** What is wrong with the options, or {@code null}. */
  String check() {
    if (procs < 1) {
      return "-n must be at least 1";
    }
    if (targets.stream().anyMatch(String::isBlank)) {
      return "--target must name an allocation, or default";
    }
    if (node != null && node.isBlank() || alloc != null && alloc.isBlank()) {
      return "--node and --alloc take a name";
    }
    return placement.check();
  }

  /** The would-be spawn's attributes, as {@code jdvm run} would send them. */
  SpawnRequest request() {
    SpawnRequest.Builder b = SpawnRequest.of("explain").procs(procs);
    List<String> ids = new ArrayList<>();
    for (String t : targets) {
      ids.add(t.equals("default") ? "" : t);
    }
    if (!ids.isEmpty()) {
      b.target(ids.toArray(String[]::new));
    }
    placement.applyTo(b);
    return b.build();
  }

  /** Adds the node or allocation to look at. */
  void narrow(List<Info> qualifiers) {
    if (node != null) {
      qualifiers.add(Info.of(JdvmProtocol.EXPLAIN_NODE, Value.string(node)));
    }
    if (alloc != null) {
      qualifiers.add(Info.of(JdvmProtocol.EXPLAIN_ALLOC, Value.string(alloc)));
    }
  }
}
