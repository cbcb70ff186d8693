/**
 * The state of the DVM and its one mutator (architecture.md §1; house-style.md "The core").
 *
 * <p>Role: the tables ({@code NodeTable}, {@code AllocationTable}, {@code JobTable}, {@code
 * AskTable}) with the indexes that keep the hot paths independent of the pool's size (a pool per
 * session with its nodes that have room and its free-slot count; a live-descendant count per
 * namespace; allocations by id, request id, scheduler id and session id); the entities, whose
 * fields only this package can write; {@link org.jdvm.core.state.State#apply}, the only code that
 * changes state; {@link org.jdvm.core.state.Txn}, a command's work in progress; the full invariant
 * check, the canonical digest, and the query views.
 *
 * <p>Invariants (checked by {@link org.jdvm.core.state.StateInvariants}): every node is in exactly
 * one session; slots in use equal the live processes placed; owner sets hold only live namespaces;
 * every live-descendant count is exact; no disposition is overdue; claims belong to open asks. Each
 * change's preconditions are checked as it is applied, always.
 */
package org.jdvm.core.state;
