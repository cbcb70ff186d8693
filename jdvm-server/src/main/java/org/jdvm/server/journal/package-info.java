/**
 * The journal's files (docs/journal.md): the controller's write-ahead {@link
 * org.jdvm.server.journal.Journal} in {@code DIR/journal/}, its fsync policy, background snapshots,
 * the recovery read at start ({@link org.jdvm.server.journal.RecoveredJournal}) and what the DVM
 * does with it before its controller runs ({@link org.jdvm.server.journal.Recovering}), including
 * the inventory of the agents that rejoined ({@link
 * org.jdvm.server.journal.Recovering.AgentInventory}).
 *
 * <p>Invariants: a batch is in the file before any of its effects runs, and a note waiting for the
 * next write (an embedded-scheduler step whose events go to the controller) before the effects of
 * any command the controller takes after it was noted; a snapshot is in place (forced, renamed,
 * directory forced) before the files it replaces are removed, and the two newest snapshots with
 * every segment since the older one are kept; a torn tail is cut and a corrupt snapshot set aside,
 * each with an ERROR line, while a damaged record elsewhere stops the start unless {@code
 * --discard-journal-after} says what to give up; short of space ({@link
 * org.jdvm.server.journal.JournalSpace}) requests that start or grow something are refused before
 * the core sees them, a write that finds no space is cut back and goes into the reserve or waits
 * for space, and any other failed write stops the DVM.
 */
package org.jdvm.server.journal;
