package org.jdvm.core;

import java.util.Objects;

/**
 * A node by name with its number of slots: a start-up pool entry, or a node the scheduler grants.
 * Only the controller's own node may have no slot (a DVM across hosts whose controller's host is
 * not one of them, as PRRTE does not map onto its head node then); {@link CoreConfig} checks it.
 */
public record NodeSpec(String name, int slots) {
  public NodeSpec {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.indexOf(',') >= 0) {
      throw new IllegalArgumentException("bad node name '" + name + "'");
    }
    if (slots < 0) {
      throw new IllegalArgumentException("node " + name + " has a negative number of slots");
    }
  }

  @Override
  public String toString() {
    return name + ":" + slots;
  }
}
