/**
 * Wire-up state that is not reservation semantics (docs/wireup.md §c), kept beside the endpoint
 * rather than in the core: what the processes of running jobs keep for each other to find. {@link
 * org.jdvm.endpoint.wireup.ModexStore} keeps what each rank committed, per scope, and answers gets
 * of it (waiting for a commit within a time limit); {@link org.jdvm.endpoint.wireup.Fences} runs
 * the open fences, one collective per {@link org.jdvm.endpoint.wireup.FenceSet}; {@link
 * org.jdvm.endpoint.wireup.PublishedData} holds published data (PUBLISHNB, LOOKUPNB, UNPUBLISHNB:
 * ranges, persistence, waiting lookups); {@link org.jdvm.endpoint.wireup.Connects} counts connect
 * and disconnect collectives across namespaces; {@link org.jdvm.endpoint.wireup.Endings} turns the
 * DVM's changes and closed connections into the ends they care about.
 *
 * <p>Layering (enforced by {@code EndpointLayeringTest}): imports none of the endpoint's packages
 * (only the PMIx model and the core's changes); {@code serve}, {@code upstream} and the face use
 * it. Nothing here touches a socket, keeps a clock or starts a thread: waits end by the caller's
 * timer, answers are callbacks given exactly once, outside the locks, on whatever thread caused
 * them (a connection's reader, the controller thread, the timer), so they may only pack and queue.
 *
 * <p>Invariants: everything an outside peer can make it hold is bounded (a rank's committed bytes,
 * open fences per namespace, published entries and waiting lookups), what all jobs share (the
 * published data) per job as well as in total ({@link org.jdvm.endpoint.wireup.PublishShares}), and
 * a refusal changes nothing; every fence entrant, get, parked lookup and collective member is
 * answered exactly once (completion, a participant's end, a time limit, or its job's end), or
 * dropped unanswered only when its connection or process is gone.
 *
 * <p>Cost: a commit is O(keys); a get O(visible keys); a fence entry O(log n) in its named
 * processes; a fence of n processes answers n entrants. With Open MPI 4.1 each of N ranks commits
 * about 4.3 KiB and, after the first fence, asks each peer once (N·(N−1) gets, each answered with
 * the peer's whole visible blob: under 100 B from another node, about 4.2 KiB from the same node).
 *
 * <p>Node agents (docs/protocol.md "Node agents"): a relay gathers its node's fence entrants and
 * enters the controller's fence once for all of them ({@code jdvm.fence.for}), so the controller
 * reads one message per node; {@link org.jdvm.endpoint.wireup.Fences} still records each process's
 * entry; and it keeps a copy of what its node's processes committed to answer same-node gets there.
 * Not yet: fetching another node's REMOTE blob once per node and target (M·N blobs across M nodes,
 * not N·N), and gathering connect entrants the same way.
 */
package org.jdvm.endpoint.wireup;
