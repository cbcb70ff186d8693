/**
 * The PMIx endpoint's transport: one {@link org.jdvm.endpoint.transport.Connection} per peer,
 * frames in and out (bodies read in chunks as their bytes arrive), a bounded write queue behind
 * sends that skip it when it is empty ({@link org.jdvm.endpoint.transport.SocketFd}), the handshake
 * deadline, close; {@link org.jdvm.endpoint.transport.Peer}, who an admitted connection acts for;
 * and {@link org.jdvm.host.identity.ConnectionGate} (jdvm-host), how many connections each local
 * user other than the DVM's owner may hold. A connection is read from its socket, or carried: a
 * node agent holds the socket and did the handshake, and its frames are handed in ({@link
 * org.jdvm.endpoint.transport.Connection#carried}).
 *
 * <p>Layering (enforced by {@code EndpointLayeringTest}): this package imports nothing from {@code
 * deliver}, {@code serve}, {@code upstream} or the endpoint's face. It holds no event, subscription
 * or request state: what a message means is its {@link
 * org.jdvm.endpoint.transport.Connection.Handler}'s business.
 *
 * <p>Invariants: a connection's bytes go out in the order they were sent: a producer (the
 * controller thread above all) sends a message itself only with a {@code send(2)} that cannot block
 * and only while nothing waits in the connection's queue, and the rest is written by the
 * connection's writer in queue order; no producer ever waits for a peer; nothing is sent on a
 * closed connection's descriptor; a closed connection queues nothing; the handler hears of a close
 * exactly once; a connection's place in its user's counts is released exactly once, when it closes;
 * what a stalled peer makes the DVM hold is bounded by what it sent, not by what it announced;
 * output is counted apart from replies and events and never cuts a peer off below 64 MiB: past 4
 * MiB unwritten its producers are told to pause ({@link
 * org.jdvm.endpoint.transport.Connection#holdOutput}) and each is resumed once, under 1 MiB or at
 * the close; an {@link java.lang.Error} on a reader is reported to the connection's {@code Fatal}
 * hook.
 */
package org.jdvm.endpoint.transport;
