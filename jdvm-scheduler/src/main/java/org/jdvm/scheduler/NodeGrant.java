package org.jdvm.scheduler;

/** A node a scheduler hands to the DVM: its name and how many slots it offers. */
public record NodeGrant(String name, int slots) {
  public NodeGrant {
    if (slots < 1) {
      throw new IllegalArgumentException("a node offers at least one slot: " + name);
    }
  }
}
