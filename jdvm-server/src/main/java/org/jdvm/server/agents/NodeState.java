package org.jdvm.server.agents;

/**
 * What the controller knows of a node's agent (docs/cli.md "jdvm nodes"): {@code UP} while its
 * heartbeats arrive; {@code SUSPECT} once one is late or its link broke; {@code DOWN} once nothing
 * was heard for the configured number of heartbeat intervals — the node has then left the DVM for
 * good. {@code JOINING} until its agent first registers.
 */
public enum NodeState {
  JOINING,
  UP,
  SUSPECT,
  DOWN;

  /** As {@code jdvm nodes} prints it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
