/**
 * What the DVM addresses to peers, and who hears it (spec §8.2.1.9.5; docs/protocol.md "How jdvm
 * reads the standard commands"): {@link org.jdvm.endpoint.deliver.EventRouter} routes directed
 * events, peers' events by their range, session completion and the operator feed, and keeps what
 * each connection registered; {@link org.jdvm.endpoint.deliver.OutputRouter} forwards processes'
 * output (and what they log) to their spawner and to IOF pulls; {@link
 * org.jdvm.endpoint.deliver.OutcomeWatcher} follows the DVM's outcomes (who spawned a job, when its
 * processes have pids, the feed), and gives a job an application spawned without asking for its
 * output its parent job's forwarding, holding the end of the tool's job until such children ended;
 * {@link org.jdvm.endpoint.deliver.ChangeFeed} renders a change for the feed. The router cuts each
 * job's output at newlines per rank ({@link org.jdvm.endpoint.deliver.LineCutter}) and writes the
 * files a spawn asked for ({@link org.jdvm.endpoint.deliver.OutputFiles}; docs/cli.md "Output"),
 * and keeps every job's cut output, bounded, for {@code jdvm output} ({@link
 * org.jdvm.endpoint.deliver.OutputStore}; docs/cli.md "jdvm output").
 *
 * <p>Layering (enforced by {@code EndpointLayeringTest}): imports only {@code transport} of the
 * endpoint's packages. It decodes no requests; the serving half calls it.
 *
 * <p>Invariants: called on the controller thread (output: on an agent's reader), it only packs and
 * queues, never blocks, but for a job's output files, written as they come (a slow disk paces the
 * job as a slow reader does); no receiver sees a rank's bytes inside another rank's line (but for
 * lines past 64 KiB, and {@code PMIX_IOF_OUTPUT_RAW}); a directed event reaches only connections
 * acting for its target; an event marked {@code PMIX_EVENT_NON_DEFAULT} (a job's end) never reaches
 * a connection through its default handler alone (docs/wireup.md "Dynamic processes"); a {@code
 * v41} peer never receives type 75; each output chunk reaches each (connection, id) once; a job's
 * output is paced by its slowest receiving connection ({@code holdOutput}: the host stops reading
 * its pipes), never dropped for being slow; what a job logs is bounded by its {@link
 * org.jdvm.endpoint.deliver.LogBudget}, and text nobody receives goes to the peers' logger ({@link
 * org.jdvm.endpoint.deliver.OutputRouter#PEER_LOGGER}), apart from the DVM's own lines.
 */
package org.jdvm.endpoint.deliver;
