/**
 * The operating-system calls of the process host, through the foreign-function API of Java 25
 * ({@link org.jdvm.host.os.Posix}: pidfds, {@code waitid}, epoll, {@code kill}, {@code prctl},
 * {@code posix_spawn} through {@code PosixSpawn}; the C functions linked once in {@code Libc}), one
 * TCP socket's owner by its four-tuple over {@code sock_diag} netlink ({@link
 * org.jdvm.host.os.SockDiag}), jdvm's own start in C ({@link org.jdvm.host.os.NativeSpawn}: {@code
 * clone3} into the job's cgroup), and how the host keeps every descendant of its processes: {@link
 * org.jdvm.host.os.Containment}, one interface with two mechanisms chosen once in {@code open}
 * ({@code CgroupContainment}: a cgroup v2 per job and node; {@code SubreaperContainment}: the
 * subreaper and a tag), and what they share: the crash record ({@code ContainmentRecord}, {@code
 * procs.contain}), the subreaper ({@code Subreaper}), what is read of {@code /proc} ({@code
 * ProcScan}, {@code OwnChildren}), cgroupfs ({@code CgroupFs}) and the kernel files kept open
 * ({@code KernelFiles}).
 *
 * <p>Invariants: nothing here blocks except {@code epoll_wait}; a cgroup or process is removed or
 * killed only if this code named it ({@code jdvm-<pid>-<n>}, or the tag in its environment).
 */
package org.jdvm.host.os;
