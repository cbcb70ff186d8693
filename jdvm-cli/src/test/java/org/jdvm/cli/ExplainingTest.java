package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The words of the reasons the end-to-end tests cannot stage on one machine (a node whose agent is
 * down, a lost node the DVM remembers, a terminating session), from the JSON the DVM answers.
 */
class ExplainingTest {
  private static Map<String, Object> node(String reason, Object... kv) {
    Map<String, Object> n = new HashMap<>();
    n.put("node", "h3");
    n.put("reason", reason);
    n.put("clause", "§8.2.1.6");
    for (int i = 0; i < kv.length; i += 2) {
      n.put((String) kv[i], kv[i + 1]);
    }
    return n;
  }

  private static final Map<String, Object> SPAWN = Map.of("requester", "jdvm@5");

  @Test
  void aNodeWhoseAgentIsDownIsSaidToBeDown() {
    assertThat(Explaining.why(SPAWN, node("NOT_IN_DVM", "agent", "down")))
        .isEqualTo(
            "not in the DVM (spec §8.2.1.6): the node is down (its agent stopped answering)");
  }

  @Test
  void aNodeThatLeftTheDvmOutsideAnAllocationsEndSaysWhereItWasFrom() {
    Map<String, Object> fate = Map.of("allocId", "s2", "leftDvm", true);
    assertThat(Explaining.why(SPAWN, node("NOT_IN_DVM", "fate", fate)))
        .isEqualTo(
            "not in the DVM (spec §8.2.1.6): it left the DVM from allocation s2 (lost, or"
                + " released by an owner)");
  }

  @Test
  void aTerminatingSessionAndATerminatingTargetAreSaidWithTheirDecision() {
    assertThat(
            Explaining.why(
                SPAWN, node("TERMINATING", "allocId", "s4", "clause", "decisions.md #13")))
        .isEqualTo("its session s4 is terminating (decisions.md #13)");
    Map<String, Object> e =
        Map.of(
            "requester", "jdvm@5",
            "rejection", "TARGET_TERMINATING",
            "statusName", "PMIX_ERR_NOT_AVAILABLE",
            "targets",
                List.of(
                    Map.of(
                        "named",
                        "s4",
                        "allocId",
                        "s4",
                        "found",
                        true,
                        "mayTarget",
                        true,
                        "terminating",
                        true)),
            "nodes", List.of());
    assertThat(Explaining.summary(e))
        .isEqualTo(
            "refused, PMIX_ERR_NOT_AVAILABLE: session s4 is terminating and takes no new job"
                + " (decisions.md #13)");
  }
}
