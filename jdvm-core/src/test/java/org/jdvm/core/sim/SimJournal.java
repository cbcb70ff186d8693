package org.jdvm.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.engine.Core;
import org.jdvm.core.engine.Recovery;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.pmix.record.Bytes;

/**
 * The controller's journal as the server keeps it (docs/journal.md), in memory: segments of framed
 * entries, a snapshot every so many batches that starts a new segment, the two newest snapshots and
 * the segments since the older one kept. A crash loses whatever was not written; {@link #recover}
 * runs the same pure recovery the server runs on the files.
 */
final class SimJournal {
  static final int SNAPSHOT_EVERY = 64;

  private record File(String name, byte[] bytes) {}

  private final List<File> snapshots = new ArrayList<>(); // oldest first
  private final List<Bytes.Out> segments = new ArrayList<>(); // oldest first
  private final List<Long> segmentStarts = new ArrayList<>();
  private final Bytes.Out scratch = new Bytes.Out(1024);
  private long nextSeq;
  private int sinceSnapshot;
  int snapshotsTaken;
  private final List<String> damaged = new ArrayList<>();

  SimJournal(Core core) {
    startSegment(core);
  }

  private void startSegment(Core core) {
    Bytes.Out seg = new Bytes.Out(4096);
    JournalCodec.frame(
        new Entry.Header(JournalCodec.VOCABULARY, core.config(), nextSeq), scratch, seg);
    segments.add(seg);
    segmentStarts.add(nextSeq);
  }

  /** Whether an outcome is journaled: it changed the state or asked the world for something. */
  static boolean journaled(Outcome o) {
    if (!o.changes().isEmpty()) {
      return true;
    }
    for (Effect e : o.effects()) {
      if (!(e instanceof Effect.Reply)) {
        return true;
      }
    }
    return false;
  }

  /** Writes the outcome's batch; {@code tornAt} ≥ 0 writes only that many of its bytes. */
  void append(Outcome o, long nowNs, int tornAt) {
    Bytes.Out framed = new Bytes.Out(512);
    JournalCodec.frame(
        new Entry.Batch(nextSeq, nowNs, 0, 0, o.changes(), o.effects(), List.of()),
        scratch,
        framed);
    Bytes.Out seg = segments.get(segments.size() - 1);
    int len = tornAt < 0 ? framed.size() : Math.min(tornAt, framed.size() - 1);
    seg.raw(framed.array(), 0, len);
    if (tornAt < 0) {
      nextSeq++;
      sinceSnapshot++;
    }
  }

  int lastBatchLength(Outcome o, long nowNs) {
    Bytes.Out framed = new Bytes.Out(512);
    JournalCodec.frame(
        new Entry.Batch(nextSeq, nowNs, 0, 0, o.changes(), o.effects(), List.of()),
        scratch,
        framed);
    return framed.size();
  }

  void dispatched() {
    JournalCodec.frame(new Entry.Dispatched(nextSeq - 1), scratch, segments.getLast());
  }

  boolean snapshotDue() {
    return sinceSnapshot >= SNAPSHOT_EVERY;
  }

  /**
   * Takes a snapshot the way the server does: a new segment first, then the snapshot file; with
   * {@code corruptWith} non-null the snapshot's bytes are damaged (a crash while writing it, or
   * rot).
   */
  void snapshot(Core core, long nowNs, Random corruptWith) {
    byte[] state = core.snapshot();
    String restored = Core.restore(core.config(), state).digest();
    if (!restored.equals(core.digest())) {
      throw new AssertionError("a snapshot restores to another state");
    }
    startSegment(core);
    byte[] file =
        JournalCodec.framed(
            new Entry.Snapshot(
                JournalCodec.VOCABULARY, core.config(), nextSeq, nowNs, 0, 0, state, List.of()));
    if (corruptWith != null) {
      if (corruptWith.nextBoolean()) {
        file = java.util.Arrays.copyOf(file, corruptWith.nextInt(file.length));
      } else {
        file[corruptWith.nextInt(file.length)] ^= (byte) (1 + corruptWith.nextInt(255));
      }
    }
    if (corruptWith != null) {
      damaged.add("snapshot-" + nextSeq);
    }
    snapshots.add(new File("snapshot-" + nextSeq, file));
    snapshotsTaken++;
    sinceSnapshot = 0;
    if (corruptWith == null) {
      prune();
    }
  }

  /** Keeps the two newest snapshots and the segments from the older one on. */
  private void prune() {
    while (snapshots.size() > 2) {
      snapshots.removeFirst();
    }
    long keepFrom = snapshots.size() < 2 ? 0 : seqOf(snapshots.getFirst());
    while (segmentStarts.size() > 1 && segmentStarts.get(1) <= keepFrom) {
      segments.removeFirst();
      segmentStarts.removeFirst();
    }
  }

  private static long seqOf(File f) {
    return Long.parseLong(f.name().substring("snapshot-".length()));
  }

  /** The pure recovery over what was written; afterwards the journal goes on from there. */
  Recovery.Result recover(Core fresh) {
    List<Recovery.Input> snaps = new ArrayList<>();
    for (int i = snapshots.size() - 1; i >= 0; i--) {
      snaps.add(new Recovery.Input(snapshots.get(i).name(), snapshots.get(i).bytes()));
    }
    List<Recovery.Input> segs = new ArrayList<>();
    for (int i = 0; i < segments.size(); i++) {
      segs.add(
          new Recovery.Input("journal-" + segmentStarts.get(i), segments.get(i).toByteArray()));
    }
    Recovery.Result r;
    try {
      r = Recovery.recover(fresh.config(), snaps, segs);
    } catch (RuntimeException e) {
      throw new AssertionError("recovery failed; snapshots " + snaps.size(), e);
    }
    for (String w : r.warnings()) {
      if (w.startsWith("snapshot ") && damaged.stream().noneMatch(d -> w.contains(d + " "))) {
        throw new AssertionError("an undamaged snapshot was passed over: " + w);
      }
    }
    if (r.cut() != null) {
      // The server truncates the file at the last whole record; so does this model.
      int i = segs.size() - 1;
      while (!segs.get(i).name().equals(r.cut().segment())) {
        i--;
      }
      Bytes.Out seg = segments.get(i);
      byte[] kept = java.util.Arrays.copyOf(seg.toByteArray(), r.cut().validLength());
      seg.reset();
      seg.raw(kept, 0, kept.length);
    }
    snapshots.removeIf(f -> r.warnings().stream().anyMatch(w -> w.contains(f.name() + " ")));
    nextSeq = r.nextSeq();
    return r;
  }
}
