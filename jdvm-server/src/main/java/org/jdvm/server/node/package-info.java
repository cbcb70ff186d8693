/**
 * Node agents: the real processes of a node (architecture.md §5).
 *
 * <p>{@link org.jdvm.server.node.ProcessHost} starts, signals and reaps processes on this host:
 * each in its own process group (so a signal reaches what it started) and with a parent-death
 * signal (so killing the controller outright leaves no orphans), always from long-lived platform
 * threads because that signal follows the starting thread. {@link
 * org.jdvm.server.node.LocalNodeAgent} is one virtual node of the embedded default.
 *
 * <p>Invariants: every output chunk of a process is delivered before its exit; a process that exits
 * at once never lingers in an agent's table; ending a node's processes continues stopped ones and
 * escalates to KILL after the grace period.
 */
package org.jdvm.server.node;
