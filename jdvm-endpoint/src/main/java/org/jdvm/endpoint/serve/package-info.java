/**
 * The serving half of the PMIx endpoint (docs/protocol.md "How jdvm reads the standard commands"):
 * {@link org.jdvm.endpoint.serve.OperationTable} maps each PMIx command to the {@link
 * org.jdvm.endpoint.serve.Operation} that serves it and the shape of its error reply; {@link
 * org.jdvm.endpoint.serve.Exchange} is one request's plumbing (read the body, submit to the DVM,
 * read a view, pack the reply in the peer's format on its tag); one file per operation family reads
 * and answers its commands: {@link org.jdvm.endpoint.serve.AllocationOps} (allocation, session
 * control), {@link org.jdvm.endpoint.serve.JobOps} (spawn, with its placement and binding
 * directives checked and folded into each app by {@code SpawnPlacement} and its environment
 * directives checked and put in each app's info by {@link org.jdvm.endpoint.serve.EnvDirectives},
 * job control with cleanup registrations, abort), {@link org.jdvm.endpoint.serve.QueryOps} (query,
 * job data, get), {@link org.jdvm.endpoint.serve.EventOps} (events, I/O forwarding, stdin pushes),
 * {@link org.jdvm.endpoint.serve.WireupOps} (commit, fence), {@link
 * org.jdvm.endpoint.serve.DataOps} (publish, lookup, unpublish), {@link
 * org.jdvm.endpoint.serve.ConnectOps} (connect, disconnect), {@link org.jdvm.endpoint.serve.LogOps}
 * (log), {@link org.jdvm.endpoint.serve.PeerOps} (finalize, stop) and {@link
 * org.jdvm.endpoint.serve.Admission} (the handshake and identity, and the peers a node agent
 * vouches for). {@link org.jdvm.endpoint.serve.MessageServer} is the transport's handler that runs
 * them. Bodies are read and written by their codecs in {@code org.jdvm.pmix.body}, the ones the
 * node agent's relay and the Java client use too; {@link org.jdvm.endpoint.serve.RequestChecks} is
 * what the endpoint checks as a body is read (its limits, the keys a request may name, what a
 * commit may carry).
 *
 * <p>The seam: everything the serving half needs from the DVM goes through {@link
 * org.jdvm.endpoint.serve.Upstream}, so the same operations run in the controller (against the
 * core). A node agent does not run them: its relay carries its processes' frames here as carried
 * connections and answers at the frame level what it holds (docs/protocol.md "Node agents").
 *
 * <p>Layering (enforced by {@code EndpointLayeringTest}): imports {@code transport}, {@code
 * deliver} and {@code wireup} (the modex's value types, the published data and collectives it reads
 * requests into), never {@code upstream} or the endpoint's face.
 *
 * <p>Invariants: a value of the wrong PMIx type is refused {@code PMIX_ERR_BAD_PARAM} before the
 * DVM sees anything; a request past an {@link org.jdvm.endpoint.serve.EndpointLimits} limit is
 * refused {@code PMIX_ERR_OUT_OF_RESOURCE} and submits nothing; every request is answered on its
 * tag, in its operation's error shape when refused, except DEREGEVENTS, which libpmix does not wait
 * for; a command without a row is {@code PMIX_ERR_NOT_SUPPORTED} at once; a wait (a fence, a get
 * waiting for a commit, a lookup, a connect) ends by its answer, its {@code pmix.timeout} or its
 * connection's end, and counts against its connection's waiting requests; {@code
 * PMIX_ERR_PARTIAL_SUCCESS} is sent only to the members of a fence, connect or disconnect that lost
 * one, as libpmix's server does; a peer is refused only by closing its socket, the only refusal
 * libpmix 4.2.2 notices.
 */
package org.jdvm.endpoint.serve;
