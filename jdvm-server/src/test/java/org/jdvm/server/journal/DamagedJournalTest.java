package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.core.engine.Recovery;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.Framing;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "A damaged journal": a record that does not check, with whole records after it,
 * is damage, not a torn tail. Recovery refuses it — naming the segment, the offset and the two ways
 * on — and changes nothing; {@code --discard-journal-after} then starts from the good prefix, or
 * from the snapshot alone. A torn tail is still cut as before.
 */
class DamagedJournalTest {
  private static final CoreConfig CONFIG =
      CoreConfig.of("dj", List.of(new NodeSpec("n0", 4), new NodeSpec("n1", 4)));

  @TempDir Path dir;
  private long request;

  /** The digest after each batch, in order; [0] is the empty state. */
  private final List<String> digests = new ArrayList<>();

  private void run(Core core, Journal journal, Command c) {
    Outcome o = core.handle(c, 0);
    journal.record(c, o, 0);
    journal.commit();
    journal.dispatched();
    digests.add(core.digest());
  }

  /**
   * Batches 0..5: a tool, its allocation of n1, its release (the allocation is gone), three more
   * tools. Returns the segment.
   */
  private Path write() throws IOException {
    Core core = new Core(CONFIG);
    digests.add(core.digest());
    try (Journal j =
        new Journal(
            dir, FsyncPolicy.NEVER, Long.MAX_VALUE, core, CONFIG, RecoveredJournal.fresh(CONFIG))) {
      Outcome reg = core.handle(new Request.RegisterTool(new RequestId(++request), null), 0);
      j.record(null, reg, 0);
      j.commit();
      j.dispatched();
      digests.add(core.digest());
      String tool = ((Change.NamespaceRegistered) reg.changes().get(0)).namespace();
      Proc me = new Proc(tool, 0);
      run(
          core,
          j,
          Request.Allocate.builder(new RequestId(++request), me, AllocDirective.NEW)
              .nodeList(List.of("n1"))
              .allocReqId("r")
              .build());
      run(
          core,
          j,
          Request.Allocate.builder(new RequestId(++request), me, AllocDirective.RELEASE)
              .allocReqId("r")
              .build());
      for (int i = 0; i < 3; i++) {
        run(core, j, new Request.RegisterTool(new RequestId(++request), null));
      }
    }
    return dir.resolve("journal-0.log");
  }

  /** The framed records of a file: where each starts, in order. */
  private static List<Framing.Slice> records(byte[] bytes) {
    return Framing.scan(bytes, bytes.length).records();
  }

