package org.jdvm.cli;

import java.util.List;
import java.util.function.LongSupplier;
import org.jdvm.core.NodeSpec;
import picocli.CommandLine.Option;

/**
 * {@code jdvm start --node-agents MODE} (docs/cli.md "jdvm start"): whether an embedded DVM's
 * virtual nodes run in the controller's own process (the default for a small DVM: nothing to start,
 * nothing crosses a link) or each in a local {@code jdvm agent}, which holds its processes'
 * descriptors, so that the DVM carries more live processes than one process's open-file limit
 * allows (docs/ARCHITECTURE.md "Processes beyond one process's open-file limit").
 */
final class NodeAgentsOptions {
  @Option(
      names = "--node-agents",
      paramLabel = "MODE",
      description =
          "Where the virtual nodes run: auto (the default: in local agents when the start-up"
              + " nodes' slots are more than this process can hold), on (each node in a local"
              + " jdvm agent), off (all in the DVM's own process).")
  String mode = "auto";

  /** How many processes one process holds under its open-file limit (a test's own figure). */
  LongSupplier oneProcessHolds = org.jdvm.host.ProcessHost::maxProcsOfThisProcess;

  /** Refuses an unknown mode, and {@code on} where nodes are not this machine's virtual nodes. */
  void check(boolean acrossHosts) {
    if (!List.of("auto", "on", "off").contains(mode)) {
      throw new IllegalArgumentException("--node-agents takes auto, on or off, not '" + mode + "'");
    }
    if (acrossHosts && mode.equals("on")) {
      throw new IllegalArgumentException(
          "--node-agents on is for a DVM on this machine; hosts and Slurm nodes have agents"
              + " already");
    }
  }

  /**
   * Whether {@code pool}, this machine's virtual nodes, runs in local agents: always with {@code
   * on}, never with {@code off}; with {@code auto} when its slots are more than one process holds.
   */
  boolean wanted(List<NodeSpec> pool) {
    return switch (mode) {
      case "on" -> true;
      case "off" -> false;
      default -> pool.stream().mapToLong(NodeSpec::slots).sum() > oneProcessHolds.getAsLong();
    };
  }

  /** The option as the detached DVM's command line repeats it. */
  List<String> childOptions() {
    return List.of("--node-agents", mode);
  }
}
