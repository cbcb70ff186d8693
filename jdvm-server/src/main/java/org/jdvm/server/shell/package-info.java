/**
 * The shell proper: executing the core's effects and turning observations into reports
 * (architecture.md §1; the order of obligations is in jdvm-core's README).
 *
 * <p>{@link org.jdvm.server.shell.Shell} dispatches effects without blocking the controller:
 * replies and events go to the {@link org.jdvm.endpoint.PeerGateway} (the PMIx endpoint), asks to
 * the scheduler port, and launching, signalling and shrinking run on virtual threads whose findings
 * return as reports. {@link org.jdvm.server.shell.SchedulerBridge} turns scheduler events into
 * reports; {@link org.jdvm.server.shell.LaunchEnvironment} decides what a launched process's
 * environment holds (the PMIx variables a libpmix 4.2 client needs, the marker that makes Open MPI
 * 4.1 use jdvm as its PMIx server, and jdvm's own credential), after the spawn's environment
 * directives ({@code PMIX_SET_ENVAR}, ... applied in order by {@link
 * org.jdvm.server.shell.EnvRules}), so jdvm's own variables always win; it is computed here for
 * every node, an agent's included, which launches with what it is sent; {@link
 * org.jdvm.host.JobDirectories} is where jobs' temporary directories are, which the endpoint makes
 * and removes.
 *
 * <p>Invariants: the shell decides no policy: what to ask the scheduler is the core's, whether a
 * loan is accepted is the scheduler port's, a launch failure's status follows from its kind. A
 * node's processes are all ended before its nodes are handed back to the scheduler; a process's
 * output is forwarded before its exit is reported.
 */
package org.jdvm.server.shell;