  /** Where the record of batch {@code seq} starts. */
  private static int batchAt(byte[] bytes, long seq) {
    for (Framing.Slice s : records(bytes)) {
      if (JournalCodec.decode(bytes, s) instanceof Entry.Batch b && b.seq() == seq) {
        return s.offset() - Framing.OVERHEAD;
      }
    }
    throw new AssertionError("no batch " + seq);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aFlippedByteInTheMiddleIsRefusedNamingSegmentOffsetAndBothWaysOnAndNothingChanges()
      throws IOException {
    Path segment = write();
    byte[] bytes = Files.readAllBytes(segment);
    int release = batchAt(bytes, 2);
    int headerEnd = records(bytes).get(0).offset() + records(bytes).get(0).length();
    bytes[release + Framing.OVERHEAD + 5] ^= 0x10; // in the release's payload
    Files.write(segment, bytes);
    List<String> before = names(dir);

    assertThatThrownBy(() -> RecoveredJournal.read(dir, CONFIG))
        .isInstanceOfSatisfying(
            Recovery.Damaged.class,
            d -> {
              assertThat(d.segment()).isEqualTo("journal-0.log");
              assertThat(d.offset()).isEqualTo(release);
            })
        .hasMessageContaining("journal segment journal-0.log is damaged at byte " + release)
        .hasMessageContaining("not a torn tail")
        .hasMessageContaining("--discard-journal-after journal-0.log:" + release)
        .hasMessageContaining("--discard-journal-after journal-0.log:" + headerEnd)
        .hasMessageContaining("last good snapshot");
    assertThat(Files.readAllBytes(segment)).as("nothing cut").isEqualTo(bytes);
    assertThat(names(dir)).as("nothing set aside").isEqualTo(before);
  }

  @Test
  void discardingAfterTheDamageStartsFromTheGoodPrefixAndKeepsTheRestAside() throws IOException {
    Path segment = write();
    byte[] bytes = Files.readAllBytes(segment);
    int release = batchAt(bytes, 2);
    bytes[release + Framing.OVERHEAD + 5] ^= 0x10;
    Files.write(segment, bytes);

    RecoveredJournal r =
        RecoveredJournal.read(dir, CONFIG, new Recovery.Discard("journal-0.log", release));
    assertThat(r.core().digest()).as("the tool and its allocation").isEqualTo(digests.get(2));
    assertThat(r.nextSeq()).isEqualTo(2);
    assertThat(Files.size(segment)).isEqualTo(release);
    assertThat(Files.readAllBytes(dir.resolve("journal-0.log.corrupt"))).isEqualTo(bytes);
    // The cut is on disk: the next start needs no option.
    assertThat(RecoveredJournal.read(dir, CONFIG).core().digest()).isEqualTo(digests.get(2));
  }

  @Test
  void discardingAfterTheHeaderStartsFromTheLastGoodSnapshotAlone() throws IOException {
    Path segment = write();
    byte[] bytes = Files.readAllBytes(segment);
    int headerEnd = records(bytes).get(0).offset() + records(bytes).get(0).length();
    bytes[batchAt(bytes, 2) + Framing.OVERHEAD + 5] ^= 0x10;
    Files.write(segment, bytes);

    RecoveredJournal r =
        RecoveredJournal.read(dir, CONFIG, new Recovery.Discard("journal-0.log", headerEnd));
    assertThat(r.core().digest()).as("no snapshot: the empty DVM").isEqualTo(digests.get(0));
  }

  @Test
  void aDamagedLengthWithWholeRecordsAfterItIsDamageToo() throws IOException {
    Path segment = write();
    byte[] bytes = Files.readAllBytes(segment);
    int release = batchAt(bytes, 2);
    bytes[release] = 0x7f; // the length now says far more than the file holds: a torn record?
    Files.write(segment, bytes);

    assertThatThrownBy(() -> RecoveredJournal.read(dir, CONFIG))
        .isInstanceOf(Recovery.Damaged.class)
        .hasMessageContaining("damaged at byte " + release);
  }

  @Test
  void aFlipInTheLastRecordIsATornTailAndStillCut() throws IOException {
    Path segment = write();
    byte[] bytes = Files.readAllBytes(segment);
    Framing.Slice tail = records(bytes).getLast(); // the close's dispatched mark
    int last = tail.offset() - Framing.OVERHEAD;
    bytes[tail.offset()] ^= 0x10;
    Files.write(segment, bytes);

    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    assertThat(r.core().digest()).isEqualTo(digests.get(6));
    assertThat(Files.size(segment)).isEqualTo(last);
  }

  @Test
  void damageInASegmentThatOthersFollowIsRefusedWhereverInItItLies() throws IOException {
    Path segment = write();
    Core core = RecoveredJournal.read(dir, CONFIG).core();
    try (Journal j =
        new Journal(
            dir,
            FsyncPolicy.NEVER,
            Long.MAX_VALUE,
            core,
            CONFIG,
            RecoveredJournal.read(dir, CONFIG))) {
      run(core, j, new Request.RegisterTool(new RequestId(++request), null));
    }
    assertThat(names(dir)).contains("journal-0.log", "journal-6.log");
    byte[] bytes = Files.readAllBytes(segment);
    int last = batchAt(bytes, 5);
    bytes[last + Framing.OVERHEAD + 5] ^= 0x10; // the first segment's last record
    Files.write(segment, bytes);

    assertThatThrownBy(() -> RecoveredJournal.read(dir, CONFIG))
        .isInstanceOf(Recovery.Damaged.class)
        .hasMessageContaining("journal-0.log is damaged at byte " + last)
        .hasMessageContaining("later segments follow it");
  }

  @Test
  void aDiscardPointThatNamesNoSegmentIsRefused() throws IOException {
    write();
    assertThatThrownBy(
            () -> RecoveredJournal.read(dir, CONFIG, new Recovery.Discard("journal-9.log", 0)))
        .isInstanceOf(Recovery.Unrecoverable.class)
        .hasMessageContaining("journal-9.log");
    assertThatThrownBy(() -> Recovery.Discard.parse("journal-0.log"))
        .hasMessageContaining("SEGMENT:BYTE");
    assertThat(Recovery.Discard.parse("journal-0.log:12"))
        .isEqualTo(new Recovery.Discard("journal-0.log", 12));
  }
}
