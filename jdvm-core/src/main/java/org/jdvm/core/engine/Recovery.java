package org.jdvm.core.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.Framing;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.pmix.record.Bytes;

/**
 * Rebuilds a core from its snapshots and journal segments (docs/journal.md "Recovery"), as a pure
 * function of their bytes: the newest snapshot that checks and decodes is the base (a corrupt one
 * falls back to the one before, loudly), then every batch after it is replayed through the one
 * mutator, segment by segment, up to the first torn or corrupt record, where the journal is cut.
 * The effects of the batches after the last {@link Entry.Dispatched} come back to be executed
 * again; the notes come back as they stood at the end.
 */
public final class Recovery {
  private Recovery() {}

  /** A file's name (for messages) and its bytes. */
  public record Input(String name, byte[] bytes) {}

  /** Where a segment must be cut: its whole records end at {@code validLength}. */
  public record Cut(String segment, int validLength, String problem) {}

  /**
   * What recovery found.
   *
   * @param nextSeq the sequence number of the next batch
   * @param undispatched the effects of journaled batches that may not have been executed, in order
   * @param notes the shell's notes by kind and key
   * @param warnings what the shell must log loudly (a cut tail, a snapshot passed over)
   * @param cut the segment to cut, or {@code null}
   * @param ignored segments after a cut, whose records can no longer be replayed
   */
  public record Result(
      Core core,
      long nextSeq,
      long nowNs,
      long wallMillis,
      long lastRequestId,
      int batches,
      List<Effect> undispatched,
      Map<String, Entry.Note> notes,
      List<String> warnings,
      Cut cut,
      List<String> ignored,
      boolean tornDown) {}

  /** Refused: the files cannot be made into a state (another build's vocabulary, a gap). */
  public static final class Unrecoverable extends IllegalStateException {
    public Unrecoverable(String message) {
      super(message);
    }
  }

  /**
   * @param config the configuration to start from when neither snapshot nor header names one
   * @param snapshots snapshot files, newest first
   * @param segments journal segments, oldest first
   */
  public static Result recover(CoreConfig config, List<Input> snapshots, List<Input> segments) {
    List<String> warnings = new ArrayList<>();
    Map<String, Entry.Note> notes = new LinkedHashMap<>();
    Entry.Snapshot base = null;
    Core core = null;
    for (Input s : snapshots) {
      try {
        base = snapshot(s);
        core = Core.restore(base.config(), base.state());
        break;
      } catch (Bytes.Corrupt e) {
        warnings.add("snapshot " + s.name() + " is corrupt (" + e.getMessage() + "): passed over");
        base = null;
      }
    }
    long nextSeq = 0;
    long nowNs = Long.MIN_VALUE;
    long wallMillis = 0;
    long lastRequestId = 0;
    if (base != null) {
      base.notes().forEach(n -> note(notes, n));
      nextSeq = base.nextSeq();
      nowNs = base.nowNs();
      wallMillis = base.wallMillis();
      lastRequestId = base.lastRequestId();
    }
    Replay r = new Replay(core, config, nextSeq, nowNs, wallMillis, lastRequestId, notes, warnings);
    int from = firstNeeded(segments, nextSeq);
    for (int i = from; i < segments.size(); i++) {
      if (!r.segment(segments.get(i))) {
        List<String> ignored = new ArrayList<>();
        for (Input later : segments.subList(i + 1, segments.size())) {
          ignored.add(later.name());
          warnings.add("segment " + later.name() + " follows a cut and is ignored");
        }
        return r.result(ignored);
      }
    }
    return r.result(List.of());
  }

  /**
   * The first segment holding a batch from {@code nextSeq} on: a segment whose successor starts at
   * or before it is wholly in the snapshot and is not read (that is what bounds replay time).
   */
  private static int firstNeeded(List<Input> segments, long nextSeq) {
    int from = 0;
    for (int i = 1; i < segments.size(); i++) {
      Long first = firstSeq(segments.get(i));
      if (first == null || first > nextSeq) {
        break;
      }
      from = i;
    }
    return from;
  }

  /** The first batch number of a segment, from its header; {@code null} if it has none. */
  private static Long firstSeq(Input s) {
    Bytes.In in = new Bytes.In(s.bytes());
    try {
      int length = in.i32();
      in.i32();
      if (length < 0 || length > in.remaining()) {
        return null;
      }
      Framing.Scan scan = Framing.scan(s.bytes(), Framing.OVERHEAD + length);
      if (scan.records().isEmpty()
          || !(JournalCodec.decode(s.bytes(), scan.records().get(0)) instanceof Entry.Header h)) {
        return null;
      }
      return h.firstSeq();
    } catch (Bytes.Corrupt e) {
      return null;
    }
  }

