package org.jdvm.core.state;

import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.query.NodeView.Origin;

/**
 * The whole state of the DVM: nodes, allocations, jobs, and requests waiting for the scheduler.
 * Rules read it through the getters of its tables and entities; {@link #apply(Change)} is the only
 * way it changes, and the entities' fields are writable only from this package.
 */
public final class State {
  private final CoreConfig config;
  private final NodeTable nodes = new NodeTable();
  private final AllocationTable allocations = new AllocationTable();
  private final JobTable jobs;
  private final AskTable asks = new AskTable();
  private final History history = new History();
  private final Mutator mutator;
  boolean tornDown;
  long terminationSeq;

  /** The state at start-up: the start-up pool in the default session, and nothing else. */
  public State(CoreConfig config) {
    this.config = config;
    this.jobs = new JobTable(config.dvmName());
    boolean first = true;
    for (NodeSpec spec : config.startupPool()) {
      nodes.add(spec, Origin.STARTUP, first);
      first = false;
    }
    this.mutator = new Mutator(this);
  }

  private State(CoreConfig config, boolean empty) {
    this.config = config;
    this.jobs = new JobTable(config.dvmName());
    this.mutator = new Mutator(this);
  }

  /** A state with nothing in it, not even the start-up pool: what a snapshot is read into. */
  static State empty(CoreConfig config) {
    return new State(config, true);
  }

  /** The one mutator: applies a change, failing loudly if its preconditions do not hold. */
  public void apply(Change change) {
    Check.state(!tornDown, "a change after teardown", change);
    mutator.apply(change);
  }

  public CoreConfig config() {
    return config;
  }

  public NodeTable nodes() {
    return nodes;
  }

  public AllocationTable allocations() {
    return allocations;
  }

  public JobTable jobs() {
    return jobs;
  }

  public AskTable asks() {
    return asks;
  }

  /** What ended or left, remembered for explanations (not in snapshots). */
  public History history() {
    return history;
  }

  public boolean tornDown() {
    return tornDown;
  }

  /** The pool of a session id, or {@code null} if no live session has it. */
  public Pool pool(long sessionId) {
    if (sessionId == Sessions.DEFAULT_ID) {
      return nodes.defaultPool();
    }
    Allocation a = allocations.bySession(sessionId);
    return a == null ? null : a.reserved() ? a.pool : nodes.defaultPool();
  }
}
