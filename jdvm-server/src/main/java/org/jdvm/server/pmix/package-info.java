/**
 * The PMIx server endpoint (architecture.md §3–§4, docs/protocol.md, issue 4): the Unix socket and
 * loopback TCP listeners, the connect handshake and who a peer is, the commands a libpmix 4.2.2
 * tool or client sends, translated into the core's requests, and what the DVM addresses to peers
 * (replies, directed events, output, session completion, the operator feed).
 *
 * <p>Role: {@link org.jdvm.server.pmix.PmixEndpoint} is the only public class; it is the {@link
 * org.jdvm.server.shell.PeerGateway} of a {@link org.jdvm.server.Dvm}. Inside, a {@code Connection}
 * per peer reads on one virtual thread and writes from a queue on another; {@code Admission}
 * decides who the peer is; {@code Dispatcher} serves each message, with {@code Translator} (infos
 * to typed requests), {@code QueryAnswers} and {@code Listings} (reads of the core's views), and
 * {@code ClientData} (a launched process's job data); {@code EventRouter} and {@code OutputRouter}
 * decide who hears which event and which output; {@code OutcomeWatcher} follows the DVM's outcomes
 * (who spawned a job, when its processes have pids, the operator feed).
 *
 * <p>Invariants: the controller thread never blocks here, only queues; every request the endpoint
 * submits is answered on its tag, except DEREGEVENTS, which libpmix sends without waiting; a value
 * of the wrong PMIx type is refused with {@code PMIX_ERR_BAD_PARAM} before the core sees it; a peer
 * is refused only by closing its socket (research REPORT.md §3.2); a {@code v41} peer never
 * receives type 75; {@code PMIX_ERR_PARTIAL_SUCCESS} is never sent. The research notes' checklist
 * (REPORT.md §14) is this package's acceptance test for C interoperability.
 */
package org.jdvm.server.pmix;
