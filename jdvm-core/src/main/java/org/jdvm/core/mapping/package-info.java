/**
 * Mapping: where a job's processes go (spec §8.2.1.6).
 *
 * <p>Role: turn a job's apps and its candidate pools into one placement per rank, by slot or by
 * node, at most {@code perNode} on a node and beyond the slots when allowed ({@code NodeFill}).
 *
 * <p>Invariants: a job's candidate nodes are exactly the union of the pools of the sessions it may
 * target, so it never sees a reserved node it does not own (spec §8.2.1.11 #1); a node runs more
 * processes than it has slots only when one of them belongs to a job allowed to oversubscribe
 * ({@code StateInvariants}), and a node without slots runs none; a spawn that does not fit is
 * refused before anything is placed. The mapper is pure: it reads pools and returns placements;
 * applying them is the state's.
 */
package org.jdvm.core.mapping;
