package org.jdvm.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.Explanation;
import org.jdvm.core.query.NodeReason;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/**
 * {@code jdvm explain} never disagrees with the spawn: the simulation's random states (allocations
 * and their owner sets, owners ended under each disposition, lost nodes, busy slots) and, after
 * every step, random would-be spawns (owned, foreign, unknown and ended targets, unknown
 * requesters, fills). Each is explained, then handled by a copy of the core in the same state: the
 * verdict, the rejection and its status, and every node the spawn placed processes on (with how
 * many) must be what the explanation said. A failure prints its seed and the line that reproduces
 * it; {@code -Djdvm.sim.seeds=N -Djdvm.sim.steps=M} runs longer, {@code -Djdvm.sim.seed=S} starts
 * at seed S.
 */
class ExplainEqualsSpawnTest {
  private static final long FIRST_SEED = 20_261_128L;

  @Test
  void explainsVerdictEqualsTheSpawnsOutcomeInEveryRandomState() {
    int steps = Integer.getInteger("jdvm.sim.steps", 600);
    int seeds = Integer.getInteger("jdvm.sim.seeds", 12);
    long first = Long.getLong("jdvm.sim.seed", FIRST_SEED);
    Map<String, Integer> seen = new TreeMap<>();
    for (long seed = first; seed < first + seeds; seed++) {
      Simulation sim = new Simulation(seed);
      sim.afterStep = () -> checkWouldBeSpawns(sim, seen);
      try {
        sim.runSteps(steps);
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(
            "seed="
                + sim.seed
                + " after command #"
                + (sim.history.size() - 1)
                + ": "
                + e.getMessage()
                + "\n  reproduce: ./dev test -pl jdvm-core -am -Dtest=ExplainEqualsSpawnTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Djdvm.sim.seeds=1 -Djdvm.sim.seed="
                + sim.seed
                + " -Djdvm.sim.steps="
                + steps,
            e);
      }
    }
    System.out.printf("explain = spawn: %d seeds x %d steps, verdicts %s%n", seeds, steps, seen);
    assertThat(seen)
        .as("every verdict was met")
        .containsKeys(
            "ACCEPTED",
            "TARGET_NOT_FOUND",
            "TARGET_NOT_OWNED",
            "DOES_NOT_FIT",
            NodeReason.RESERVED_TO_OTHERS.name(),
            NodeReason.NOT_OWNED.name(),
            NodeReason.NO_FREE_SLOT.name(),
            NodeReason.NOT_TARGETED.name());
  }

  private static void checkWouldBeSpawns(Simulation sim, Map<String, Integer> seen) {
    for (int i = 0; i < 2; i++) {
      Request.Spawn spawn = Requests.randomSpawn(sim);
      Explanation e = sim.shell.core.view().explain(spawn, null, null);
      Core copy = Core.restore(sim.shell.core.config(), sim.shell.core.snapshot());
      Outcome o = copy.handle(spawn, Math.max(copy.lastNowNs(), sim.shell.nowNs));
      String what = spawn + "\n  explained: " + e;
      seen.merge(o.rejected() ? o.rejection().name() : "ACCEPTED", 1, Integer::sum);
      e.nodes().forEach(n -> seen.merge(n.reason().name(), 1, Integer::sum));
      assertThat(e.allowed()).as("allowed, " + what).isEqualTo(!o.rejected());
      if (o.rejected()) {
        assertThat(e.rejection()).as("rejection, " + what).isEqualTo(o.rejection().name());
        assertThat(e.status()).as("status, " + what).isEqualTo(o.rejection().status());
        if (o.rejection().name().equals("DOES_NOT_FIT") && spawn.fill() == null) {
          assertThat(usableFreeSlots(e)).as("usable free slots, " + what).isLessThan(e.procs());
        }
        continue;
      }
      assertThat(e.status()).isEqualTo(PmixStatus.SUCCESS);
      assertThat(placedByExplain(e)).as("placements, " + what).isEqualTo(launched(o));
      if (spawn.fill() == null) {
        assertThat(usableFreeSlots(e))
            .as("usable free slots, " + what)
            .isGreaterThanOrEqualTo(e.procs());
      }
    }
  }

  private static long usableFreeSlots(Explanation e) {
    long free = 0;
    for (Explanation.NodeVerdict n : e.nodes()) {
      free += n.reason() == NodeReason.USABLE ? n.freeSlots() : 0;
    }
    return free;
  }

  /** Per node, how many processes the explanation says the spawn places there. */
  private static Map<String, Integer> placedByExplain(Explanation e) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Explanation.NodeVerdict n : e.nodes()) {
      if (n.placed() > 0) {
        assertThat(n.reason()).as("a node placed on, " + n).isEqualTo(NodeReason.USABLE);
        out.put(n.node(), n.placed());
      }
    }
    return new TreeMap<>(out);
  }

  private static Map<String, Integer> launched(Outcome o) {
    Map<String, Integer> out = new TreeMap<>();
    for (Effect f : o.effects()) {
      if (f instanceof Effect.LaunchProcs l) {
        out.merge(l.node(), l.procs().size(), Integer::sum);
      }
    }
    return out;
  }
}
