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
 *     descendants'), or -1 when not known: the process is born sharing the host JVM's memory (the C
 *     starter's {@code clone3}, {@code posix_spawn}: both vfork-like) and Linux, at its exec, keeps
 *     the old memory's peak — the JVM's — in the {@code ru_maxrss} it reports, so a peak no higher
 *     than the JVM's own once the process was born ({@code os.Posix.selfMaxRssKiB}) may be the
 *     JVM's and is not reported
 * @param wallMicros from its start to its reaping, microseconds
 */
public record Rusage(long userMicros, long systemMicros, long maxRssKiB, long wallMicros) {}
