package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.NodeSpec;

/**
 * The Slurm allocation {@code jdvm start} runs inside, read from the environment Slurm gives the
 * shell of {@code salloc} or a batch script, as PRRTE's {@code ras/slurm} reads it (architecture.md
 * §5): the job from {@code SLURM_JOB_ID} (or the older {@code SLURM_JOBID}), the nodes from {@code
 * SLURM_JOB_NODELIST} (or {@code SLURM_NODELIST}), and the slots of each node from {@code
 * SLURM_TASKS_PER_NODE} (or, without it, {@code SLURM_JOB_CPUS_PER_NODE}), a repeat list such as
 * {@code 2(x3),1}.
 *
 * @param jobId the Slurm job the DVM's agents are started in ({@code srun --jobid})
 * @param nodes the allocation's nodes with their slots, in Slurm's order
 */
public record SlurmAllocation(String jobId, List<NodeSpec> nodes) {
  public SlurmAllocation {
    SlurmNames.jobId(jobId);
    nodes = List.copyOf(nodes);
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a Slurm allocation has at least one node");
    }
  }

  /**
   * The allocation this process runs inside, or empty when {@code SLURM_JOB_ID} is not set.
   *
   * @throws IllegalArgumentException when the variables are set but malformed or disagree; the
   *     message names the variable
   */
  public static Optional<SlurmAllocation> fromEnvironment(Map<String, String> env) {
    String job = first(env, "SLURM_JOB_ID", "SLURM_JOBID");
    if (job == null) {
      return Optional.empty();
    }
    String nodelist = first(env, "SLURM_JOB_NODELIST", "SLURM_NODELIST");
    if (nodelist == null) {
      throw new IllegalArgumentException(
          "SLURM_JOB_ID is set but SLURM_JOB_NODELIST is not: not inside a Slurm allocation?");
    }
    String slotsVar =
        env.get("SLURM_TASKS_PER_NODE") != null
            ? "SLURM_TASKS_PER_NODE"
            : env.get("SLURM_JOB_CPUS_PER_NODE") != null ? "SLURM_JOB_CPUS_PER_NODE" : null;
    if (slotsVar == null) {
      throw new IllegalArgumentException(
          "neither SLURM_TASKS_PER_NODE nor SLURM_JOB_CPUS_PER_NODE is set: cannot tell the slots");
    }
    try {
      SlurmNames.jobId(job);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("SLURM_JOB_ID: " + e.getMessage());
    }
    List<String> names;
    List<Integer> slots;
    try {
      names = Hostlist.expand(nodelist);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("SLURM_JOB_NODELIST: " + e.getMessage());
    }
    try {
      slots = Hostlist.repeatList(env.get(slotsVar));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(slotsVar + ": " + e.getMessage());
    }
    if (slots.size() != names.size()) {
      throw new IllegalArgumentException(
          slotsVar
              + " gives "
              + slots.size()
              + " counts for the "
              + names.size()
              + " nodes of SLURM_JOB_NODELIST");
    }
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      nodes.add(new NodeSpec(names.get(i), slots.get(i)));
    }
    return Optional.of(new SlurmAllocation(job, nodes));
  }

  private static String first(Map<String, String> env, String name, String fallback) {
    String v = env.get(name);
    return v != null && !v.isEmpty() ? v : emptyToNull(env.get(fallback));
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
