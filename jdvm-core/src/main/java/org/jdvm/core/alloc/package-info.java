/**
 * Allocations: routing, the scheduler conversation, release, lending, cancellation and the timeout
 * warning relay (spec §8.2.1.4–§8.2.1.5, §8.2.1.8, §8.2.1.9.1, §8.2.1.9.5; decisions.md #1–#9).
 *
 * <p>Role: decide NEW and EXTEND by requester class and attributes; hand node selection to the
 * scheduler and turn its answers into allocations; release whole or partial allocations, lend and
 * reacquire nodes, cancel waiting requests; relay the scheduler's timeout warning to the requester.
 * {@link org.jdvm.core.alloc.Ownership} is the owner-set rule (spec §8.2.1.7; decisions.md #10,
 * #15): the only answer to "may this requester act on this allocation or session", which release,
 * extend, reacquire, cancel, session control and spawn targeting all ask.
 *
 * <p>Invariants: nothing is reserved until nodes are granted (an empty reservation is never
 * created); a rejected request reserves nothing and asks nothing; every request is answered once,
 * also when what it waited for disappears; a node named by a request is never taken from another
 * allocation; released scheduler nodes leave the DVM while start-up nodes revert to the default
 * session and the controller's node never leaves; ownership is checked on every form of release.
 */
package org.jdvm.core.alloc;
