/**
 * {@code --scheduler slurm} (architecture.md §5): the scheduler port over a real Slurm's client
 * commands, and the reading of a Slurm allocation's environment for {@code jdvm start}. Starting
 * agents with {@code srun --overlap} is the agents' side (jdvm-server's {@code
 * org.jdvm.server.agents.SrunAgentStarter}), as PRRTE separates {@code plm/slurm} from {@code
 * ras/slurm}: the port is asked only which Slurm job holds a node ({@code jobOf}).
 *
 * <p>{@code SlurmScheduler} decides, as a state machine with time as an argument (as the embedded
 * scheduler is): asks into {@code salloc --no-shell} jobs, release into shrinking or {@code
 * scancel}, Slurm's EndTime and job states (polled with {@code squeue}) into warnings and reclaims,
 * and a restart's recovery; each input returns the commands, salloc starts and ends, events and log
 * lines it produced ({@code SlurmEffect}), a command whose answer the decision needs as a query
 * with its continuation. {@link org.jdvm.scheduler.slurm.SlurmSchedulerPort} is its shell: one
 * thread, the clocks, the commands, the salloc children, the journal. {@link
 * org.jdvm.scheduler.slurm.SlurmAllocation} reads {@code SLURM_JOB_ID}, {@code SLURM_JOB_NODELIST}
 * and {@code SLURM_TASKS_PER_NODE}; {@link org.jdvm.scheduler.slurm.Hostlist} expands Slurm's
 * compact lists.
 *
 * <p>The port journals its map (allocations → Slurm jobs, nodes, deadlines, warnings; queued asks →
 * pending job ids; the DVM's tag, which names every job it submits {@code jdvm-TAG}) through a
 * {@code slurm-scheduler} note after each step, before the step's events leave; a restarted
 * controller gives it back ({@code restore}) and {@code recover} re-adopts, reclaims, waits for or
 * cancels each job by what {@code squeue} says of it now, as {@link
 * org.jdvm.scheduler.slurm.SlurmRecovery#decide} (pure) decides (docs/journal.md "Slurm").
 *
 * <p>Invariants: every Slurm command is an argv list (no shell), and every value in it that did not
 * come from jdvm's own constants passed {@link org.jdvm.scheduler.slurm.SlurmNames}; every list
 * read from Slurm is bounded; every job the port got from Slurm is cancelled when its allocation
 * ends, is released, expires or the port closes; no event leaves the port before the state it
 * follows from is journaled; after a controller crash, no job named with the DVM's tag is left in
 * Slurm that the recovered DVM neither holds nor waits for.
 */
package org.jdvm.scheduler.slurm;
