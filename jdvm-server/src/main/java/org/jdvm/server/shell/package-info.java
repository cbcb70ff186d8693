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
 * <p>Binding: {@link org.jdvm.server.shell.LaunchBindings} binds every node of a job, from each
 * node agent's topology, before the first of its processes starts (the core emits a job's launches
 * in one outcome), so a request one node cannot honour starts nothing; {@link
 * org.jdvm.server.shell.ProcPlaces} keeps where each process was bound for its job data, and {@link
 * org.jdvm.server.shell.BindingReport} writes {@code --report-bindings}' lines.
 *
 * <p>Invariants: the shell decides no policy: what to ask the scheduler is the core's, whether a
 * loan is accepted is the scheduler port's, a launch failure's status follows from its kind (the
 * binding follows PRRTE's rules, in jdvm-host's {@code topology.Binder}). A node's processes are
 * all ended before its nodes are handed back to the scheduler; a process's output is forwarded
 * before its exit is reported.
 */
package org.jdvm.server.shell;
