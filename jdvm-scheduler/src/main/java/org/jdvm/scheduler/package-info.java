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
 * {@code org.jdvm.scheduler.slurm}.
 *
 * <p>Each port owns its journal state: it journals its state and answers as notes through a {@link
 * org.jdvm.scheduler.SchedulerJournal} after each step, before its events leave ({@link
 * org.jdvm.scheduler.SchedulerNotes} encodes them), takes them back at a restart ({@code restore})
 * and squares them with the recovered DVM around the effects and asks the restart sends again
 * ({@code recover}, {@link org.jdvm.scheduler.SchedulerRestart}); an ask made again gets the answer
 * it got (docs/journal.md "The embedded scheduler", "Slurm"). The server opens the kinds in one
 * place ({@code DvmConfig.SchedulerKind.open}) and otherwise speaks only to {@link
 * org.jdvm.scheduler.SchedulerPort}.
 *
 * <p>Invariants: every ask is answered exactly once (granted, refused, or queued then granted,
 * refused or cancelled); a node is held by at most one allocation; events leave in the order the
 * state machine produced them.
 */
package org.jdvm.scheduler;
