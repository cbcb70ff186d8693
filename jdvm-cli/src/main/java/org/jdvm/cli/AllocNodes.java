package org.jdvm.cli;

import static org.jdvm.cli.DvmCommand.ifGiven;

import java.util.List;
import org.jdvm.client.AllocationRequest;
import picocli.CommandLine.Option;

/**
 * {@code --nodes K} or {@code --node-list L} of {@code jdvm alloc new} and {@code extend}: at most
 * one.
 */
final class AllocNodes {
  @Option(names = "--nodes", paramLabel = "K", description = "How many nodes.")
  Long count;

  @Option(names = "--node-list", paramLabel = "L", description = "Nodes by name, comma-separated.")
  String list;

  void applyTo(AllocationRequest.Builder b) {
    ifGiven(count, b::nodes);
    ifGiven(list, l -> b.nodeList(List.of(l.split(","))));
  }
}
