package org.jdvm.server.journal;

import java.util.Locale;

/**
 * When the journal forces what it wrote to the disk (docs/journal.md "Durability"). Every batch is
 * written to the file before its effects run, whatever the policy, so a controller that dies (even
 * by {@code kill -9}) loses nothing: the kernel holds the bytes. The policy only decides what a
 * crash of the host itself may lose.
 */
public enum FsyncPolicy {
  /**
   * fsync before the effects of each controller batch run (group commit: one fsync for every
   * command the controller took from its queue at once). A host crash loses nothing that any client
   * or agent was told.
   */
  ALWAYS,
  /**
   * The default: a background fsync every {@link #INTERVAL_MILLIS} ms while something was written.
   * A host crash loses at most the last interval.
   */
  INTERVAL,
  /** Never fsync (the kernel writes back when it likes): survives a controller crash only. */
  NEVER,
  /**
   * No journal at all: nothing is written or recovered, and a controller crash loses everything, as
   * before there was a journal. For measuring what the journal costs.
   */
  OFF;

  public static final long INTERVAL_MILLIS = 100;

  /** Parses a {@code --fsync} value. */
  public static FsyncPolicy parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--fsync takes interval, always, never or off, not '" + s + "'");
    }
  }
}
