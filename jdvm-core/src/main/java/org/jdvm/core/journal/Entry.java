package org.jdvm.core.journal;

import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;

/**
 * One record of the journal (docs/journal.md). A segment starts with a {@link Header}; each
 * controller batch that changed something is a {@link Batch}, written before its effects are
 * executed; {@link Dispatched} says the effects of every batch up to {@code seq} were executed, so
 * recovery re-executes only the effects of the batches after it.
 */
public sealed interface Entry {

  /**
   * The first record of every segment.
   *
   * @param vocabulary the {@link JournalCodec#VOCABULARY} of the build that wrote it
   * @param firstSeq the sequence number of the segment's first batch
   */
  record Header(int vocabulary, CoreConfig config, long firstSeq) implements Entry {}

  /**
   * What one controller command did: its changes (replayed through the one mutator on recovery) and
   * its effects (re-executed if no {@link Dispatched} follows) — only those {@link #kept}: replies
   * and process notifications go to connections that die with the controller, so a recovery never
   * executes them again and the batch does not carry them.
   *
   * @param nowNs the DVM time the command was handled at
   * @param wallMillis the wall clock then, so recovery can carry DVM time across the outage
   * @param lastRequestId the highest request id the controller had seen, so the recovered DVM mints
   *     above it and no late reply reaches a stranger
   * @param notes facts of the shell that are not the core's state (a timeout warning relayed, the
   *     embedded scheduler's state), in order
   */
  record Batch(
      long seq,
      long nowNs,
      long wallMillis,
      long lastRequestId,
      List<Change> changes,
      List<Effect> effects,
      List<Note> notes)
      implements Entry {
    public Batch {
      changes = List.copyOf(changes);
      effects = kept(effects);
      notes = List.copyOf(notes);
    }

    /**
     * The effects a batch keeps: all but {@link Effect.Reply} and {@link Effect.NotifyProc}, whose
     * clients' connections die with the controller (docs/journal.md "Recovery"). Leaving them out
     * spares the journal encoding their PMIx values on the path of every reply.
     */
    public static List<Effect> kept(List<Effect> effects) {
      List<Effect> kept = new java.util.ArrayList<>(effects.size());
      for (Effect e : effects) {
        if (!(e instanceof Effect.Reply) && !(e instanceof Effect.NotifyProc)) {
          kept.add(e);
        }
      }
      return List.copyOf(kept);
    }
  }

  /**
   * A snapshot file's one record: the core's state after batch {@code nextSeq - 1} and the shell's
   * notes then, so recovery replays only the batches from {@code nextSeq} on.
   *
   * @param state {@code Core.snapshot()}
   */
  record Snapshot(
      int vocabulary,
      CoreConfig config,
      long nextSeq,
      long nowNs,
      long wallMillis,
      long lastRequestId,
      byte[] state,
      List<Note> notes)
      implements Entry {
    public Snapshot {
      notes = List.copyOf(notes);
    }
  }

  /** The effects of every batch up to {@code seq} were executed. */
  record Dispatched(long seq) implements Entry {}

  /**
   * A fact the shell keeps across a restart, by kind and key: a later note of the same kind and key
   * replaces an earlier one; an empty {@code value} removes it.
   */
  record Note(String kind, String key, byte[] value) {}
}