  private static Entry.Snapshot snapshot(Input s) {
    Framing.Scan scan = Framing.scan(s.bytes(), s.bytes().length);
    if (scan.cut() || scan.records().size() != 1) {
      throw new Bytes.Corrupt(scan.cut() ? scan.problem() : "not one record");
    }
    if (!(JournalCodec.decode(s.bytes(), scan.records().get(0)) instanceof Entry.Snapshot snap)) {
      throw new Bytes.Corrupt("not a snapshot");
    }
    vocabulary(snap.vocabulary(), s.name());
    return snap;
  }

  private static void vocabulary(int vocabulary, String name) {
    if (vocabulary != JournalCodec.VOCABULARY) {
      throw new Unrecoverable(
          name
              + " was written by a jdvm build with another record vocabulary ("
              + Integer.toHexString(vocabulary)
              + ", this build "
              + Integer.toHexString(JournalCodec.VOCABULARY)
              + "): start that build, stop it cleanly, or move the journal away");
    }
  }

  private static void note(Map<String, Entry.Note> notes, Entry.Note n) {
    String key = n.kind() + "\u0000" + n.key();
    if (n.value().length == 0) {
      notes.remove(key);
    } else {
      notes.put(key, n);
    }
  }

  /** The replay in progress. */
  private static final class Replay {
    private Core core;
    private final CoreConfig config;
    private long nextSeq;
    private long nowNs;
    private long wallMillis;
    private long lastRequestId;
    private int batches;
    private final Map<String, Entry.Note> notes;
    private final List<String> warnings;
    private final List<Entry.Batch> pending = new ArrayList<>();
    private Cut cut;
    private boolean tornDown;

    Replay(
        Core core,
        CoreConfig config,
        long nextSeq,
        long nowNs,
        long wallMillis,
        long lastRequestId,
        Map<String, Entry.Note> notes,
        List<String> warnings) {
      this.core = core;
      this.config = config;
      this.nextSeq = nextSeq;
      this.nowNs = nowNs;
      this.wallMillis = wallMillis;
      this.lastRequestId = lastRequestId;
      this.notes = notes;
      this.warnings = warnings;
    }

    /** Replays one segment; false if it had to be cut. */
    boolean segment(Input s) {
      Framing.Scan scan = Framing.scan(s.bytes(), s.bytes().length);
      boolean first = true;
      for (Framing.Slice slice : scan.records()) {
        Entry e;
        try {
          e = JournalCodec.decode(s.bytes(), slice);
        } catch (Bytes.Corrupt c) {
          return cut(s, slice.offset() - Framing.OVERHEAD, "an undecodable record: " + c);
        }
        if (first) {
          if (!(e instanceof Entry.Header h)) {
            return cut(s, 0, "no header");
          }
          vocabulary(h.vocabulary(), s.name());
          if (core == null) {
            if (h.firstSeq() != 0) {
              throw new Unrecoverable(
                  "no snapshot can be read and the journal starts at batch "
                      + h.firstSeq()
                      + ", not 0: the state before it is lost");
            }
            core = new Core(h.config());
          }
          first = false;
          continue;
        }
        apply(e, s);
      }
      if (scan.cut()) {
        return cut(s, scan.validLength(), scan.problem());
      }
      return true;
    }

    private void apply(Entry e, Input s) {
      switch (e) {
        case Entry.Batch b -> {
          if (b.seq() < nextSeq) {
            return; // already in the snapshot
          }
          if (b.seq() != nextSeq) {
            throw new Unrecoverable(
                s.name() + " has batch " + b.seq() + " where " + nextSeq + " was due");
          }
          core.replay(b.changes(), b.nowNs());
          for (Change c : b.changes()) {
            tornDown |= c instanceof Change.TornDown;
          }
          b.notes().forEach(n -> note(notes, n));
          nextSeq++;
          batches++;
          nowNs = b.nowNs();
          wallMillis = b.wallMillis();
          lastRequestId = Math.max(lastRequestId, b.lastRequestId());
          if (!b.effects().isEmpty()) {
            pending.add(b);
          }
        }
        case Entry.Dispatched d -> pending.removeIf(b -> b.seq() <= d.seq());
        case Entry.Header h -> throw new Unrecoverable(s.name() + " has a second header");
        case Entry.Snapshot x -> throw new Unrecoverable(s.name() + " holds a snapshot");
      }
    }

    private boolean cut(Input s, int at, String problem) {
      cut = new Cut(s.name(), at, problem);
      warnings.add(
          "journal segment "
              + s.name()
              + " cut at byte "
              + at
              + " of "
              + s.bytes().length
              + ": "
              + problem);
      return false;
    }

    Result result(List<String> ignored) {
      if (core == null) {
        core = new Core(config);
      }
      List<Effect> undispatched = new ArrayList<>();
      pending.forEach(b -> undispatched.addAll(b.effects()));
      return new Result(
          core,
          nextSeq,
          nowNs,
          wallMillis,
          lastRequestId,
          batches,
          undispatched,
          notes,
          warnings,
          cut,
          ignored,
          tornDown);
    }
  }
}
