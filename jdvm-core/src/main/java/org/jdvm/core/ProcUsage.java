package org.jdvm.core;

/**
 * What one process used, as its node's host saw it when it reaped the process (docs/cli.md "jdvm
 * nodes | allocs | jobs"): the {@code rusage} the kernel gives with its exit status ({@code
 * waitid(2)}), which counts the process and every descendant it waited for, and the time from its
 * start to its reaping.
 *
 * @param userCpuMicros CPU time in user mode ({@code ru_utime}), microseconds
 * @param systemCpuMicros CPU time in the kernel ({@code ru_stime}), microseconds
 * @param maxRssKiB its peak resident set ({@code ru_maxrss}), KiB: the largest of the process's and
 *     of each waited-for descendant's, not their sum; -1 when not known (no higher than the peak of
 *     the JVM that started it, which Linux reports for a child born sharing its memory: jdvm-host's
 *     {@code Rusage})
 * @param wallMicros from its start to its reaping, microseconds
 */
public record ProcUsage(long userCpuMicros, long systemCpuMicros, long maxRssKiB, long wallMicros) {
  public ProcUsage {
    if (userCpuMicros < 0 || systemCpuMicros < 0 || maxRssKiB < -1 || wallMicros < 0) {
      throw new IllegalArgumentException(
          "a usage is never negative: "
              + userCpuMicros
              + " "
              + systemCpuMicros
              + " "
              + maxRssKiB
              + " "
              + wallMicros);
    }
  }

  /** User and system CPU time together, microseconds. */
  public long cpuMicros() {
    return userCpuMicros + systemCpuMicros;
  }

  /**
   * A job's total so far: CPU times and wall times add up (wall: process-seconds, as Slurm's and
   * Flux's per-task sums), the peak is the largest process's, since processes on other nodes do not
   * share memory.
   */
  public ProcUsage plus(ProcUsage other) {
    return new ProcUsage(
        userCpuMicros + other.userCpuMicros,
        systemCpuMicros + other.systemCpuMicros,
        Math.max(maxRssKiB, other.maxRssKiB),
        wallMicros + other.wallMicros);
  }
}
