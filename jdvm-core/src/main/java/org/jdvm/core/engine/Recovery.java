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
  public static class Unrecoverable extends IllegalStateException {
    public Unrecoverable(String message) {
      super(message);
    }
  }

  /**
   * Refused: a record that is not the torn tail is damaged — whole records, or later segments,
   * follow it — and recovery does not replay past it (docs/journal.md "A damaged journal"). The
   * message names the segment, the offset and the two ways on, both a {@link Discard}.
   */
  public static final class Damaged extends Unrecoverable {
    private final String segment;
    private final int offset;

    Damaged(String segment, int offset, String message) {
      super(message);
      this.segment = segment;
      this.offset = offset;
    }

    public String segment() {
      return segment;
    }

    public int offset() {
      return offset;
    }
  }

  /**
   * What {@code jdvm start --discard-journal-after SEGMENT:BYTE} gives up: every record of {@code
   * segment} that does not end at or before byte {@code offset}, and every later segment.
   */
  public record Discard(String segment, long offset) {
    /** Parses {@code journal-N.log:BYTE}; refuses anything else with a message. */
    public static Discard parse(String text) {
      int colon = text.lastIndexOf(':');
      String name = colon < 0 ? "" : text.substring(0, colon);
      if (!name.matches("journal-\\d{1,19}\\.log")
          || !text.substring(colon + 1).matches("\\d{1,18}")) {
        throw new IllegalArgumentException(
            "--discard-journal-after takes SEGMENT:BYTE, e.g. journal-7.log:1234 (as the refusal"
                + " to start names it), not "
                + text);
      }
      return new Discard(name, Long.parseLong(text.substring(colon + 1)));
    }

    @Override
    public String toString() {
      return segment + ":" + offset;
    }
  }

  /**
   * @param config the configuration to start from when neither snapshot nor header names one
   * @param snapshots snapshot files, newest first
   * @param segments journal segments, oldest first
   */
  public static Result recover(CoreConfig config, List<Input> snapshots, List<Input> segments) {
    return recover(config, snapshots, segments, null);
  }

  /**
   * As {@link #recover(CoreConfig, List, List)}, giving up what {@code discard} names (or nothing,
   * if it is {@code null}).
   *
   * @throws Damaged at a damaged record that is not the torn tail
   */
  public static Result recover(
      CoreConfig config, List<Input> snapshots, List<Input> segments, Discard discard) {
    List<String> warnings = new ArrayList<>();
    Map<String, Entry.Note> notes = new LinkedHashMap<>();
    Entry.Snapshot base = null;
    String baseName = null;
    Core core = null;
    for (Input s : snapshots) {
      try {
        base = snapshot(s);
        core = Core.restore(base.config(), base.state());
        baseName = s.name();
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
    r.base = baseName;
    r.discard = discard;
    int from = firstNeeded(segments, nextSeq);
    for (int i = from; i < segments.size(); i++) {
      if (!r.segment(segments.get(i), i == segments.size() - 1)) {
        List<String> ignored = new ArrayList<>();
        for (Input later : segments.subList(i + 1, segments.size())) {
          ignored.add(later.name());
          warnings.add("segment " + later.name() + " follows a cut and is ignored");
        }
        return r.result(ignored);
      }
    }
    if (discard != null) {
      throw new Unrecoverable(
          "--discard-journal-after "
              + discard
              + ": recovery reads no segment of that name (those it reads: "
              + segments.subList(Math.min(from, segments.size()), segments.size()).stream()
                  .map(Input::name)
                  .toList()
              + ")");
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

    /** The snapshot the replay starts from, or {@code null}. */
    private String base;

    /** What to give up, until the replay reached it. */
    private Discard discard;

    /** The first segment replayed and where its header ends: a discard there keeps no batch. */
    private String firstSegment;

    private int firstHeaderEnd;

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

    /**
     * Replays one segment; false if it had to be cut: at its torn tail ({@code last}, nothing whole
     * after the break) or where {@link #discard} says.
     *
     * @throws Damaged at a damaged record that is not the torn tail
     */
    boolean segment(Input s, boolean last) {
      boolean discarding = discard != null && discard.segment().equals(s.name());
      int len = discarding ? (int) Math.min(s.bytes().length, discard.offset()) : s.bytes().length;
      Framing.Scan scan = Framing.scan(s.bytes(), len);
      boolean first = true;
      for (Framing.Slice slice : scan.records()) {
        Entry e;
        try {
          e = JournalCodec.decode(s.bytes(), slice);
        } catch (Bytes.Corrupt c) {
          // It checks, so it was written whole: damage, not a tear.
          throw damaged(s, slice.offset() - Framing.OVERHEAD, "an undecodable record: " + c, "");
        }
        if (first) {
          if (!(e instanceof Entry.Header h)) {
            throw damaged(s, 0, "no header", "");
          }
          if (firstSegment == null) {
            firstSegment = s.name();
            firstHeaderEnd = slice.offset() + slice.length();
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
      if (discarding) {
        if (scan.cut() && endsBefore(s.bytes(), scan.validLength(), len)) {
          // Not the record the discard point cuts through: damage before it.
          throw damaged(s, scan.validLength(), scan.problem(), "before the discard point");
        }
        discard = null;
        return cut(
            s,
            scan.validLength(),
            "discarded from there on (--discard-journal-after " + s.name() + ":" + len + ")");
      }
      if (scan.cut()) {
        if (!last) {
          throw damaged(s, scan.validLength(), scan.problem(), "later segments follow it");
        }
        int whole = Framing.wholeRecordAfter(s.bytes(), scan.validLength(), len);
        if (whole >= 0) {
          throw damaged(
              s, scan.validLength(), scan.problem(), "a whole record follows it at byte " + whole);
        }
        return cut(s, scan.validLength(), scan.problem());
      }
      return true;
    }

    /** Whether the record at {@code at} says it ends at or before {@code limit}. */
    private static boolean endsBefore(byte[] bytes, int at, int limit) {
      if (limit - at < Framing.OVERHEAD) {
        return false;
      }
      long length = new Bytes.In(bytes, at, Framing.OVERHEAD).i32();
      return at + Framing.OVERHEAD + length <= limit;
    }

    /**
     * The refusal of a damaged record at {@code at} of {@code s}: where, why it is not the torn
     * tail, and the two ways on (docs/journal.md "A damaged journal").
     */
    private Damaged damaged(Input s, int at, String problem, String notATear) {
      String snapshot = base == null ? "none: the empty DVM" : base;
      String only =
          firstSegment == null || firstSegment.equals(s.name()) && at <= firstHeaderEnd
              ? s.name() + ":0"
              : firstSegment + ":" + firstHeaderEnd;
      return new Damaged(
          s.name(),
          at,
          "journal segment "
              + s.name()
              + " is damaged at byte "
              + at
              + " of "
              + s.bytes().length
              + " ("
              + problem
              + (notATear.isEmpty() ? "" : "; " + notATear)
              + "): it is not a torn tail, and the DVM does not start rather than replay past it."
              + " The last good snapshot is "
              + snapshot
              + "; "
              + (batches == 0 ? "no batch" : "batches " + (nextSeq - batches) + "-" + (nextSeq - 1))
              + " before the damage are good. To start, give jdvm start one of:\n"
              + "  --discard-journal-after "
              + s.name()
              + ":"
              + at
              + "   the last good snapshot and the good batches before the damage; the rest is"
              + " set aside (*.corrupt)\n"
              + "  --discard-journal-after "
              + only
              + "   the last good snapshot alone; every batch after it is set aside");
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
