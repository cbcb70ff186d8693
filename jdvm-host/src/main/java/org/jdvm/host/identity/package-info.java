/**
 * Who a peer is (architecture.md §4, docs/protocol.md "Who a peer is").
 *
 * <p>{@link org.jdvm.host.identity.LoopbackPeers} asks the kernel for the uid and the process
 * behind a loopback TCP connection (libpmix 4.x peers speak only TCP and their credential is
 * self-reported): one {@code sock_diag} look-up of the connection ({@code host.os.SockDiag}), or,
 * where the kernel refuses netlink, its socket tables (said once in the log); its {@code Snapshot}
 * names the users of a burst of new connections, by one look-up each, or from one reading of the
 * tables. {@link org.jdvm.host.identity.Credentials} holds the DVM secret, derives the per-process
 * and scheduler credentials from it, and answers a client's challenge with the proof that this is
 * the DVM (docs/protocol.md "Who the DVM is"). {@link org.jdvm.host.identity.PeerProof} is what a
 * peer connecting to a PMIx listener on this host must prove, from these two: the transport by the
 * kernel's answer (or the DVM secret), a launched process's name by its credential or by the kernel
 * showing its socket held by that process. The controller's endpoint and a node agent's relay both
 * admit peers by it. {@link org.jdvm.host.identity.PeerUsers} names the user of a connection before
 * a byte of it is read, and {@link org.jdvm.host.identity.ConnectionGate} bounds each other user's
 * connections by that name (64 not yet admitted per user, 512 for all other users, 1,024 admitted
 * per user): the endpoint and the relay share both.
 *
 * <p>Invariants: credentials are compared in constant time; a process credential proves one name
 * and no other; naming a connection's owner does not read every socket of the host (unless netlink
 * is refused), and finding the process that holds it does not read every process.
 */
package org.jdvm.host.identity;
