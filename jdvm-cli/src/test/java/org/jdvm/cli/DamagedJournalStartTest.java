package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.core.Change;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.Framing;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "A damaged journal", end to end: a byte flipped in the record of a release, in
 * the middle of a segment, stops {@code jdvm start} (exit status 1) with a message naming the
 * segment, the offset and both ways on, and nothing is replayed; {@code --discard-journal-after} as
 * the message names it then starts the DVM from the good prefix (the allocation the damaged release
 * let go is back, since its release is what was given up).
 */
class DamagedJournalStartTest {
  @TempDir Path first;
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void endWhatThisTestStarted() throws Exception {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aDamagedReleaseStopsTheStartWithTheWaysOnAndTheDiscardStartsFromTheGoodPrefix()
      throws Exception {
    try (DvmServer a = DvmServer.start(DvmConfig.embedded("dmg", 2, 2, 4, first));
        JdvmClient tool = JdvmClient.connector().dir(first).connect()) {
      tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("kept").build());
      tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("gone").build());
      tool.allocate(AllocationRequest.release().reqId("gone").build());
      tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("later").build());
      assertThat(Listings.list(tool.allocsJson())).hasSize(2);
      // What a kill -9 would leave: the bytes are in the file before any effect runs.
      Files.createDirectories(dir.resolve("journal"));
      try (Stream<Path> s = Files.list(first.resolve("journal"))) {
        for (Path p : s.toList()) {
          Files.copy(p, dir.resolve("journal").resolve(p.getFileName()));
        }
      }
    }
    Path segment = dir.resolve("journal/journal-0.log");
    byte[] bytes = Files.readAllBytes(segment);
    int release = releaseAt(bytes);
    bytes[release + Framing.OVERHEAD + 3] ^= 0x01;
    Files.write(segment, bytes);

    Process refused = start();
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String err = new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(refused.exitValue()).as(err).isEqualTo(1);
    assertThat(err)
        .contains("jdvm start: journal segment journal-0.log is damaged at byte " + release)
        .contains("--discard-journal-after journal-0.log:" + release)
        .contains("last good snapshot")
        .doesNotContain("Exception");
    assertThat(Files.readAllBytes(segment)).as("nothing replayed, nothing cut").isEqualTo(bytes);

    start("--discard-journal-after", "journal-0.log:" + release);
    Listings.until(() -> connects(), "the DVM to accept connections", 60);
    try (JdvmClient look = JdvmClient.connector().dir(dir).connect()) {
      List<Object> reqIds = new ArrayList<>();
      for (Map<String, Object> m : Listings.list(look.allocsJson())) {
        reqIds.add(m.get("reqId"));
      }
      assertThat(reqIds).containsExactlyInAnyOrder("kept", "gone");
      look.stopDvm();
    }
    assertThat(Files.readAllBytes(dir.resolve("journal/journal-0.log.corrupt"))).isEqualTo(bytes);
  }

  /** Where the batch that ended an allocation starts. */
  private static int releaseAt(byte[] bytes) {
    for (Framing.Slice s : Framing.scan(bytes, bytes.length).records()) {
      if (JournalCodec.decode(bytes, s) instanceof Entry.Batch b
          && b.changes().stream().anyMatch(c -> c instanceof Change.AllocationEnded)) {
        return s.offset() - Framing.OVERHEAD;
      }
    }
    throw new AssertionError("no release in the journal");
  }

  private boolean connects() {
    try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
      return c.self() != null;
    } catch (PmixException e) {
      return false;
    }
  }

  private Process start(String... more) throws Exception {
    List<String> cmd =
        ChildJdvm.command(
            "start", "--dir", dir.toString(), "--nodes", "2", "--slots", "2", "--name", "dmg");
    cmd.addAll(List.of(more));
    ProcessBuilder b = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    if (more.length > 0) {
      b.redirectError(ProcessBuilder.Redirect.DISCARD); // it runs on: nobody reads its stderr
    }
    Process p = b.start();
    started.add(p);
    return p;
  }
}
