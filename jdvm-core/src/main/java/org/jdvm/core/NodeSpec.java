package org.jdvm.core;

import java.util.Objects;

/**
 * A node by name with its number of slots: a start-up pool entry, or a node the scheduler grants.
 */
public record NodeSpec(String name, int slots) {
  public NodeSpec {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.indexOf(',') >= 0) {
      throw new IllegalArgumentException("bad node name '" + name + "'");
    }
    if (slots < 1) {
      throw new IllegalArgumentException("node " + name + " needs at least one slot");
    }
  }

  @Override
  public String toString() {
    return name + ":" + slots;
  }
}
