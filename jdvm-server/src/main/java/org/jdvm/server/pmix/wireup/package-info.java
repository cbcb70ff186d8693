/**
 * The wire-up state of jobs' processes (docs/wireup.md §c.1–§c.3, §c.11), which is not reservation
 * semantics and so lives beside the endpoint, not in the core: {@link
 * org.jdvm.server.pmix.wireup.ModexStore} keeps what each rank committed, per scope, and answers
 * gets of it (waiting for a commit within a time limit); {@link org.jdvm.server.pmix.wireup.Fences}
 * runs the open fences, one collective per {@link org.jdvm.server.pmix.wireup.FenceSet}.
 *
 * <p>Layering (enforced by {@code EndpointLayeringTest}): imports none of the endpoint's packages;
 * {@code serve} and {@code upstream} use it. It knows processes and values, not connections: each
 * answer is a callback, given exactly once.
 *
 * <p>Invariants: a refusal changes nothing; a rank holds at most its byte bound; a namespace has at
 * most its bound of open fences; every fence entrant and every get is answered exactly once
 * (completion, a participant's end, a time limit, or its job's end); answers are given outside the
 * locks, on whatever thread caused them (a connection's reader, the controller thread, the timer),
 * so they may only pack and queue.
 *
 * <p>Cost: a commit is O(keys); a get O(visible keys); a fence entry O(log n) in its named
 * processes; a fence of n processes answers n entrants. With Open MPI 4.1 each of N ranks commits
 * about 4.3 KiB and, after the first fence, asks each peer once (N·(N−1) gets, each answered with
 * the peer's whole visible blob: under 100 B from another node, about 4.2 KiB from the same node).
 *
 * <p>Towards node agents: a node agent hosting the endpoint for its own processes would keep its
 * local ranks' data here and answer same-node gets locally; for another node's rank it would fetch
 * the REMOTE blob once per node and target, not once per asking rank (M·N blobs across M nodes);
 * and it would count its local fence entrants and enter the controller's fence once for all of
 * them, so the controller (or a tree) counts nodes, not processes.
 */
package org.jdvm.server.pmix.wireup;
