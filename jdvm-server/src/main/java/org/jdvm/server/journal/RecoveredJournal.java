package org.jdvm.server.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.engine.Core;
import org.jdvm.core.engine.Recovery;
import org.jdvm.core.journal.Entry;

/**
 * What {@code jdvm start} found in the journal directory (docs/journal.md "Recovery"): the core
 * rebuilt from the newest good snapshot and the segments after it, with the torn or corrupt tail
 * cut off on disk (loudly: one ERROR line), a corrupt snapshot set aside as {@code *.corrupt}.
 *
 * @param found whether there was anything to recover
 * @param snapshotSeq the sequence number of the snapshot used, or -1
 */
public record RecoveredJournal(
    boolean found,
    Core core,
    long nextSeq,
    long nowNs,
    long wallMillis,
    long lastRequestId,
    int batches,
    List<Effect> undispatched,
    Map<String, Entry.Note> notes,
    long snapshotSeq,
    long recoveryMillis) {

  private static final System.Logger LOG = System.getLogger("org.jdvm.server.journal");

  /**
   * The DVM name the journal in {@code dir} was written under, or {@code null}: a DVM recovered
   * from it keeps its name (its namespaces are {@code <name>@<n>}), whatever name the new start was
   * given.
   */
  public static String journaledName(Path dir) {
    try {
      if (!Files.isDirectory(dir)) {
        return null;
      }
      List<JournalFiles.Numbered> segments = new JournalFiles(dir).segments();
      for (int i = segments.size() - 1; i >= 0; i--) {
        byte[] head = firstRecord(segments.get(i).path());
        if (head == null) {
          continue;
        }
        org.jdvm.core.journal.Framing.Scan scan =
            org.jdvm.core.journal.Framing.scan(head, head.length);
        if (!scan.records().isEmpty()
            && org.jdvm.core.journal.JournalCodec.decode(head, scan.records().get(0))
                instanceof Entry.Header h) {
          return h.config().dvmName();
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "journal: cannot read its DVM name: " + e);
    }
    return null;
  }

  private static byte[] firstRecord(Path segment) throws IOException {
    try (java.io.InputStream in = Files.newInputStream(segment)) {
      byte[] header = in.readNBytes(org.jdvm.core.journal.Framing.OVERHEAD);
      if (header.length < org.jdvm.core.journal.Framing.OVERHEAD) {
        return null;
      }
      int len = java.nio.ByteBuffer.wrap(header).getInt();
      if (len < 0 || len > (1 << 24)) {
        return null;
      }
      byte[] payload = in.readNBytes(len);
      byte[] all = new byte[header.length + payload.length];
      System.arraycopy(header, 0, all, 0, header.length);
      System.arraycopy(payload, 0, all, header.length, payload.length);
      return all;
    }
  }

  /** Nothing to recover: a fresh core. */
  public static RecoveredJournal fresh(CoreConfig config) {
    return new RecoveredJournal(
        false, new Core(config), 0, Long.MIN_VALUE, 0, 0, 0, List.of(), Map.of(), -1, 0);
  }

  /**
   * Reads the directory. A journal that ends in a teardown (the controller died while stopping) is
   * not recovered: the DVM had ended.
   *
   * @throws Recovery.Unrecoverable if the files cannot be made into a state
   */
  public static RecoveredJournal read(Path dir, CoreConfig config) throws IOException {
    return read(dir, config, null);
  }

  /**
   * As {@link #read(Path, CoreConfig)}, giving up what {@code discard} names ({@code jdvm start
   * --discard-journal-after}; {@code null}: nothing): the segment it names is kept whole as {@code
   * *.corrupt} before it is cut.
   *
   * @throws Recovery.Damaged at a damaged record that is not the torn tail (nothing is changed)
   */
  public static RecoveredJournal read(Path dir, CoreConfig config, Recovery.Discard discard)
      throws IOException {
    if (!Files.isDirectory(dir)) {
      if (discard != null) {
        throw new Recovery.Unrecoverable(
            "--discard-journal-after " + discard + ": there is no journal in " + dir);
      }
      return fresh(config);
    }
    long started = System.nanoTime();
    JournalFiles files = new JournalFiles(dir);
    List<JournalFiles.Numbered> snapshots = files.snapshots();
    List<JournalFiles.Numbered> segments = files.segments();
    if (snapshots.isEmpty() && segments.isEmpty() && discard == null) {
      return fresh(config);
    }
    List<Recovery.Input> snaps = inputs(snapshots.reversed());
    List<Recovery.Input> segs = inputs(segments);
    Recovery.Result r = Recovery.recover(config, snaps, segs, discard);
    for (String w : r.warnings()) {
      LOG.log(System.Logger.Level.ERROR, "journal: " + w);
    }
    if (discard != null && r.cut() != null) {
      keepWhatIsGivenUp(dir, r, segs, discard);
    }
    if (r.cut() != null) {
      JournalFiles.truncate(dir.resolve(r.cut().segment()), r.cut().validLength());
    }
    for (String ignored : r.ignored()) {
      JournalFiles.setAside(dir.resolve(ignored));
    }
    long snapshotSeq = -1;
    for (JournalFiles.Numbered s : snapshots) {
      String name = s.path().getFileName().toString();
      if (r.warnings().stream().anyMatch(w -> w.startsWith("snapshot " + name + " "))) {
        JournalFiles.setAside(s.path());
      } else if (s.seq() <= r.nextSeq()) {
        snapshotSeq = Math.max(snapshotSeq, s.seq());
      }
    }
    if (r.tornDown()) {
      LOG.log(System.Logger.Level.INFO, "journal: the DVM had stopped; starting afresh");
      files.clear();
      return fresh(config);
    }
    RecoveredJournal out =
        new RecoveredJournal(
            true,
            r.core(),
            r.nextSeq(),
            r.nowNs(),
            r.wallMillis(),
            r.lastRequestId(),
            r.batches(),
            r.undispatched(),
            r.notes(),
            snapshotSeq,
            (System.nanoTime() - started) / 1_000_000);
    return out;
  }

  /** Each file's name and bytes, in the given order. */
  private static List<Recovery.Input> inputs(List<JournalFiles.Numbered> files) throws IOException {
    List<Recovery.Input> out = new ArrayList<>(files.size());
    for (JournalFiles.Numbered f : files) {
      out.add(new Recovery.Input(f.path().getFileName().toString(), Files.readAllBytes(f.path())));
    }
    return out;
  }

  /** Keeps the segment {@code --discard-journal-after} cuts as it was, for a post-mortem. */
  private static void keepWhatIsGivenUp(
      Path dir, Recovery.Result r, List<Recovery.Input> segs, Recovery.Discard discard)
      throws IOException {
    // What is given up stays for a post-mortem, as a file recovery could not use does.
    Path kept = dir.resolve(r.cut().segment() + ".corrupt");
    Files.deleteIfExists(kept);
    Files.createFile(kept, JournalFiles.ownerOnly());
    for (Recovery.Input s : segs) {
      if (s.name().equals(r.cut().segment())) {
        Files.write(kept, s.bytes());
      }
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "journal: --discard-journal-after "
            + discard
            + ": recovered "
            + r.batches()
            + " batches; "
            + r.cut().segment()
            + " as it was is kept as "
            + kept.getFileName());
  }
}
