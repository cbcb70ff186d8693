package org.jdvm.server.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostListTest {
  @Test
  void anOpenMpiHostfileWithSlotsCommentsAndRepeatsIsRead() {
    String file =
        """
        # the cluster
        host1 slots=4 max_slots=8
        host2            # no slots: its cpus

          host3 slots:2
        root@host4 count=1
        host3 slots=1
        """;
    assertThat(HostList.parseHostfile(file))
        .containsExactly(
            new HostList.Host("host1", 4),
            new HostList.Host("host2", 0),
            new HostList.Host("host3", 3),
            new HostList.Host("host4", 1));
  }

  @Test
  void aHostListGivesSlotsAfterAColonAndCountsRepeats() {
    assertThat(HostList.parseHosts("a,b:3,a"))
        .containsExactly(new HostList.Host("a", 2), new HostList.Host("b", 3));
  }

  @Test
  void namesThatCouldPassForOptionsOrShellAreRefusedWithTheLine() {
    assertThatThrownBy(() -> HostList.parseHosts("a,-oProxyCommand=x"))
        .hasMessageContaining("not a host name");
    assertThatThrownBy(() -> HostList.parseHostfile("ok\nh;rm slots=1\n"))
        .hasMessageContaining("hostfile line 2");
    assertThatThrownBy(() -> HostList.parseHostfile("h slots=0")).hasMessageContaining("slots");
    assertThatThrownBy(() -> HostList.parseHostfile("h color=red")).hasMessageContaining("unknown");
    assertThatThrownBy(() -> HostList.parseHostfile("# nothing\n"))
        .hasMessageContaining("no hosts");
    assertThatThrownBy(() -> HostList.parseHosts("a,,b")).hasMessageContaining("not a host name");
  }

  @Test
  void theSshCommandQuotesTheRemoteCommandAndPutsBatchModeBeforeTheHost() {
    SshAgentStarter ssh = new SshAgentStarter(List.of("ssh", "-F", "/tmp/cfg"));
    assertThat(ssh.command("host2", List.of("/opt/j dk/java", "agent", "$(x)")))
        .containsExactly(
            "ssh",
            "-F",
            "/tmp/cfg",
            "-o",
            "BatchMode=yes",
            "host2",
            "'/opt/j dk/java' agent '$(x)'");
    assertThatThrownBy(() -> ssh.command("-oProxyCommand=x", List.of("a")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
