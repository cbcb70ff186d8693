package org.jdvm.server.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.core.NodeSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Slurm": the roster also names the nodes a scheduler granted later that run an
 * agent (Slurm's, started with srun), so that they rejoin a restarted controller too.
 */
class AgentRosterTest {
  @TempDir Path dir;

  private static AgentRoster roster(List<String> granted) throws IOException {
    return new AgentRoster(
        new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 4242),
        AgentHub.Settings.DEFAULT,
        "slurm",
        List.of(new NodeSpec("vm", 2), new NodeSpec("node1", 4)),
        List.of("node1"),
        granted);
  }

  @Test
  void grantedNodesWithAgentsAreWrittenReadBackAndRejoinAfterThePoolsAgents() throws Exception {
    AgentRoster r = roster(List.of("node3", "node1"));
    r.write(dir);
    AgentRoster back = AgentRoster.read(dir);
    assertThat(back).isEqualTo(r);
    assertThat(back.pool()).as("a granted node is no start-up node").hasSize(2);
    assertThat(back.rejoining()).containsExactly("node1", "node3");
  }

  @Test
  void aRosterWrittenBeforeGrantedNodesExistedHasNone() throws Exception {
    new AgentRoster(
            new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 4242),
            AgentHub.Settings.DEFAULT,
            "slurm",
            List.of(new NodeSpec("vm", 2)),
            List.of())
        .write(dir);
    assertThat(Files.readString(dir.resolve(AgentRoster.FILE))).doesNotContain("granted=");
    assertThat(AgentRoster.read(dir).granted()).isEmpty();
  }

  @Test
  void aGrantedNameThatIsNoHostNameMakesTheFileNoRoster() throws Exception {
    roster(List.of()).write(dir);
    Path f = dir.resolve(AgentRoster.FILE);
    Files.writeString(f, Files.readString(f) + "granted=$(id)\n");
    assertThatThrownBy(() -> AgentRoster.read(dir))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is not a roster of agents");
  }
}
