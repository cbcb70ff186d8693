package org.jdvm.server.journal;

/** The kinds of notes the shell journals (docs/journal.md "Notes"). */
public final class Notes {
  private Notes() {}

  /** A timeout warning for the allocation named by the key reached its requester. */
  public static final String WARNED = "warned";

  /** The embedded scheduler's whole state (key empty), after each of its steps. */
  public static final String EMBEDDED_SCHEDULER = "embedded-scheduler";
}
