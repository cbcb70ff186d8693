/**
 * Lifecycle: how namespaces and reservations end (spec §8.2.1.9; decisions.md #7, #11, #12, #14).
 *
 * <p>Role: namespace termination and its cascade (dispositions, the CHILD drain, session
 * completion, job-end events), the end of an allocation (release, unreserve, reclaim), nodes
 * leaving the DVM, tool departure, DVM teardown, and the retention bound on terminated jobs.
 *
 * <p>Invariants: a reservation ends only on an owner's release, DVM teardown, a scheduler
 * termination, or the disposition recorded at its creation (spec §8.2.1.11 #4); nodes return to the
 * scheduler only under NONE/CHILD, an explicit release, a reclaim or teardown (spec §8.2.1.11 #5);
 * ending a reservation never kills a process by itself, only departing nodes do (spec §8.2.1.9.4);
 * a termination costs O(depth) thanks to the live-descendant counts; the cascade is a bounded
 * worklist, never a recursion over jobs.
 */
package org.jdvm.core.lifecycle;
