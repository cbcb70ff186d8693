/**
 * The assembly (architecture.md §1): {@link org.jdvm.server.assembly.DvmServer} is what {@code jdvm
 * start} runs — it opens the DVM's directory, binds the PMIx endpoint with a {@code
 * ControllerUpstream} as its backend, starts the agents on other hosts (ssh, or srun in a Slurm
 * allocation), starts the {@link org.jdvm.server.Dvm}, serves, and publishes the contact file; it
 * stops them in the reverse order, and {@code fail} stops everything at once.
 */
package org.jdvm.server.assembly;
