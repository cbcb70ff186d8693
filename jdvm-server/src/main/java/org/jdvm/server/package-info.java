/**
 * One running DVM on this host (architecture.md §1, §5): the {@link org.jdvm.server.Dvm} and its
 * {@link org.jdvm.server.DvmConfig} — the core owned by the controller thread ({@code controller}),
 * the shell executing its effects ({@code shell}), an agent per node running real processes
 * (jdvm-host's process host; on other hosts, {@code jdvm agent}s joined through {@code agents}),
 * the scheduler port (jdvm-scheduler) and the journal ({@code journal}).
 *
 * <p>{@code assembly.DvmServer} is what {@code jdvm start} runs around it: the DVM's directory
 * ({@code home}), the PMIx endpoint in front (jdvm-endpoint, its backend {@code upstream}), and the
 * agents on other hosts.
 *
 * <p>Invariants: only the controller thread touches the core; every other thread submits commands
 * or read-only queries and executes effects. Start order is directory, endpoint, DVM, serve,
 * publish (a DVM across hosts starts its agents and waits for all to join before the DVM); stop
 * order is the reverse, with the DVM's teardown (spec §8.2.1.9.1 trigger 2) first. Every change is
 * journaled in {@code DIR/journal/} before its effects run ({@code journal}); a start on a
 * directory whose DVM died recovers from it before its controller runs, and a clean stop removes it
 * (docs/journal.md). Any throwable no DVM thread can go on after (the controller's, a connection
 * reader's, a listener's, or an uncaught one in {@code jdvm start}) stops the DVM the same way at
 * once ({@code DvmServer#fail}): every job ended, the contact file removed, the reason as the log's
 * last lines, exit status 1 — never a process that stays up and serves nobody.
 */
package org.jdvm.server;
