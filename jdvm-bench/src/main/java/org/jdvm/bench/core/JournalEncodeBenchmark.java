package org.jdvm.bench.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.Role;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.Framing;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;
import org.jdvm.scheduler.EmbeddedScheduler;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerNotes;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmLogging;
import org.jdvm.server.journal.FsyncPolicy;
import org.jdvm.server.journal.Recovering;

/**
 * What encoding the journal's records costs (docs/journal.md "Benchmarks"), piece by piece: an
 * embedded DVM serves NEW+RELEASE round trips with its journal on, its segments are read back, and
 * the entries it wrote — the batches of NEW, grant and RELEASE, the embedded scheduler's saved
 * state and its answers — are encoded again in a loop: the whole framed batch as the journal writes
 * it, the payload alone, the CRC32C alone, building the batch record, and the scheduler's notes.
 * Reported in nanoseconds per item (the best of several timed passes), not asserted.
 *
 * <p>Run: {@code java -cp 'jdvm-bench/target/classes:jdvm-bench/target/lib/*'
 * org.jdvm.bench.core.JournalEncodeBenchmark [ROUND_TRIPS]} (default 200).
 */
public final class JournalEncodeBenchmark {
  static final int PASSES = 15;

  private JournalEncodeBenchmark() {}

  public static void main(String[] args) throws Exception {
    int roundTrips = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    Recorded r = record(roundTrips);
    Bytes.Out scratch = new Bytes.Out(1 << 12);
    describe(r, scratch);
    long[] sink = new long[1];
    encodeBatches(r.batches(), scratch, sink);
    checksumAndBuildBatches(r.batches(), scratch, sink);
    encodeSchedulerNotes(r, scratch, sink);
    System.out.println("(sink " + sink[0] + ")");
  }

  /** What an embedded DVM's journal held: its batches and the scheduler's notes in them. */
  private record Recorded(
      List<Entry.Batch> batches,
      List<EmbeddedScheduler.Saved> saved,
      List<SchedulerEvent> answers) {}

