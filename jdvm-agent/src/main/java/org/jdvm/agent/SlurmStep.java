package org.jdvm.agent;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.host.LaunchRequest;

/**
 * What the processes of an agent that runs as a Slurm step ({@code srun --jobid ... jdvm agent})
 * see of that step (docs/cli.md "jdvm start", Slurm): the variables that describe the job, the step
 * and the node, as srun gave them to the agent, over whatever the controller's environment had. The
 * variables of the agent's one task ({@code SLURM_PROCID}, {@code SLURM_LOCALID}, {@code
 * SLURM_NTASKS}, {@code SLURM_TASK_PID}, {@code SLURM_GTIDS}, the task counts and layout, its CPU
 * binding) and srun's own ports ({@code SLURM_SRUN_COMM_*}, {@code SLURM_STEP_LAUNCHER_PORT}) are
 * not passed: they describe the agent, not a jdvm process, whose rank is its PMIx rank. An agent
 * not started by srun (no {@code SLURM_STEP_ID}) passes nothing.
 */
public final class SlurmStep {
  /** The variables passed, in the order srun documents them. */
  public static final List<String> PASSED =
      List.of(
          "SLURM_CLUSTER_NAME",
          "SLURM_CPUS_ON_NODE",
          "SLURM_JOB_ID",
          "SLURM_JOBID",
          "SLURM_JOB_NODELIST",
          "SLURM_JOB_NUM_NODES",
          "SLURM_JOB_PARTITION",
          "SLURM_JOB_UID",
          "SLURM_JOB_GID",
          "SLURM_JOB_USER",
          "SLURM_NNODES",
          "SLURM_NODEID",
          "SLURM_NODELIST",
          "SLURM_STEP_ID",
          "SLURM_STEPID",
          "SLURM_STEP_NODELIST",
          "SLURM_STEP_NUM_NODES",
          "SLURM_TOPOLOGY_ADDR",
          "SLURM_TOPOLOGY_ADDR_PATTERN",
          "SLURMD_NODENAME");

  /** An agent not started as a Slurm step. */
  public static final SlurmStep NONE = new SlurmStep(Map.of());

  private final Map<String, String> variables;

  private SlurmStep(Map<String, String> variables) {
    this.variables = variables;
  }

  /** The step the agent whose environment is {@code agentEnvironment} runs as, or {@link #NONE}. */
  public static SlurmStep of(Map<String, String> agentEnvironment) {
    if (!agentEnvironment.containsKey("SLURM_STEP_ID")
        || !agentEnvironment.containsKey("SLURM_JOB_ID")) {
      return NONE;
    }
    Map<String, String> v = new LinkedHashMap<>();
    for (String name : PASSED) {
      String value = agentEnvironment.get(name);
      if (value != null) {
        v.put(name, value);
      }
    }
    return new SlurmStep(Map.copyOf(v));
  }

  /** The variables a launched process gets. */
  public Map<String, String> variables() {
    return variables;
  }

  /** {@code request} with the step's variables set (they win over the controller's). */
  public LaunchRequest over(LaunchRequest request) {
    if (variables.isEmpty()) {
      return request;
    }
    Map<String, String> env = new HashMap<>(request.environment());
    env.putAll(variables);
    return request.withEnvironment(env);
  }
}
