/**
 * The PMIx server endpoint (architecture.md §3–§4, docs/protocol.md): the Unix socket and loopback
 * TCP listeners, and the face that assembles the endpoint's parts. {@link
 * org.jdvm.endpoint.PmixEndpoint} is the {@link org.jdvm.endpoint.PeerGateway} of the DVM behind
 * it; its only way in to that DVM is the {@link org.jdvm.endpoint.Backend} (an {@link
 * org.jdvm.endpoint.serve.Upstream} that also hears jobs' lives and replies), which the assembly
 * (jdvm-server's {@code ControllerUpstream}) builds from the endpoint's parts.
 *
 * <pre>
 *   transport   frames in and out, write queue, close           imports none of the others
 *   deliver     events, subscriptions, output, outcomes, feed   imports transport
 *   wireup      modex, fences, published data, connects          imports none of the others
 *   serve       operation table, Exchange, one file per family  imports transport, deliver, wireup
 *   (this)      listeners; builds the parts and passes them to constructors; sees all
 * </pre>
 *
 * <p>{@link org.jdvm.endpoint.RelayedPeers} serves the peers a node agent admitted on its host and
 * carries over its link (docs/protocol.md "Node agents"), as carried connections.
 *
 * <p>No class reaches into another's fields: parts are passed to constructors by the face. {@code
 * EndpointLayeringTest} enforces the import rule above.
 *
 * <p>Invariants: the controller thread never blocks here, only queues; every request the endpoint
 * submits is answered on its tag (but for the one-way commands); a {@code v41} peer never receives
 * type 75.
 */
package org.jdvm.endpoint;
