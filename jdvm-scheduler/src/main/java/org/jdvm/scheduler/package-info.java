/**
 * The scheduler port and its implementations (architecture.md §5, decisions.md #4 and #8).
 *
 * <p>{@link org.jdvm.scheduler.SchedulerPort} is the DVM's side of a workload manager: ask for
 * nodes or leave to lend, cancel, give back, lend, end. {@link
 * org.jdvm.scheduler.EmbeddedScheduler} is the embedded default as a deterministic state machine
 * (pool of spare nodes, grants by count or name, a strict FIFO queue, time limits with warnings and
 * reclaim, every loan accepted, lending with claims); {@link
 * org.jdvm.scheduler.EmbeddedSchedulerPort} drives it with one timer thread. {@link
 * org.jdvm.scheduler.NoSchedulerPort} is {@code --scheduler none}; {@code --scheduler slurm} is in
 * {@code org.jdvm.scheduler.slurm}. The embedded scheduler's state and answers are journaled after
 * each step, before its events leave, and restored at a restart; an ask made again gets the answer
 * it got (docs/journal.md "The embedded scheduler").
 *
 * <p>Invariants: every ask is answered exactly once (granted, refused, or queued then granted,
 * refused or cancelled); a node is held by at most one allocation; events leave in the order the
 * state machine produced them.
 */
package org.jdvm.scheduler;
