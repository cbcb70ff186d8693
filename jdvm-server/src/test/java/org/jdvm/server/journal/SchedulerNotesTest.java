package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import org.jdvm.scheduler.SchedulerNotes;
import org.junit.jupiter.api.Test;

/** The scheduler ports write their notes under the kinds the journal's {@link Notes} names. */
class SchedulerNotesTest {
  @Test
  void theSchedulersNoteKindsAreTheJournals() {
    assertThat(SchedulerNotes.EMBEDDED_SCHEDULER).isEqualTo(Notes.EMBEDDED_SCHEDULER);
    assertThat(SchedulerNotes.SLURM_SCHEDULER).isEqualTo(Notes.SLURM_SCHEDULER);
    assertThat(SchedulerNotes.SCHEDULER_ANSWER).isEqualTo(Notes.SCHEDULER_ANSWER);
  }
}
