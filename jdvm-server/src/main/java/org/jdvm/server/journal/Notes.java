package org.jdvm.server.journal;

/**
 * The kinds of notes the shell journals (docs/journal.md "Notes"). The scheduler ports' own kinds
 * (their state after each step, and their answers) are theirs: jdvm-scheduler's {@code
 * org.jdvm.scheduler.SchedulerNotes}.
 */
public final class Notes {
  private Notes() {}

  /** A timeout warning for the allocation named by the key reached its requester. */
  public static final String WARNED = "warned";
}
