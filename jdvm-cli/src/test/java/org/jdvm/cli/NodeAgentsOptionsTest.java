package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.jdvm.server.agents.LocalAgentStarter;
import org.jdvm.server.agents.RemoteHosts;
import org.junit.jupiter.api.Test;

/**
 * {@code jdvm start --node-agents}: where an embedded DVM's virtual nodes run, decided before
 * anything starts (docs/cli.md "jdvm start").
 */
class NodeAgentsOptionsTest {
  private static StartCommand start(int nodes, int slots, String mode, long oneProcessHolds) {
    StartCommand s = new StartCommand();
    s.environment = Map.of();
    s.nodes = nodes;
    s.slots = slots;
    s.nodeAgents.mode = mode;
    s.nodeAgents.oneProcessHolds = () -> oneProcessHolds;
    s.config();
    return s;
  }

  @Test
  void autoPutsTheNodesInLocalAgentsOnlyWhenTheirSlotsPassWhatOneProcessHolds() {
    assertThat(start(4, 25, "auto", 100).remote()).isNull();
    RemoteHosts above = start(4, 26, "auto", 100).remote();
    assertThat(above.local()).isTrue();
    assertThat(above.starter()).isInstanceOf(LocalAgentStarter.class);
    assertThat(above.hosts())
        .extracting(h -> h.name() + ":" + h.slots())
        .containsExactly("node0:26", "node1:26", "node2:26", "node3:26");
    assertThat(above.listen().getAddress().isLoopbackAddress()).isTrue();
  }

  @Test
  void onAndOffDecideWhateverTheSlots() {
    assertThat(start(2, 1, "on", 100).remote().local()).isTrue();
    assertThat(start(4, 1000, "off", 100).remote()).isNull();
  }

  @Test
  void theDetachedDvmGetsTheSameMode() {
    StartCommand s = start(2, 1, "on", 100);
    assertThat(new DetachedStart(s).detachedCommand(s.config()))
        .containsSubsequence("--node-agents", "on");
  }
}
