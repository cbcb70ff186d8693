/**
 * Node agents: the real processes of a node (architecture.md §5).
 *
 * <p>{@link org.jdvm.host.ProcessHost} starts, signals and reaps processes on this host with jdvm's
 * native start ({@code clone3}, born inside its job's cgroup) or {@code posix_spawn} (no wrapper
 * program either way), each the leader of its own session, named by a pidfd; one platform thread
 * watches every process's pipes and exit through epoll, so the host's threads do not grow with its
 * processes. {@code ProcessHost} is the face over pieces that each keep their own state: the {@code
 * DescriptorBudget} (a start counted before anything is opened), {@code Births} and one {@code
 * Birth} per start (pipes, the child, and everything given back in one place when it fails), the
 * {@code Poller} (epoll, output, exits, the sweep), {@link org.jdvm.host.RunningProcess} (one
 * process's state; {@code ProcessHost.RunningProc} to callers) and {@code LiveGroups} (a group
 * ended with its last process). Every descendant is kept by the {@link
 * org.jdvm.host.os.Containment} of the host (a cgroup v2 per job and node, or the subreaper and a
 * tag), ended when the job's last process on the node has ended, when the host closes, and, after a
 * controller was killed outright, when the next host opens on its DVM directory. {@link
 * org.jdvm.host.LocalNodeAgent} is one virtual node of the embedded default. A process that is its
 * job's stdin target reads a {@link org.jdvm.host.StdinPipe} its spawner feeds; every other one
 * reads {@code /dev/null}. A process launched with {@link org.jdvm.host.LaunchRequest#mergeStderr}
 * ({@code PMIX_IOF_MERGE_STDERR_STDOUT}) has one pipe for stdout and stderr (fd 2 a copy of fd 1),
 * forwarded as stdout in the order written; the host holds it with one descriptor instead of two.
 * {@link org.jdvm.host.Cleanup} removes what a job registered once its processes on the node have
 * ended (docs/protocol.md "Cleanup").
 *
 * <p>Invariants: every output chunk of a process is delivered before its exit; an exit reports the
 * signal that ended the process, whoever sent it; a process that exits at once never lingers in an
 * agent's table; a process is signalled only until it is reaped, never a process that reused its
 * pid; ending a node's processes continues stopped ones and escalates to KILL after the grace
 * period; a start past the host's limit (open files, each process counted at what it will hold — 2
 * output pipes or 1 merged, a pidfd in the first eighth, a stdin pipe — before anything is opened)
 * is refused as out of resource and starts nothing; at most {@link
 * org.jdvm.host.StdinPipe#MAX_QUEUED_BYTES} wait for a process's stdin, a feeder past it waits;
 * nothing outside the allowed places is removed, and no symbolic link is followed.
 */
package org.jdvm.host;
