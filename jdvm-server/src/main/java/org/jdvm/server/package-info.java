/**
 * The shell around the core (architecture.md §1, §5): a running DVM on this host.
 *
 * <p>{@link org.jdvm.server.DvmServer} is what {@code jdvm start} runs: the DVM's directory, the
 * PMIx endpoint in front ({@code org.jdvm.server.pmix}), and the {@link org.jdvm.server.Dvm} behind
 * it — the core owned by the controller thread ({@code controller}), the shell executing its
 * effects ({@code shell}), an agent per node running real processes ({@code node}; on other hosts,
 * {@code jdvm agent}s joined through {@code remote}), and the scheduler port ({@code scheduler}).
 * Identity and secrets are in {@code identity} and {@code home}.
 *
 * <p>Invariants: only the controller thread touches the core; every other thread submits commands
 * or read-only queries and executes effects. Start order is directory, endpoint, DVM, serve,
 * publish (a DVM across hosts starts its agents and waits for all to join before the DVM); stop
 * order is the reverse, with the DVM's teardown (spec §8.2.1.9.1 trigger 2) first. Every change is
 * journaled in {@code DIR/journal/} before its effects run ({@code journal}); a start on a
 * directory whose DVM died recovers from it before its controller runs, and a clean stop removes it
 * (docs/journal.md). Any throwable no DVM thread can go on after (the controller's, a connection
 * reader's, a listener's, or an uncaught one in {@code jdvm start}) stops the DVM the same way at
 * once ({@link org.jdvm.server.DvmServer#fail}): every job ended, the contact file removed, the
 * reason as the log's last lines, exit status 1 — never a process that stays up and serves nobody.
 */
package org.jdvm.server;
