/**
 * A DVM's directory (docs/protocol.md "Endpoints and the contact file"): lock, secrets, contact
 * file, socket, log, scratch.
 *
 * <p>Invariants: one DVM per directory; the directory is its user's own, {@code 0700}, and not
 * writable by anyone else (else it is refused); nothing in it is opened through a symbolic link;
 * secrets are readable by the DVM's user only; the log is {@code 0600} and bounded, rotating so
 * that the latest lines are always kept; the contact file appears atomically once the DVM answers
 * and disappears when it stops.
 *
 * <p>{@code ToolRendezvous}: the PMIx tool rendezvous files under {@code TMPDIR} (docs/protocol.md
 * "Tool rendezvous"), in owner-only directories checked without following links, each DVM's swept
 * by the next once its lock is free.
 */
package org.jdvm.server.home;
