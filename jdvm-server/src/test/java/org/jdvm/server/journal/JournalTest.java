package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.core.journal.Entry;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.Proc;
import org.jdvm.scheduler.SchedulerNotes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Files", "Recovery": the journal on disk, recovered by {@link RecoveredJournal}:
 * every batch comes back, a torn tail is cut on disk, a corrupt snapshot falls back to the journal,
 * effects executed again after a recovery are not executed a third time, and a clean stop leaves
 * nothing to recover.
 */
class JournalTest {
  private static final CoreConfig CONFIG =
      CoreConfig.of("jt", List.of(new NodeSpec("n0", 4), new NodeSpec("n1", 4)));

  @TempDir Path dir;
  private long request;

  private Outcome run(Core core, Journal journal, Command c) {
    Outcome o = core.handle(c, 0);
    journal.record(c, o, 0);
    journal.commit();
    journal.dispatched();
    return o;
  }

  /** A tool that reserves n1, and returns the tool's namespace. */
  private String work(Core core, Journal journal) {
    Outcome reg = run(core, journal, new Request.RegisterTool(new RequestId(++request), null));
    String tool = ((org.jdvm.core.Change.NamespaceRegistered) reg.changes().get(0)).namespace();
    run(
        core,
        journal,
        Request.Allocate.builder(new RequestId(++request), new Proc(tool, 0), AllocDirective.NEW)
            .nodeList(List.of("n1"))
            .build());
    return tool;
  }

  private Journal open(Core core, RecoveredJournal r) throws IOException {
    return new Journal(dir, FsyncPolicy.NEVER, Long.MAX_VALUE, core, CONFIG, r);
  }

