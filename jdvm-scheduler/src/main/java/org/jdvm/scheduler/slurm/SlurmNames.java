package org.jdvm.scheduler.slurm;

import java.util.regex.Pattern;

/**
 * What may go into a Slurm command's argv. Every node name, job id and partition that jdvm passes
 * to {@code salloc}, {@code srun}, {@code scontrol} or {@code scancel} passes through here first,
 * whether it came from a user, from Slurm's environment or from Slurm's own output: a name that
 * could read as an option ({@code -w}), a hostlist ({@code node[1-2]}, {@code a,b}) or shell text
 * ({@code ;}, {@code $(…)}, spaces) is refused before any command runs. Commands never go through a
 * shell either way (they are argv lists); this keeps a value from changing what Slurm is asked.
 */
public final class SlurmNames {
  private static final Pattern NODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern JOB_ID = Pattern.compile("[1-9][0-9]{0,17}");
  private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private SlurmNames() {}

  /** {@code name} if it is a plain node name, else {@link IllegalArgumentException}. */
  public static String node(String name) {
    if (name == null || !NODE.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "'" + shown(name) + "' is not a Slurm node name (letters, digits, '.', '_', '-')");
    }
    return name;
  }

  /** {@code id} if it is a plain Slurm job id (a positive decimal number), else refused. */
  public static String jobId(String id) {
    if (id == null || !JOB_ID.matcher(id).matches()) {
      throw new IllegalArgumentException("'" + shown(id) + "' is not a Slurm job id");
    }
    return id;
  }

  /** {@code name} if it is a plain partition name, else refused. */
  public static String partition(String name) {
    if (name == null || !PARTITION.matcher(name).matches()) {
      throw new IllegalArgumentException("'" + shown(name) + "' is not a Slurm partition name");
    }
    return name;
  }

  /** {@code name} if it is a plain job name (as a partition's), else refused. */
  public static String jobName(String name) {
    if (name == null || !PARTITION.matcher(name).matches()) {
      throw new IllegalArgumentException("'" + shown(name) + "' is not a plain Slurm job name");
    }
    return name;
  }

  /** True if {@code name} would pass {@link #node}. */
  public static boolean isNode(String name) {
    return name != null && NODE.matcher(name).matches();
  }

  /** At most 64 characters of a hostile value, control characters replaced, for messages. */
  public static String shown(String s) {
    if (s == null) {
      return "null";
    }
    String cut = s.length() > 64 ? s.substring(0, 64) + "…" : s;
    return cut.replaceAll("\\p{Cntrl}", "?");
  }
}
