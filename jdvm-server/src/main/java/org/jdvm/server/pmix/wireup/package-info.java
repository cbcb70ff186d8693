/**
 * Wire-up state that is not reservation semantics (docs/wireup.md §c): what the endpoint keeps for
 * the processes of running jobs to find each other, beside the core rather than in it. {@link
 * org.jdvm.server.pmix.wireup.PublishedData} holds published data (PUBLISHNB, LOOKUPNB,
 * UNPUBLISHNB: ranges, persistence, waiting lookups); {@link org.jdvm.server.pmix.wireup.Connects}
 * counts connect and disconnect collectives across namespaces; {@link
 * org.jdvm.server.pmix.wireup.Endings} turns the DVM's changes and closed connections into the ends
 * they care about.
 *
 * <p>Layering (enforced by {@code EndpointLayeringTest}): imports none of the endpoint's packages
 * (only the PMIx model and the core's changes); {@code serve}, {@code upstream} and the face use
 * it. Nothing here touches a socket, keeps a clock or starts a thread: waits end by the caller's
 * timer ({@code expire}), answers are callbacks run after the lock is released.
 *
 * <p>Invariants: everything an outside peer can make it hold is bounded, and a refusal changes
 * nothing; every parked lookup and every entered collective member is answered exactly once, or
 * dropped unanswered only when its connection or process is gone. The state is per DVM and counts
 * per process, so a node agent can keep the same classes for its own processes and forward one
 * aggregate upward (see {@link org.jdvm.server.pmix.wireup.Connects}).
 */
package org.jdvm.server.pmix.wireup;
