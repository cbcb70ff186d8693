package org.jdvm.scheduler;

import java.util.List;
import org.jdvm.core.journal.Entry;

/**
 * Where a scheduler port journals its state and its answers, as notes (docs/journal.md "Notes"):
 * the controller's journal. A port writes after each of its steps, before the step's events leave.
 */
public interface SchedulerJournal {
  /** Journals {@code notes} now, in a batch of their own. */
  void notes(List<Entry.Note> notes);

  /**
   * Journals {@code notes} with the journal's next write: for a step whose events go to the
   * controller right after, which journals what it does with them.
   */
  void notesWithNextWrite(List<Entry.Note> notes);

  /** Whether the journal is closed (the DVM stops): nothing more is recorded. */
  boolean isClosed();
}
