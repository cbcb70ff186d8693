package org.jdvm.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.engine.CoreInternals;
import org.jdvm.core.state.State;
import org.jdvm.core.state.StateDigest;
import org.junit.jupiter.api.Test;

/**
 * The seeded simulation. By default a few seeds of a few thousand steps (seconds); run longer with
 * {@code -Djdvm.sim.seeds=N -Djdvm.sim.steps=M}, or one seed with {@code -Djdvm.sim.seed=S}. A
 * failure prints its seed, the step, the command, and the one command line that reproduces it.
 */
class SimulationTest {
  private static final long FIRST_SEED = 20_260_901L;

  @Test
  void randomRequestsReportsAndFaultsKeepEveryNamedInvariant() {
    int steps = Integer.getInteger("jdvm.sim.steps", 2_000);
    List<Long> seeds = seeds();
    int commands = 0;
    for (long seed : seeds) {
      Simulation sim = new Simulation(seed);
      try {
        sim.run(steps);
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(failure(sim, steps, e), e);
      }
      assertThat(replay(sim))
          .as("replaying the journal rebuilds the state, seed " + seed)
          .isEqualTo(StateDigest.of(CoreInternals.state(sim.shell.core)));
      commands += sim.shell.commands;
      if (Boolean.getBoolean("jdvm.sim.stats")) {
        System.out.println("seed " + seed + ": " + sim.shell.stats);
      }
    }
    System.out.printf(
        "simulation: %d seeds x %d steps, %d commands, first seed %d%n",
        seeds.size(), steps, commands, seeds.get(0));
  }

  /**
   * docs/journal.md "Proof by simulation": the same seeds, crashing the controller at random points
   * (before the batch is written, in the middle of writing it, between writing and executing its
   * effects, in the middle of executing them, while a snapshot is written). Every recovery gives
   * exactly the state the journal promised and keeps every invariant; each run ends in the state of
   * the run without crashes; every request was answered exactly once or failed visibly.
   */
  @Test
  void crashesAtRandomPointsRecoverTheStateOfTheRunWithoutCrashes() {
    int steps = Integer.getInteger("jdvm.sim.steps", 2_000);
    int percent = Integer.getInteger("jdvm.sim.crashPercent", 3);
    java.util.Map<String, Integer> points = new java.util.TreeMap<>();
    int snapshots = 0;
    List<Long> seeds = seeds();
    for (long seed : seeds) {
      Simulation plain = new Simulation(seed);
      Simulation crashed = new Simulation(seed, percent);
      String plainDigest;
      try {
        plain.runSteps(steps);
        crashed.runSteps(steps);
        plainDigest = StateDigest.of(CoreInternals.state(plain.shell.core));
        assertThat(StateDigest.of(CoreInternals.state(crashed.shell.core)))
            .as("after the steps, seed " + seed)
            .isEqualTo(plainDigest);
        assertThat(crashed.shell.asks).isEqualTo(plain.shell.asks);
        assertThat(crashed.shell.launches).isEqualTo(plain.shell.launches);
        assertThat(crashed.shell.kills).isEqualTo(plain.shell.kills);
        plain.finish();
        crashed.finish();
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(failure(crashed, steps, e), e);
      }
      assertThat(StateDigest.of(CoreInternals.state(crashed.shell.core)))
          .as("after the drain and teardown, seed " + seed)
          .isEqualTo(StateDigest.of(CoreInternals.state(plain.shell.core)));
      crashed.shell.crashes.forEach((k, v) -> points.merge(k, v, Integer::sum));
      snapshots += crashed.shell.durable.snapshotsTaken;
    }
    int total = points.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(total).as("crash points exercised").isPositive();
    assertThat(points.keySet()).as("every kind of crash point").hasSize(5);
    System.out.printf(
        "crash simulation: %d seeds x %d steps, %d crash points %s, %d snapshots%n",
        seeds.size(), steps, total, points, snapshots);
  }

  /** The journal of changes, applied to a fresh state, gives the same state. */
  private static String replay(Simulation sim) {
    State fresh = new State(sim.shell.core.config());
    for (Change c : sim.shell.journal) {
      fresh.apply(c);
    }
    return StateDigest.of(fresh);
  }

  private static List<Long> seeds() {
    Long one = Long.getLong("jdvm.sim.seed");
    if (one != null) {
      return List.of(one);
    }
    int n = Integer.getInteger("jdvm.sim.seeds", 4);
    List<Long> seeds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      seeds.add(FIRST_SEED + i);
    }
    return seeds;
  }

  private static String failure(Simulation sim, int steps, Throwable e) {
    int last = sim.history.size() - 1;
    return "simulation failed: seed="
        + sim.seed
        + " command #"
        + last
        + ": "
        + (last >= 0 ? sim.history.get(last) : "-")
        + "\n  "
        + e
        + "\n  reproduce: ./dev test -pl jdvm-core -am -Dtest=SimulationTest"
        + " -Dsurefire.failIfNoSpecifiedTests=false -Djdvm.sim.seed="
        + sim.seed
        + " -Djdvm.sim.steps="
        + steps;
  }
}
