package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.NodeSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes a scheduler grants get their agents before the core hears of the grant ({@code
 * Dvm.onGranted}, docs/cli.md "jdvm start": Slurm grants in a DVM across hosts): the requester is
 * answered once the agents were started, a node whose agent did not join is lost, and a hook that
 * fails still lets the grant through (or the requester would wait for ever).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrantedAgentsTest {
  @TempDir Path home;
  private TestDvm t;
  private JdvmClient tool;
  private final List<String> seenBeforeCore = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 4);
    tool = t.tool(new TestDvm.Output());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void grantedNodesGetAgentsFirstAndANodeWhoseAgentDidNotJoinIsLost() throws Exception {
    t.dvm.onGranted(
        nodes -> {
          List<String> known = t.nodeNames();
          for (NodeSpec n : nodes) {
            if (!known.contains(n.name())) {
              seenBeforeCore.add(n.name());
            }
          }
          return Map.of(nodes.getFirst().name(), "its agent did not join");
        });
    AllocationResult a =
        tool.allocate(AllocationRequest.newAllocation().nodes(2).share(true).build());
    assertThat(seenBeforeCore).containsExactlyInAnyOrderElementsOf(a.nodes());
    String lost = seenBeforeCore.getFirst();
    TestDvm.await(() -> !t.nodeNames().contains(lost), lost + " lost");
    assertThat(t.nodeNames())
        .doesNotContain(lost)
        .containsAll(a.nodes().stream().filter(n -> !n.equals(lost)).toList());
  }

  @Test
  void aHookThatFailsStillLetsTheGrantThroughAndItsNodesAreLost() throws Exception {
    t.dvm.onGranted(
        nodes -> {
          throw new IllegalArgumentException("no Slurm job of this DVM holds " + nodes);
        });
    AllocationResult a =
        tool.allocate(AllocationRequest.newAllocation().nodes(1).share(true).build());
    assertThat(a.nodes()).hasSize(1);
    TestDvm.await(() -> !t.nodeNames().contains(a.nodes().getFirst()), "the node lost");
  }
}
