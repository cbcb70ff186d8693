/**
 * The PMIx relay on an agent's host (docs/protocol.md "Node agents"): {@link
 * org.jdvm.agent.relay.PmixRelay} listens for the host's launched processes, admits each by
 * jdvm-host's {@code identity.PeerProof} (the rule the controller's endpoint admits by; {@link
 * org.jdvm.agent.relay.LocalAdmission} keeps only the relay's role decisions), tells the controller
 * who it vouches for ({@link org.jdvm.agent.relay.PeerIdentity}) and carries their frames ({@link
 * org.jdvm.agent.relay.RelayedSocket}). It answers alone what it can: repeated job-data requests
 * ({@link org.jdvm.agent.relay.JobDataCache}), gets of its node's committed data ({@link
 * org.jdvm.agent.relay.LocalModex}), gets of other ranks' data an earlier get brought ({@link
 * org.jdvm.agent.relay.GetCache}) and one fence entry per node for its local participants ({@link
 * org.jdvm.agent.relay.FenceAggregator}), reading those bodies with jdvm-pmix's {@code body}
 * codecs, the ones the endpoint uses. Beside it, on the same link, {@link
 * org.jdvm.agent.relay.PmiRelay} serves simple PMI to the host's MPICH-family ranks
 * (docs/protocol.md "Simple PMI"): it proves them, carries their lines and gathers each barrier
 * once per node.
 */
package org.jdvm.agent.relay;
