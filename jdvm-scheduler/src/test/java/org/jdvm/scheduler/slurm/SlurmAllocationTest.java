package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.jdvm.core.NodeSpec;
import org.junit.jupiter.api.Test;

class SlurmAllocationTest {
  @Test
  void outsideSlurmThereIsNoAllocation() {
    assertThat(SlurmAllocation.fromEnvironment(Map.of("HOME", "/root"))).isEmpty();
  }

  @Test
  void insideSallocN3TheNodesAndSlotsComeFromSlurm() {
    // What salloc -N 3 set on the test cluster (four CPUs per node).
    Map<String, String> env =
        Map.of(
            "SLURM_JOB_ID", "6",
            "SLURM_JOB_NODELIST", "node[1-3]",
            "SLURM_TASKS_PER_NODE", "4(x3)",
            "SLURM_JOB_CPUS_PER_NODE", "4(x3)");
    assertThat(SlurmAllocation.fromEnvironment(env))
        .contains(
            new SlurmAllocation(
                "6",
                List.of(
                    new NodeSpec("node1", 4), new NodeSpec("node2", 4), new NodeSpec("node3", 4))));
  }

  @Test
  void tasksPerNodeWinsOverCpusAndTheOlderNamesAreRead() {
    Map<String, String> env =
        Map.of(
            "SLURM_JOBID", "12",
            "SLURM_NODELIST", "a[1-3],b",
            "SLURM_TASKS_PER_NODE", "2(x3),1",
            "SLURM_JOB_CPUS_PER_NODE", "8(x4)");
    SlurmAllocation a = SlurmAllocation.fromEnvironment(env).orElseThrow();
    assertThat(a.jobId()).isEqualTo("12");
    assertThat(a.nodes())
        .containsExactly(
            new NodeSpec("a1", 2),
            new NodeSpec("a2", 2),
            new NodeSpec("a3", 2),
            new NodeSpec("b", 1));
    assertThat(
            SlurmAllocation.fromEnvironment(
                    Map.of(
                        "SLURM_JOB_ID",
                        "3",
                        "SLURM_JOB_NODELIST",
                        "n1",
                        "SLURM_JOB_CPUS_PER_NODE",
                        "16"))
                .orElseThrow()
                .nodes())
        .containsExactly(new NodeSpec("n1", 16));
  }

  @Test
  void malformedOrHostileVariablesAreRefusedNamingTheVariable() {
    assertThatThrownBy(
            () ->
                SlurmAllocation.fromEnvironment(
                    Map.of(
                        "SLURM_JOB_ID",
                        "7;rm -rf /",
                        "SLURM_JOB_NODELIST",
                        "n1",
                        "SLURM_TASKS_PER_NODE",
                        "1")))
        .hasMessageStartingWith("SLURM_JOB_ID: ");
    assertThatThrownBy(
            () ->
                SlurmAllocation.fromEnvironment(
                    Map.of(
                        "SLURM_JOB_ID",
                        "7",
                        "SLURM_JOB_NODELIST",
                        "n1;id",
                        "SLURM_TASKS_PER_NODE",
                        "1")))
        .hasMessageStartingWith("SLURM_JOB_NODELIST: ");
    assertThatThrownBy(
            () ->
                SlurmAllocation.fromEnvironment(
                    Map.of(
                        "SLURM_JOB_ID",
                        "7",
                        "SLURM_JOB_NODELIST",
                        "n[1-2]",
                        "SLURM_TASKS_PER_NODE",
                        "1")))
        .hasMessage("SLURM_TASKS_PER_NODE gives 1 counts for the 2 nodes of SLURM_JOB_NODELIST");
    assertThatThrownBy(
            () ->
                SlurmAllocation.fromEnvironment(
                    Map.of("SLURM_JOB_ID", "7", "SLURM_JOB_NODELIST", "n1")))
        .hasMessageContaining("cannot tell the slots");
    assertThatThrownBy(() -> SlurmAllocation.fromEnvironment(Map.of("SLURM_JOB_ID", "7")))
        .hasMessageContaining("SLURM_JOB_NODELIST is not");
  }
}
