/**
 * Queries the shell serves (decisions.md #9): read-only views of nodes, allocations, pending
 * requests and jobs, the allocation status ({@code PMIX_QUERY_ALLOC_STATUS}), what a launched
 * process learns at init, and {@code jdvm explain}'s {@link org.jdvm.core.query.Explanation} (from
 * the spawn rule, through {@link org.jdvm.core.query.Explainer}) with the remembered ended
 * allocations and node fates.
 *
 * <p>Invariants: views are live and never copy the state; the state's entities implement them, so a
 * lookup is a hash lookup and a listing is a view of a table. Read them on the controller thread.
 */
package org.jdvm.core.query;
