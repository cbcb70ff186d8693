/**
 * Framing and the connect handshake (pmix-wire.md §9): how bodies travel between peers.
 *
 * <p>Role: {@link org.jdvm.pmix.frame.FrameHeader} is the 16-byte header of every message (pindex,
 * tag, nbytes, padding; big-endian, except the connect message's host-order header); {@link
 * org.jdvm.pmix.frame.Tags} and {@link org.jdvm.pmix.frame.TagSequence} name and hand out tags;
 * {@link org.jdvm.pmix.frame.ConnectRequest} is the connect message in both directions (the server
 * decodes it, the Java client encodes it) and {@link org.jdvm.pmix.frame.ClientConnectReply} and
 * {@link org.jdvm.pmix.frame.ToolConnectReply} the server's answers; {@link
 * org.jdvm.pmix.frame.Commands} names the command that starts every request body.
 *
 * <p>Invariants: a header's body length is checked against the limit (32 MiB, 128 KiB for a connect
 * payload) before anything is buffered; every malformed header or handshake is a {@link
 * org.jdvm.pmix.codec.WireException} that poisons the connection; the captured libpmix 4.2.2
 * handshake bytes decode and re-encode exactly, including 4.2.2's trailing 0x00. No I/O: callers
 * read and write the sockets and hand these classes byte arrays.
 */
package org.jdvm.pmix.frame;
