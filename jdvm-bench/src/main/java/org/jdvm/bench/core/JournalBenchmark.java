package org.jdvm.bench.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.CoreConfig;
import org.jdvm.server.journal.FsyncPolicy;
import org.jdvm.server.journal.Journal;
import org.jdvm.server.journal.RecoveredJournal;

/**
 * Measures the journal (docs/journal.md): building a state of 10,000 reservations and 100,000 live
 * one-process jobs through {@code handle} with and without journaling every outcome (the journal's
 * CPU and write cost per command), recovering that state from the journal alone, the snapshot's
 * size and the time to take it, and recovering from the snapshot. Reported, not asserted.
 *
 * <p>Run: {@code java -Xmx2g -cp 'jdvm-bench/target/classes:jdvm-bench/target/lib/*'
 * org.jdvm.bench.core.JournalBenchmark}
 */
public final class JournalBenchmark {
  static final int TOOLS = 100;
  static final int ALLOCATIONS = 10_000;
  static final int JOBS = 100_000;

  private JournalBenchmark() {}

  public static void main(String[] args) throws Exception {
    CoreConfig config = CoreConfig.of("bench", Fixtures.nodes(ALLOCATIONS + 4_000, 16));
    build(new Fixtures(config)); // warm-up
    long plain = build(new Fixtures(config));
    Path dir = Files.createTempDirectory("jdvm-journal-bench-");
    try {
      Fixtures journaled = new Fixtures(config);
      buildJournaled(dir, config, journaled, plain);
      RecoveredJournal fromLog = recoverFromLog(dir, config, journaled);
      snapshot(dir, config, fromLog);
      long t0 = System.nanoTime();
      RecoveredJournal fromSnapshot = RecoveredJournal.read(dir, config);
      long restoreNs = System.nanoTime() - t0;
      System.out.printf(
          "recovery from the snapshot: %.0f ms (snapshot %d, %d batches after it)%n",
          restoreNs / 1e6, fromSnapshot.snapshotSeq(), fromSnapshot.batches());
      check(journaled.core.digest(), fromSnapshot.core().digest());
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * Builds the state in {@code journaled} with every outcome journaled into {@code dir}, and
   * reports its cost beside the {@code plain} build's nanoseconds.
   */
  private static void buildJournaled(Path dir, CoreConfig config, Fixtures journaled, long plain)
      throws Exception {
    try (Journal journal =
        new Journal(
            dir,
            FsyncPolicy.NEVER,
            Long.MAX_VALUE,
            journaled.core,
            config,
            RecoveredJournal.fresh(config))) {
      long[] count = new long[1];
      journaled.observer =
          (c, o) -> {
            journal.record(c, o, 0);
            journal.commit();
            journal.dispatched();
            count[0]++;
          };
      long withJournal = build(journaled);
      long commands = count[0];
      long journalBytes = size(dir);
      System.out.printf(
          "state: %,d allocations, %,d jobs, %,d commands%n",
          journaled.core.view().allocations().size(),
          journaled.core.view().jobs().size(),
          commands);
      System.out.printf(
          "build through handle(): %.0f ms plain, %.0f ms journaled (fsync never):"
              + " +%.2f us per command, journal %,d bytes (%.0f bytes per command)%n",
          plain / 1e6,
          withJournal / 1e6,
          (withJournal - plain) / 1e3 / commands,
          journalBytes,
          journalBytes / (double) commands);
    }
  }

  /** Recovers the state from the journal alone, checked against {@code journaled}'s. */
  private static RecoveredJournal recoverFromLog(Path dir, CoreConfig config, Fixtures journaled)
      throws Exception {
    long t0 = System.nanoTime();
    RecoveredJournal fromLog = RecoveredJournal.read(dir, config);
    long replayNs = System.nanoTime() - t0;
    System.out.printf(
        "recovery from the journal alone: %,d batches in %.0f ms (%.2f us per batch)%n",
        fromLog.batches(), replayNs / 1e6, replayNs / 1e3 / fromLog.batches());
    check(journaled.core.digest(), fromLog.core().digest());
    return fromLog;
  }

  /** The snapshot of the recovered state: its size, the time to make it and to take it. */
  private static void snapshot(Path dir, CoreConfig config, RecoveredJournal fromLog)
      throws Exception {
    long t0 = System.nanoTime();
    byte[] snapshot = fromLog.core().snapshot();
    long snapNs = System.nanoTime() - t0;
    try (Journal again = new Journal(dir, FsyncPolicy.NEVER, 1, fromLog.core(), config, fromLog)) {
      t0 = System.nanoTime();
      again.snapshot();
      long takeNs = System.nanoTime() - t0;
      again.close();
      System.out.printf(
          "snapshot: %,d bytes (%.0f bytes per job), state to bytes %.0f ms,"
              + " controller paused %.0f ms (file written in the background)%n",
          snapshot.length, snapshot.length / (double) JOBS, snapNs / 1e6, takeNs / 1e6);
    }
  }

  private static void check(String want, String got) {
    if (!want.equals(got)) {
      throw new IllegalStateException("the recovered state differs");
    }
  }

  private static long size(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      long total = 0;
      for (Path p : s.toList()) {
        total += Files.size(p);
      }
      return total;
    }
  }

  /** Builds the state; returns the nanoseconds it took. */
  private static long build(Fixtures dvm) {
    long start = System.nanoTime();
    List<String> tools = new ArrayList<>();
    List<String> allocs = new ArrayList<>();
    for (int t = 0; t < TOOLS; t++) {
      tools.add(dvm.tool());
    }
    for (int a = 0; a < ALLOCATIONS; a++) {
      allocs.add(
          dvm.reserve(
              tools.get(a % TOOLS),
              org.jdvm.pmix.AllocInheritance.DEFAULT.code(),
              List.of("n" + (a + 1))));
    }
    for (int j = 0; j < JOBS; j++) {
      dvm.spawnLaunched(tools.get(j % TOOLS), j % 2 == 0 ? allocs.get(j % ALLOCATIONS) : null);
    }
    return System.nanoTime() - start;
  }
}
