/**
 * The controller: the one thread that owns the core (architecture.md §1, house-style.md "The
 * core").
 *
 * <p>Role: take commands and read-only queries from a queue, in arrival order; hand each command to
 * {@code Core.handle} with the DVM's monotonic time; dispatch the outcome's effects in order
 * through an {@link org.jdvm.server.controller.EffectSink}, each outcome written to the {@link
 * org.jdvm.server.controller.Controller.Journal} first and committed before its effects run (the
 * commands waiting in the queue may share one commit); fire {@code Report.Tick} at the core's next
 * deadline; log one {@code key=value} line per command ({@link
 * org.jdvm.server.controller.CommandLog}).
 *
 * <p>Invariants: no other thread touches the core, so no lock guards it. One table, {@link
 * org.jdvm.server.controller.Failure}, decides every failure: a command the core failed on before
 * changing anything is refused with a status and the DVM goes on, so input never stops it; a broken
 * core invariant after changes, or an {@code Error} (out of memory, ...), stops the DVM visibly
 * (fail loudly, never limp on). The thread never dies silently; after a stop every submitter is
 * answered. A request the journal might not be able to write (short of space) is refused {@code
 * PMIX_ERR_OUT_OF_RESOURCE} before the core sees it; a journal that cannot be written for any other
 * reason stops the DVM before any effect of the command runs (docs/journal.md "A full disk").
 */
package org.jdvm.server.controller;
