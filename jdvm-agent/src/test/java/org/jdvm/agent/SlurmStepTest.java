package org.jdvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jdvm.host.LaunchRequest;
import org.junit.jupiter.api.Test;

/** What a process started by an agent running as a Slurm step sees of the step. */
class SlurmStepTest {
  /** What srun gave {@code srun --jobid=7 --overlap -N1 -n1 -w node2 jdvm agent} (Slurm 22.05). */
  private static final Map<String, String> SRUN_TASK =
      Map.ofEntries(
          Map.entry("SLURMD_NODENAME", "node2"),
          Map.entry("SLURM_CPUS_ON_NODE", "4"),
          Map.entry("SLURM_JOBID", "7"),
          Map.entry("SLURM_JOB_ID", "7"),
          Map.entry("SLURM_JOB_NODELIST", "node[2-3]"),
          Map.entry("SLURM_NODEID", "0"),
          Map.entry("SLURM_NODELIST", "node2"),
          Map.entry("SLURM_STEPID", "1"),
          Map.entry("SLURM_STEP_ID", "1"),
          Map.entry("SLURM_STEP_NODELIST", "node2"),
          Map.entry("SLURM_PROCID", "0"),
          Map.entry("SLURM_LOCALID", "0"),
          Map.entry("SLURM_NTASKS", "1"),
          Map.entry("SLURM_TASK_PID", "20626"),
          Map.entry("SLURM_SRUN_COMM_PORT", "40663"),
          Map.entry("SLURM_CPU_BIND", "quiet,none"),
          Map.entry("HOME", "/root"));

  @Test
  void theJobStepAndNodeVariablesWinOverTheControllersAndTheTasksOwnAreLeftOut() {
    LaunchRequest launch =
        new LaunchRequest(
            List.of("a.out"),
            Map.of("SLURM_JOB_ID", "3", "SLURM_PROCID", "5", "PMIX_RANK", "5", "HOME", "/home/u"),
            null);
    Map<String, String> env = SlurmStep.of(SRUN_TASK).over(launch).environment();
    assertThat(env)
        .containsEntry("SLURM_JOB_ID", "7")
        .containsEntry("SLURM_JOBID", "7")
        .containsEntry("SLURM_STEP_ID", "1")
        .containsEntry("SLURM_NODELIST", "node2")
        .containsEntry("SLURM_JOB_NODELIST", "node[2-3]")
        .containsEntry("SLURMD_NODENAME", "node2")
        .containsEntry("SLURM_NODEID", "0")
        .containsEntry("HOME", "/home/u")
        // the controller's own value of a task variable stays; the agent's task's never comes
        .containsEntry("SLURM_PROCID", "5")
        .doesNotContainKeys(
            "SLURM_LOCALID",
            "SLURM_NTASKS",
            "SLURM_TASK_PID",
            "SLURM_SRUN_COMM_PORT",
            "SLURM_CPU_BIND");
  }

  @Test
  void anAgentNotStartedBySrunPassesNothing() {
    LaunchRequest launch = new LaunchRequest(List.of("a.out"), Map.of("A", "1"), null);
    assertThat(SlurmStep.of(Map.of("SLURM_JOB_ID", "7")).over(launch)).isSameAs(launch);
    assertThat(SlurmStep.of(Map.of()).variables()).isEmpty();
  }
}
