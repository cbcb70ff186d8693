/**
 * The agent link (docs/protocol.md "Agent link"), shared by both ends: {@link
 * org.jdvm.agent.link.Link} carries {@link org.jdvm.agent.link.LinkMessage}s, each framed as a
 * length and a kind by {@link org.jdvm.agent.link.LinkCodec}, its body the message's record in
 * jdvm-pmix's record codec (required layout: no nulls, bounded counts); {@link
 * org.jdvm.agent.link.Handshake} is the mutual HMAC proof before anything else; {@link
 * org.jdvm.agent.link.RelayChannel} and {@link org.jdvm.agent.link.RelayPort} carry the PMIx frames
 * of an agent's local peers, the port staying the same while links come and go. The controller's
 * side is jdvm-server's {@code org.jdvm.server.agents}.
 *
 * <p>Invariants: values cross, never Java names or ordinals; a change to a message's record is a
 * change of {@code LinkMessage.VERSION}; a peer that has not proved the secret cannot make the
 * other side read more than {@code LinkCodec.MAX_HANDSHAKE_BYTES}.
 */
package org.jdvm.agent.link;
