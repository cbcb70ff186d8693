package org.jdvm.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.core.journal.Entry;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;

/**
 * How scheduler ports journal themselves (docs/journal.md "Notes"): after each step, the port's
 * state as one note of its kind (key empty) and each answer it gave as a {@link #SCHEDULER_ANSWER}
 * note keyed by its ask, kept until the core closed that ask; at a restart, read back from the
 * journal's notes. The kinds are the journal's ({@code org.jdvm.server.journal.Notes} names the
 * same strings).
 */
public final class SchedulerNotes {
  private SchedulerNotes() {}

  /** The embedded scheduler's state (key empty), after each of its steps. */
  public static final String EMBEDDED_SCHEDULER = "embedded-scheduler";

  /** The Slurm scheduler port's state (key empty), after each of its steps that changed it. */
  public static final String SLURM_SCHEDULER = "slurm-scheduler";

  /** An answer the embedded or Slurm scheduler gave to the ask named by the key. */
  public static final String SCHEDULER_ANSWER = "scheduler-answer";

  /** A scheduler's saved state as a note of {@code kind}, then one note per answer, by its ask. */
  public static <T> List<Entry.Note> step(
      String kind, Class<T> type, T saved, List<SchedulerEvent> answers) {
    List<Entry.Note> out = new ArrayList<>(1 + answers.size());
    Bytes.Out b = new Bytes.Out(1024);
    RecordCodec.write(b, type, saved);
    out.add(new Entry.Note(kind, "", b.toByteArray()));
    for (SchedulerEvent a : answers) {
      b.reset();
      RecordCodec.write(b, SchedulerEvent.class, a);
      out.add(new Entry.Note(SCHEDULER_ANSWER, SchedulerEvent.askIdOf(a), b.toByteArray()));
    }
    return out;
  }

  /**
   * The state of {@code kind} among a recovered journal's notes (keyed {@code kind NUL key}), or
   * {@code null} if it has none.
   */
  public static <T> T saved(Map<String, Entry.Note> notes, String kind, Class<T> type) {
    Entry.Note n = notes.get(kind + "\u0000");
    return n == null ? null : type.cast(RecordCodec.read(new Bytes.In(n.value()), type));
  }

  /** Every answer among a recovered journal's notes. */
  public static List<SchedulerEvent> answers(Map<String, Entry.Note> notes) {
    List<SchedulerEvent> answers = new ArrayList<>();
    for (Entry.Note a : notes.values()) {
      if (a.kind().equals(SCHEDULER_ANSWER) && a.value().length > 0) {
        answers.add(
            (SchedulerEvent) RecordCodec.read(new Bytes.In(a.value()), SchedulerEvent.class));
      }
    }
    return answers;
  }
}
