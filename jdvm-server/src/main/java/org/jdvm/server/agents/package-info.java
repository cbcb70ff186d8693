/**
 * The controller's side of node agents on other hosts (architecture.md §5): a DVM across hosts. The
 * agent program itself is jdvm-agent.
 *
 * <p>{@link org.jdvm.agent.AgentDaemon} is {@code jdvm agent}, one per host: it joins the
 * controller over an agent link ({@link org.jdvm.agent.link.Link}: {@link
 * org.jdvm.agent.link.LinkMessage}s framed by {@link org.jdvm.agent.link.LinkCodec};
 * docs/protocol.md "Agent link"), proving with {@link org.jdvm.agent.link.Handshake} that it holds
 * the DVM's secret, and runs the controller's processes through the same {@code
 * host.LocalNodeAgent} a virtual node uses. On the controller, {@link
 * org.jdvm.server.agents.AgentHub} accepts agents and watches their heartbeats ({@link
 * org.jdvm.server.agents.NodeState}); {@link org.jdvm.server.agents.HelloSlots} bounds the
 * connections that have not proved the secret yet (32 per local user or source address, 256 in all,
 * the oldest closed to make room: docs/protocol.md "Agent link"); each node is a {@link
 * org.jdvm.server.agents.RemoteNodeAgent}, the {@code host.NodeAgent} whose calls become link
 * messages, and whose output the controller credits back to the agent only while its readers keep
 * up ({@link org.jdvm.server.agents.OutputCredits}: docs/ARCHITECTURE.md "Output back-pressure").
 * {@link org.jdvm.server.agents.HostStart} starts the agents of a host list ({@link
 * org.jdvm.server.agents.HostList}) through an {@link org.jdvm.server.agents.AgentStarter} — ssh
 * ({@link org.jdvm.server.agents.SshAgentStarter}, quoting with {@link
 * org.jdvm.server.agents.ShellQuote}) or srun ({@link org.jdvm.server.agents.SrunAgentStarter}: in
 * the allocation {@code jdvm start} runs in, or in the job a scheduler port granted a node in,
 * asking the port only {@code jobOf(node)}); {@link org.jdvm.server.agents.ListenAddress} picks the
 * address agents connect back to when this host's name is loopback. The link carries the PMIx
 * frames of the agent's local processes for the relay ({@link org.jdvm.agent.link.RelayChannel});
 * each side's {@link org.jdvm.agent.link.RelayPort} stays the same while links come and go. {@link
 * org.jdvm.agent.AgentRelay} is {@code jdvm agent}'s relay hook: it opens the agent's relay and
 * points each launch at it, and makes and removes job directories on the agent's host; {@link
 * org.jdvm.server.agents.AgentRelays} serves every agent's relay at the controller. {@link
 * org.jdvm.agent.SimulatedAgent} is an agent without processes, for the scale benchmark. {@link
 * org.jdvm.server.agents.LocalAgentStarter} starts the local agents an embedded DVM's virtual nodes
 * live in ({@code jdvm start --node-agents}: children of the controller that end with it), and
 * {@link org.jdvm.server.agents.LocalAgentPids} ({@code DIR/local-agents}) records their pids for
 * {@code jdvm stop}. {@link org.jdvm.server.agents.AgentRoster} ({@code DIR/agents}) records where
 * the agents connect back and which nodes run one (the start-up pool's, and those a scheduler
 * granted later with an srun agent), so that a controller restarted after a crash listens there
 * ({@link org.jdvm.server.agents.AgentHub#openRejoining}) and takes them back with what they still
 * run ({@link org.jdvm.server.agents.AgentHub#rejoin}; docs/journal.md "Agents that outlive the
 * controller").
 *
 * <p>{@link org.jdvm.agent.link.RelayChannel} carries the PMIx frames of an agent's local peers,
 * each tagged by a connection id the agent chose. On the agent, {@link
 * org.jdvm.agent.relay.PmixRelay} is the PMIx server of the processes it launches: it does their
 * handshake, authenticates them on its host ({@code LocalAdmission}, the endpoint's rules), vouches
 * for them with a {@link org.jdvm.agent.relay.PeerIdentity}, carries their frames and answers
 * repeated job-data requests itself ({@code JobDataCache}), gets of its node's committed data
 * ({@code LocalModex}), and enters each fence once for its node's participants ({@code
 * FenceAggregator}). On the controller, {@link org.jdvm.server.agents.RelayHost} hands an agent's
 * peers to the endpoint ({@code endpoint.RelayedPeers}), which admits only processes placed on that
 * agent's node.
 *
 * <p>Layering: uses the endpoint's face ({@code org.jdvm.endpoint}), never its inner packages; the
 * endpoint never uses this package (jdvm-endpoint may not import jdvm-server:
 * house.ModuleImportsTest).
 *
 * <p>Invariants: the secret never crosses the network, a command line or an environment; every
 * message is bounded ({@link org.jdvm.agent.link.LinkCodec#MAX_MESSAGE_BYTES}) and a malformed one
 * closes its link; a node is declared down only after the configured silence, counted while the
 * controller itself was running; a node declared down never joins again, and its agent then ends
 * what it runs; an agent never outlives its DVM (goodbye, refusal, or its controller unreachable
 * past the reconnect time all end its processes); an exit an agent saw while it had no link reaches
 * the controller once, in its next hello; a restarted controller waits a bounded time for its
 * agents; nothing from a host list reaches a shell unquoted. Relay: a peer's frames reach the
 * controller only after the controller answered its handshake; what one peer can make either side
 * hold is bounded (peers, frame size, bytes queued each way, cached job data); a refused peer's
 * socket is closed, the only refusal libpmix notices.
 */
package org.jdvm.server.agents;
