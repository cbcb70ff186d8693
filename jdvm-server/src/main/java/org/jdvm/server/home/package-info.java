/**
 * A DVM's directory (docs/protocol.md "Endpoints and the contact file"): lock, secrets, contact
 * file, socket, log, scratch.
 *
 * <p>Invariants: one DVM per directory; secrets are readable by the DVM's user only; the contact
 * file appears atomically once the DVM answers and disappears when it stops.
 */
package org.jdvm.server.home;