  /**
   * The journal holds what jobs were spawned with, environment included: each of its files is its
   * owner's only, whatever the directory's mode (docs/journal.md "Files"), and a file an older DVM
   * left readable is made so when the journal opens.
   */
  @Test
  void everyJournalFileIsItsOwnersOnly() throws Exception {
    Files.createDirectories(dir);
    Path old = dir.resolve("snapshot-0.snap");
    Files.write(old, new byte[] {1});
    Files.setPosixFilePermissions(
        old, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    Core core = new Core(CONFIG);
    try (Journal j = open(core, RecoveredJournal.fresh(CONFIG))) {
      work(core, j);
      j.snapshot();
      work(core, j);
    }
    List<String> modes = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        modes.add(
            f.getFileName()
                + " "
                + java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(f)));
      }
    }
    assertThat(modes).hasSizeGreaterThanOrEqualTo(3).allMatch(m -> m.endsWith(" rw-------"));
  }

  /**
   * A snapshot is taken by journal size as well as by count, so the replay after a crash is bounded
   * by bytes, not only by batches (docs/journal.md "Snapshots").
   */
  @Test
  void aSnapshotIsTakenOnceEnoughBytesWereWrittenWhateverTheCount() throws Exception {
    Core core = new Core(CONFIG);
    try (Journal j =
        new Journal(
            dir,
            FsyncPolicy.NEVER,
            Long.MAX_VALUE,
            1024,
            core,
            CONFIG,
            RecoveredJournal.fresh(CONFIG))) {
      for (int i = 0; i < 40; i++) {
        run(core, j, new Request.RegisterTool(new RequestId(++request), null));
      }
    }
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("40 batches pass 1 KiB")
          .anyMatch(n -> n.startsWith("snapshot-"));
    }
    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    assertThat(r.core().digest()).isEqualTo(core.digest());
  }

  @Test
  void everyBatchComesBackAndTheRequestIdsGoOnAboveTheLastSeen() throws IOException {
    Core core = new Core(CONFIG);
    try (Journal j = open(core, RecoveredJournal.fresh(CONFIG))) {
      work(core, j);
      work(core, j);
    }
    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    assertThat(r.found()).isTrue();
    assertThat(r.batches()).isEqualTo(3); // two registrations and one reservation; n1 is taken
    assertThat(r.core().digest()).isEqualTo(core.digest());
    // The refused second reservation (request 4) wrote no batch: it was answered at once, so no
    // late reply to it can exist; every request that waits has a batch with its id.
    assertThat(r.lastRequestId()).isEqualTo(3);
  }

  @Test
  void aTornTailIsCutOnDiskAndTheRestRecovered() throws IOException {
    Core core = new Core(CONFIG);
    String before;
    try (Journal j = open(core, RecoveredJournal.fresh(CONFIG))) {
      work(core, j);
      before = core.digest();
      run(core, j, new Request.RegisterTool(new RequestId(++request), null));
    }
    Path segment = only("journal-");
    byte[] bytes = Files.readAllBytes(segment);
    org.jdvm.core.journal.Framing.Slice last = null;
    for (org.jdvm.core.journal.Framing.Slice sl :
        org.jdvm.core.journal.Framing.scan(bytes, bytes.length).records()) {
      if (org.jdvm.core.journal.JournalCodec.decode(bytes, sl)
          instanceof org.jdvm.core.journal.Entry.Batch) {
        last = sl;
      }
    }
    long tornAt = last.offset() + last.length() / 2;
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      ch.truncate(tornAt); // the last batch torn in its middle
    }
    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    assertThat(r.core().digest()).isEqualTo(before);
    assertThat(Files.size(segment))
        .isEqualTo(last.offset() - org.jdvm.core.journal.Framing.OVERHEAD);
    assertThat(RecoveredJournal.read(dir, CONFIG).core().digest()).isEqualTo(before);
  }

  @Test
  void aCorruptSnapshotFallsBackToTheJournalBeforeIt() throws Exception {
    Core core = new Core(CONFIG);
    try (Journal j = open(core, RecoveredJournal.fresh(CONFIG))) {
      work(core, j);
      j.snapshot();
      run(core, j, new Request.RegisterTool(new RequestId(++request), null));
    }
    Path snap = only("snapshot-");
    byte[] bytes = Files.readAllBytes(snap);
    bytes[bytes.length / 2] ^= 0x5A;
    Files.write(snap, bytes);
    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    assertThat(r.core().digest()).isEqualTo(core.digest());
    assertThat(r.snapshotSeq()).isEqualTo(-1);
    assertThat(Files.exists(snap.resolveSibling(snap.getFileName() + ".corrupt"))).isTrue();
  }

  @Test
  void effectsExecutedAgainAfterARecoveryAreMarkedDispatchedByTheNextWrite() throws IOException {
    Core core = new Core(CONFIG);
    Journal first = open(core, RecoveredJournal.fresh(CONFIG));
    String tool = work(core, first);
    Command c =
        Request.Allocate.builder(new RequestId(++request), new Proc(tool, 0), AllocDirective.NEW)
            .nodeCount(2) // more than is free: the scheduler is asked
            .build();
    Outcome o = core.handle(c, 0);
    first.record(c, o, 0);
    first.commit(); // the controller dies before dispatching
    first.close();
    RecoveredJournal r = RecoveredJournal.read(dir, CONFIG);
    assertThat(r.undispatched()).isNotEmpty().isEqualTo(Entry.Batch.kept(o.effects()));
    try (Journal second = open(r.core(), r)) {
      run(r.core(), second, new Request.RegisterTool(new RequestId(++request), null));
    }
    assertThat(RecoveredJournal.read(dir, CONFIG).undispatched()).isEmpty();
    assertThat(tool).isNotNull();
  }

  @Test
  void notesForTheNextWriteRideWithItEvenWhenItsCommandChangesNothing() throws IOException {
    Core core = new Core(CONFIG);
    Entry.Note step = new Entry.Note(SchedulerNotes.EMBEDDED_SCHEDULER, "", new byte[] {7});
    try (Journal journal = open(core, RecoveredJournal.fresh(CONFIG))) {
      work(core, journal);
      journal.notesWithNextWrite(List.of(step));
      assertThat(RecoveredJournal.read(dir, CONFIG).notes())
          .doesNotContainKey(SchedulerNotes.EMBEDDED_SCHEDULER + "\u0000");
      // A command that only replies is not journaled, but the note goes out before its reply.
      Request c = new Request.RegisterTool(new RequestId(++request), null);
      Outcome onlyReply =
          new Outcome(
              List.of(),
              List.of(new org.jdvm.core.Effect.Reply(c.requestId(), 0, List.of())),
              null,
              Outcome.NO_DEADLINE);
      journal.record(c, onlyReply, 0);
      assertThat(RecoveredJournal.read(dir, CONFIG).notes())
          .containsKey(SchedulerNotes.EMBEDDED_SCHEDULER + "\u0000");
    }
  }

  @Test
  void aGroupsBatchesAreWrittenAtItsCommitWithANoteFromMeanwhileAfterThem() throws IOException {
    Core core = new Core(CONFIG);
    try (Journal journal = open(core, RecoveredJournal.fresh(CONFIG))) {
      long before = RecoveredJournal.read(dir, CONFIG).batches();
      recordATool(core, journal);
      recordATool(core, journal);
      // Held for the group's commit: nothing of it is in the file yet.
      assertThat(RecoveredJournal.read(dir, CONFIG).batches()).isEqualTo(before);
      // A note from another thread (a scheduler step) goes out at once, after the held batches.
      journal.note(new Entry.Note(SchedulerNotes.EMBEDDED_SCHEDULER, "", new byte[] {7}));
      RecoveredJournal mid = RecoveredJournal.read(dir, CONFIG);
      assertThat(mid.batches()).isEqualTo(before + 3);
      assertThat(mid.core().digest()).isEqualTo(core.digest());
      recordATool(core, journal);
      journal.commit();
      RecoveredJournal after = RecoveredJournal.read(dir, CONFIG);
      assertThat(after.batches()).isEqualTo(before + 4);
      assertThat(after.core().digest()).isEqualTo(core.digest());
      journal.dispatched();
    }
  }

  /** Records a tool's registration, as the controller does before the group's commit. */
  private void recordATool(Core core, Journal journal) {
    Request r = new Request.RegisterTool(new RequestId(++request), null);
    journal.record(r, core.handle(r, 0), 0);
  }

  @Test
  void notesForTheNextWriteAreWrittenAtCloseIfNoWriteCame() throws IOException {
    Core core = new Core(CONFIG);
    Entry.Note step = new Entry.Note(SchedulerNotes.EMBEDDED_SCHEDULER, "", new byte[] {7});
    try (Journal journal = open(core, RecoveredJournal.fresh(CONFIG))) {
      journal.notesWithNextWrite(List.of(step));
    }
    assertThat(RecoveredJournal.read(dir, CONFIG).notes())
        .containsKey(SchedulerNotes.EMBEDDED_SCHEDULER + "\u0000");
  }

  @Test
  void aJournalWhoseStartIsLostIsRefusedWithAMessageNotMisread() throws Exception {
    Core core = new Core(CONFIG);
    try (Journal j = open(core, RecoveredJournal.fresh(CONFIG))) {
      work(core, j);
      j.snapshot();
      run(core, j, new Request.RegisterTool(new RequestId(++request), null));
    }
    Files.delete(only("snapshot-"));
    Files.delete(dir.resolve("journal-0.log"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RecoveredJournal.read(dir, CONFIG))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the state before it is lost");
  }

  @Test
  void aCleanStopLeavesNothingToRecover() throws IOException {
    Core core = new Core(CONFIG);
    Journal j = open(core, RecoveredJournal.fresh(CONFIG));
    work(core, j);
    j.close(true);
    assertThat(RecoveredJournal.read(dir, CONFIG).found()).isFalse();
  }

  private Path only(String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> found =
          s.filter(p -> p.getFileName().toString().startsWith(prefix))
              .filter(p -> !p.toString().endsWith(".corrupt") && !p.toString().endsWith(".tmp"))
              .sorted()
              .toList();
      assertThat(found).isNotEmpty();
      return found.get(0);
    }
  }
}
