/**
 * The operating-system calls of the process host, through the foreign-function API of Java 25
 * ({@link org.jdvm.host.os.Posix}: {@code posix_spawn}, pidfds, {@code waitid}, epoll, {@code
 * kill}, {@code prctl}), jdvm's own start in C ({@link org.jdvm.host.os.NativeSpawn}: {@code
 * clone3} into the job's cgroup), and how the host keeps every descendant of its processes ({@link
 * org.jdvm.host.os.Containment}).
 *
 * <p>Invariants: nothing here blocks except {@code epoll_wait}; a cgroup or process is removed or
 * killed only if this code named it ({@code jdvm-<pid>-<n>}, or the tag in its environment).
 */
package org.jdvm.host.os;
