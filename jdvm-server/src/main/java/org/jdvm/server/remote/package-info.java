/**
 * Nodes on other hosts (architecture.md §5, docs/protocol.md "Node agents"): what runs between a
 * node agent and the controller.
 *
 * <p>{@link org.jdvm.server.remote.RelayChannel} carries the PMIx frames of an agent's local peers,
 * each tagged by a connection id the agent chose. On the agent, {@link
 * org.jdvm.server.remote.PmixRelay} is the PMIx server of the processes it launches: it does their
 * handshake, authenticates them on its host ({@code LocalAdmission}, the endpoint's rules), vouches
 * for them with a {@link org.jdvm.server.remote.PeerIdentity}, carries their frames and answers
 * repeated job-data requests itself ({@code JobDataCache}), gets of its node's committed data
 * ({@code LocalModex}), and enters each fence once for its node's participants ({@code
 * FenceAggregator}). On the controller, {@link org.jdvm.server.remote.RelayHost} hands an agent's
 * peers to the endpoint ({@code pmix.RelayedPeers}), which admits only processes placed on that
 * agent's node.
 *
 * <p>Layering: uses the endpoint's face ({@code org.jdvm.server.pmix}), never its inner packages;
 * the endpoint never uses this package ({@code EndpointLayeringTest}).
 *
 * <p>Invariants: a peer's frames reach the controller only after the controller answered its
 * handshake; what one peer can make either side hold is bounded (peers, frame size, bytes queued
 * each way, cached job data); a refused peer's socket is closed, the only refusal libpmix notices.
 */
package org.jdvm.server.remote;