  /** {@code roundTrips} NEW+RELEASE round trips served by a DVM, as its journal recorded them. */
  private static Recorded record(int roundTrips) throws Exception {
    Path home = Files.createTempDirectory("jdvm-journal-encode-");
    Recorded r = new Recorded(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    try {
      DvmLogging.configure(home.resolve("dvm.log"), false);
      DvmLogging.quiet();
      Path dvmHome = Files.createDirectories(home.resolve("dvm"));
      try (DvmServer server =
              DvmServer.start(
                  DvmConfig.embedded("enc", 4, 16, 8, dvmHome).withFsync(FsyncPolicy.NEVER));
          JdvmClient c =
              JdvmClient.connector()
                  .contact(Contact.fromFile(dvmHome.resolve(Contact.CONTACT_FILE)))
                  .role(Role.TOOL)
                  .output(OutputHandler.DISCARD)
                  .connect()) {
        for (int k = 0; k < roundTrips; k++) {
          AllocationResult res = c.allocate(AllocationRequest.newAllocation().nodes(1).build());
          c.allocate(AllocationRequest.release().allocId(res.allocId()).build());
        }
        // Read while the DVM runs: a clean stop removes its journal.
        readJournal(dvmHome, r);
      }
    } finally {
      try (Stream<Path> s = Files.walk(home)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
    return r;
  }

  /** The batches of the journal segments under {@code dvmHome}, and their scheduler notes. */
  private static void readJournal(Path dvmHome, Recorded into) throws Exception {
    try (Stream<Path> s = Files.walk(dvmHome)) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (!name.startsWith("journal-") || !name.endsWith(".log")) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(p);
        for (Framing.Slice slice : Framing.scan(bytes, bytes.length).records()) {
          if (JournalCodec.decode(bytes, slice) instanceof Entry.Batch b) {
            into.batches().add(b);
            for (Entry.Note n : b.notes()) {
              if (n.kind().equals(SchedulerNotes.EMBEDDED_SCHEDULER)) {
                into.saved()
                    .add(
                        (EmbeddedScheduler.Saved)
                            RecordCodec.read(
                                new Bytes.In(n.value()), EmbeddedScheduler.Saved.class));
              } else if (n.kind().equals(SchedulerNotes.SCHEDULER_ANSWER) && n.value().length > 0) {
                into.answers()
                    .add(
                        (SchedulerEvent)
                            RecordCodec.read(new Bytes.In(n.value()), SchedulerEvent.class));
              }
            }
          }
        }
      }
    }
  }

  /** How many items there are and, with {@code -Dshapes}, what the first batches hold. */
  private static void describe(Recorded r, Bytes.Out scratch) {
    List<Entry.Batch> batches = r.batches();
    long payloadBytes = 0;
    for (Entry.Batch b : batches) {
      scratch.reset();
      JournalCodec.encode(b, scratch);
      payloadBytes += scratch.size();
    }
    System.out.printf(
        Locale.ROOT,
        "%d batches (%.0f payload bytes each), %d scheduler states, %d answers%n",
        batches.size(),
        payloadBytes / (double) batches.size(),
        r.saved().size(),
        r.answers().size());
    if (System.getProperty("shapes") != null) {
      for (Entry.Batch b : batches.subList(0, Math.min(12, batches.size()))) {
        System.out.println(
            b.changes().stream().map(x -> x.getClass().getSimpleName()).toList()
                + " "
                + b.effects().stream().map(x -> x.getClass().getSimpleName()).toList()
                + " "
                + b.notes().stream().map(n -> n.kind() + ":" + n.value().length).toList());
      }
      System.out.println(r.saved().get(r.saved().size() - 1));
    }
  }

  /** The batches framed as the journal writes them, their payloads alone, the generic writer. */
  private static void encodeBatches(List<Entry.Batch> batches, Bytes.Out scratch, long[] sink) {
    Bytes.Out out = new Bytes.Out(1 << 14);
    report(
        "batch framed (as the journal writes it)",
        batches.size(),
        () -> {
          for (Entry.Batch b : batches) {
            out.reset();
            JournalCodec.frame(b, out);
            sink[0] += out.size();
          }
        });
    report(
        "batch payload encode only",
        batches.size(),
        () -> {
          for (Entry.Batch b : batches) {
            scratch.reset();
            JournalCodec.encode(b, scratch);
            sink[0] += scratch.size();
          }
        });
    report(
        "batch payload encode, generic writer",
        batches.size(),
        () -> {
          for (Entry.Batch b : batches) {
            scratch.reset();
            RecordCodec.writeGeneric(scratch, Entry.class, b);
            sink[0] += scratch.size();
          }
        });
  }

  /** The CRC32C of the batches' payloads alone, and building the batch records alone. */
  private static void checksumAndBuildBatches(
      List<Entry.Batch> batches, Bytes.Out scratch, long[] sink) {
    byte[][] payloads = new byte[batches.size()][];
    for (int i = 0; i < payloads.length; i++) {
      scratch.reset();
      JournalCodec.encode(batches.get(i), scratch);
      payloads[i] = scratch.toByteArray();
    }
    report(
        "batch payload CRC32C only",
        batches.size(),
        () -> {
          for (byte[] p : payloads) {
            sink[0] += Framing.crc(p, 0, p.length);
          }
        });
    report(
        "batch record construction",
        batches.size(),
        () -> {
          for (Entry.Batch b : batches) {
            sink[0] +=
                new Entry.Batch(
                        b.seq(),
                        b.nowNs(),
                        b.wallMillis(),
                        b.lastRequestId(),
                        b.changes(),
                        b.effects(),
                        b.notes())
                    .seq();
          }
        });
  }

  /** The embedded scheduler's saved states and answers encoded, and its step's notes built. */
  private static void encodeSchedulerNotes(Recorded r, Bytes.Out scratch, long[] sink) {
    List<EmbeddedScheduler.Saved> saved = r.saved();
    List<SchedulerEvent> answers = r.answers();
    report(
        "scheduler Saved encode",
        saved.size(),
        () -> {
          for (EmbeddedScheduler.Saved s : saved) {
            scratch.reset();
            RecordCodec.write(scratch, EmbeddedScheduler.Saved.class, s);
            sink[0] += scratch.size();
          }
        });
    report(
        "scheduler Saved encode, generic writer",
        saved.size(),
        () -> {
          for (EmbeddedScheduler.Saved s : saved) {
            scratch.reset();
            RecordCodec.writeGeneric(scratch, EmbeddedScheduler.Saved.class, s);
            sink[0] += scratch.size();
          }
        });
    report(
        "scheduler step notes (Recovering.notes)",
        saved.size(),
        () -> {
          for (int i = 0; i < saved.size(); i++) {
            List<SchedulerEvent> step =
                i % 2 == 0 && i / 2 < answers.size() ? List.of(answers.get(i / 2)) : List.of();
            sink[0] += Recovering.notes(saved.get(i), step).size();
          }
        });
    report(
        "scheduler answer encode",
        answers.size(),
        () -> {
          for (SchedulerEvent a : answers) {
            scratch.reset();
            RecordCodec.write(scratch, SchedulerEvent.class, a);
            sink[0] += scratch.size();
          }
        });
  }

  /** Runs {@code pass} until warm, then reports the best of {@link #PASSES} timed passes. */
  private static void report(String what, int items, Runnable pass) {
    long until = System.nanoTime() + 2_000_000_000L;
    while (System.nanoTime() < until) {
      pass.run();
    }
    long[] t = new long[PASSES];
    for (int k = 0; k < PASSES; k++) {
      long t0 = System.nanoTime();
      for (int rep = 0; rep < 20; rep++) {
        pass.run();
      }
      t[k] = System.nanoTime() - t0;
    }
    Arrays.sort(t);
    System.out.printf(
        Locale.ROOT,
        "%-42s best %8.1f ns  median %8.1f ns per item%n",
        what,
        t[0] / 20.0 / items,
        t[PASSES / 2] / 20.0 / items);
  }
}
