package org.jdvm.core.engine;

import org.jdvm.core.state.State;

/**
 * The one way tests in other packages reach a core's live state (the simulation's invariant checks,
 * the scenario runner, the replay test). {@code Core.state()} is package-private, so the shell
 * cannot reach it: it can change the state only through {@code handle}.
 */
public final class CoreInternals {
  private CoreInternals() {}

  public static State state(Core core) {
    return core.state();
  }
}
