package org.jdvm.host;

/**
 * What a process used, read when the host reaped it: the kernel's {@code rusage} that comes with
 * its exit status (the raw {@code waitid(2)}, {@code os.Posix.reap}), which counts the process and
 * the descendants it waited for, and the time from its start to its reaping on the host's monotonic
 * clock. The job's cgroup is not the source: it is per job and node, not per process, and a cgroup
 * kept for reuse ({@code CgroupContainment}) carries earlier jobs' counts.
 *
 * @param userMicros CPU time in user mode, microseconds
 * @param systemMicros CPU time in the kernel, microseconds
 * @param maxRssKiB peak resident set, KiB (the largest of the process's and its waited-for
 *     descendants')
 * @param wallMicros from its start to its reaping, microseconds
 */
public record Rusage(long userMicros, long systemMicros, long maxRssKiB, long wallMicros) {}
