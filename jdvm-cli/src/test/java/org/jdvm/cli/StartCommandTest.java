package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.jdvm.core.Limits;
import org.jdvm.core.NodeSpec;
import org.jdvm.server.DvmConfig;
import org.junit.jupiter.api.Test;

/** {@code jdvm start}'s options as the DVM's configuration, before anything starts. */
class StartCommandTest {
  @Test
  void eachLimitOptionSetsItsLimitAndLeavesTheOthersAtTheirDefaults() {
    StartCommand start = new StartCommand();
    start.limits = List.of("live-procs=3", "pending-asks-per-requester = 2");
    Limits l = start.config().limits();
    assertThat(l.liveProcs()).isEqualTo(3);
    assertThat(l.pendingAsksPerRequester()).isEqualTo(2);
    assertThat(l.procsPerSpawn()).isEqualTo(Limits.DEFAULT.procsPerSpawn());
  }

  @Test
  void anUnknownLimitAValueBelowOneOrAMissingValueIsAUsageError() {
    for (String bad : List.of("no-such=4", "live-procs=0", "live-procs", "live-procs=x")) {
      StartCommand start = new StartCommand();
      start.limits = List.of(bad);
      assertThatThrownBy(start::config).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void insideASlurmAllocationItsNodesAndSlotsAreTheStartUpNodesAndSlurmTheScheduler() {
    StartCommand start = new StartCommand();
    start.environment =
        Map.of(
            "SLURM_JOB_ID", "6",
            "SLURM_JOB_NODELIST", "node[1-3]",
            "SLURM_TASKS_PER_NODE", "2(x2),1");
    DvmConfig c = start.config();
    assertThat(c.startupNodes())
        .containsExactly(
            new NodeSpec("node1", 2), new NodeSpec("node2", 2), new NodeSpec("node3", 1));
    assertThat(c.scheduler()).isEqualTo(DvmConfig.SchedulerKind.SLURM);
    assertThat(c.spareNodes()).isEmpty();
  }

  @Test
  void insideASlurmAllocationItsNodesGetAgentsStartedBySrunInItsJob() {
    Map<String, String> env =
        Map.of(
            "SLURM_JOB_ID",
            "6",
            "SLURM_JOB_NODELIST",
            "node[1-3]",
            "SLURM_TASKS_PER_NODE",
            "2(x3)");
    StartCommand start = new StartCommand();
    start.environment = env;
    start.listen = "127.0.0.1";
    start.config();
    org.jdvm.server.agents.RemoteHosts remote = start.remote();
    assertThat(remote.hosts())
        .extracting(h -> h.name() + ":" + h.slots())
        .containsExactly("node1:2", "node2:2", "node3:2");
    assertThat(remote.starter()).isInstanceOf(org.jdvm.server.agents.SrunAgentStarter.class);
    StartCommand virtual = new StartCommand();
    virtual.environment = env;
    virtual.nodes = 2;
    virtual.config();
    assertThat(virtual.remote()).isNull();
  }

  @Test
  void explicitNodesOrSchedulerWinOverTheSlurmAllocation() {
    Map<String, String> env =
        Map.of(
            "SLURM_JOB_ID", "6", "SLURM_JOB_NODELIST", "n[1-3]", "SLURM_TASKS_PER_NODE", "4(x3)");
    StartCommand start = new StartCommand();
    start.environment = env;
    start.nodes = 2;
    assertThat(start.config().startupNodes())
        .extracting(NodeSpec::name)
        .containsExactly("node0", "node1");
    assertThat(start.config().scheduler()).isEqualTo(DvmConfig.SchedulerKind.EMBEDDED);
    StartCommand none = new StartCommand();
    none.environment = env;
    none.scheduler = "none";
    assertThat(none.config().scheduler()).isEqualTo(DvmConfig.SchedulerKind.NONE);
    assertThat(none.config().startupNodes()).hasSize(3);
    StartCommand outside = new StartCommand();
    outside.environment = Map.of();
    outside.scheduler = "slurm";
    assertThat(outside.config().startupNodes()).hasSize(4);
    assertThat(outside.config().scheduler()).isEqualTo(DvmConfig.SchedulerKind.SLURM);
  }

  @Test
  void aMalformedSlurmEnvironmentIsAUsageErrorNamingTheVariable() {
    StartCommand start = new StartCommand();
    start.environment =
        Map.of("SLURM_JOB_ID", "6", "SLURM_JOB_NODELIST", "n[1-3];id", "SLURM_TASKS_PER_NODE", "1");
    assertThatThrownBy(start::config).hasMessageStartingWith("SLURM_JOB_NODELIST: ");
    StartCommand poll = new StartCommand();
    poll.environment = Map.of("JDVM_SLURM_POLL_MS", "soon");
    poll.scheduler = "slurm";
    assertThatThrownBy(poll::config).hasMessageContaining("JDVM_SLURM_POLL_MS");
  }
}
