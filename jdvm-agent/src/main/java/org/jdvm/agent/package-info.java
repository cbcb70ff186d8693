/**
 * {@code jdvm agent}, one per host of a DVM across hosts (architecture.md §5): {@link
 * org.jdvm.agent.AgentDaemon} joins the controller over the agent link, runs the node's processes
 * with jdvm-host's {@code LocalNodeAgent}, reports launches, output and exits (held in its {@code
 * Outbox} while the link is down, and sent with the next hello), and reconnects to a restarted
 * controller. {@link org.jdvm.agent.AgentRelay} is its relay hook: it opens the host's PMIx relay
 * at the first launch, points each launch at it, and makes and removes job directories on the host.
 * {@link org.jdvm.agent.SimulatedAgent} is an agent without processes, for the scale benchmark.
 * {@link org.jdvm.agent.SlurmStep}: an agent started as a Slurm step gives its processes the step's
 * job, step and node variables (not those of its own single task).
 *
 * <p>Invariants: nothing runs for a controller that did not prove the DVM's secret; an exit report
 * is never dropped while fewer than {@code MAX_HELD_EXITS} wait (output beyond its bound is, and
 * counted); imports only jdvm-pmix and jdvm-host (house.ModuleImportsTest).
 */
package org.jdvm.agent;
