/**
 * Node agents: the real processes of a node (architecture.md §5).
 *
 * <p>{@link org.jdvm.server.node.ProcessHost} starts, signals and reaps processes on this host:
 * each in its own process group (so a signal reaches what it started) and with a parent-death
 * signal (so killing the controller outright leaves no orphans), always from long-lived platform
 * threads because that signal follows the starting thread. {@link
 * org.jdvm.server.node.LocalNodeAgent} is one virtual node of the embedded default. A process that
 * is its job's stdin target reads a {@link org.jdvm.server.node.StdinPipe} its spawner feeds; every
 * other one reads {@code /dev/null}. {@link org.jdvm.server.node.Cleanup} removes what a job
 * registered once its processes on the node have ended (docs/protocol.md "Cleanup").
 *
 * <p>Invariants: every output chunk of a process is delivered before its exit; a process that exits
 * at once never lingers in an agent's table; ending a node's processes continues stopped ones and
 * escalates to KILL after the grace period; at most {@link
 * org.jdvm.server.node.StdinPipe#MAX_QUEUED_BYTES} wait for a process's stdin, a feeder past it
 * waits; nothing outside the allowed places is removed, and no symbolic link is followed.
 */
package org.jdvm.server.node;
