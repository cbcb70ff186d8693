/**
 * jdvm's Java client (architecture.md §2–§4): a PMIx peer of the DVM in the tool, application and
 * scheduler roles, interchangeable with a C program linked against libpmix.
 *
 * <p>Role: {@link org.jdvm.client.JdvmClient} connects through a {@link org.jdvm.client.Connector}
 * (finding the DVM with {@link org.jdvm.client.Contact}) and offers every operation blocking and as
 * a {@link java.util.concurrent.CompletableFuture}: allocation requests ({@link
 * org.jdvm.client.AllocationRequest}, answered with an {@link org.jdvm.client.AllocationResult}),
 * spawns ({@link org.jdvm.client.SpawnRequest}, a {@link org.jdvm.client.Job} whose {@link
 * org.jdvm.client.JobEnd} it waits for), queries and jdvm's listings, event registration ({@link
 * org.jdvm.client.Registration}) and notification, job control, session control ({@link
 * org.jdvm.client.SessionControlRequest}) and stopping the DVM; a launched process's wire-up
 * ({@link org.jdvm.client.WireUp}: put, commit, fence, get, publish, lookup, connect, log) and a
 * tool's stdin forwarding. Failures are {@link org.jdvm.client.PmixException}s carrying the PMIx
 * status.
 *
 * <p>A tool or scheduler dials the DVM's Unix socket when it has one, a launched process loopback
 * TCP ({@link org.jdvm.client.Contact}). Before a byte is sent, a contact file's DVM is checked to
 * be alive and, over TCP, to own the port it names; then the server must prove it holds the DVM's
 * secret ({@code ContactCheck}, docs/protocol.md "Who the DVM is").
 *
 * <p>Invariants: one connection per client, encoded with the jdvm-pmix codec in the format the
 * client announced (each wire-up body by its codec in {@code org.jdvm.pmix.body}, the one the DVM's
 * endpoint reads it with; {@code WireUpReplies} is what the client makes of their replies) ({@code
 * v41} by default, so inheritance travels as UINT8); a job's output is handed to the {@link
 * org.jdvm.client.OutputHandler} before its end is reported, each line prefixed as the spawn's
 * {@code PMIX_IOF_*} attributes ask, as libpmix prefixes it for a tool ({@code OutputFormat},
 * docs/cli.md "Output"); nothing on the connect path uses reflection or loads more than the codec
 * and this package, because the CLI starts a fresh JVM per command.
 */
package org.jdvm.client;
