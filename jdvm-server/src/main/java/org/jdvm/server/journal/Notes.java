package org.jdvm.server.journal;

/** The kinds of notes the shell journals (docs/journal.md "Notes"). */
public final class Notes {
  private Notes() {}

  /** A timeout warning for the allocation named by the key reached its requester. */
  public static final String WARNED = "warned";

  /** The embedded scheduler's state (key empty), after each of its steps. */
  public static final String EMBEDDED_SCHEDULER = "embedded-scheduler";

  /**
   * The Slurm scheduler port's state (key empty), after each of its steps that changed it: its
   * allocations' Slurm jobs with their nodes and deadlines, the asks waiting in Slurm's queue with
   * their job ids, and the tag its jobs are named with.
   */
  public static final String SLURM_SCHEDULER = "slurm-scheduler";

  /**
   * An answer the embedded or Slurm scheduler gave to the ask named by the key; removed once the
   * core closed that ask, so only answers a restart may have to give again are kept.
   */
  public static final String SCHEDULER_ANSWER = "scheduler-answer";
}
