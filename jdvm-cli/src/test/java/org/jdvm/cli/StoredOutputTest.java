package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.JobEnd;
import org.jdvm.client.OutputReplay;
import org.jdvm.client.PmixException;
import org.jdvm.endpoint.deliver.OutputStore;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm output JOB [--follow]} (docs/cli.md "jdvm output") and the usage {@code jdvm jobs}
 * shows (docs/cli.md "jdvm nodes | allocs | jobs"), against a DVM that keeps 64 KiB of output per
 * job and 128 KiB in all, so the bounds are reached with small jobs.
 */
class StoredOutputTest {
  @TempDir static Path dir;
  private static DvmServer server;
  private static Set<Long> jobPids = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void startDvm() throws Exception {
    server =
        DvmServer.start(
            DvmConfig.embedded("stored", 2, 2, 0, dir)
                .withShrinkGrace(300)
                .keepingOutput(new OutputStore.Bounds(64 << 10, 128 << 10)));
    jobPids = StoppedReader.watchJobPids(server);
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  @AfterEach
  void endWhatThisTestStarted() {
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    jobPids.clear();
  }

  @Test
  void aFinishedDetachedJobsOutputIsReplayedWithEachLineLabelledByItsRank() throws Exception {
    String ns = detached("-n", "2", "--", "sh", "-c", "echo hello-$PMIX_RANK; echo oops >&2");
    awaitEnded(ns);
    CliRun r = CliRun.of("output", "--dir", dir.toString(), ns);
    assertThat(r.status()).as(r.err()).isZero();
    String job = ns.substring(ns.lastIndexOf('@') + 1);
    assertThat(r.out())
        .contains("[" + job + ",0]<stdout>: hello-0\n", "[" + job + ",1]<stdout>: hello-1\n");
    assertThat(r.err())
        .contains("[" + job + ",0]<stderr>: oops\n", "[" + job + ",1]<stderr>: oops\n")
        .doesNotContain("truncated");
  }

  @Test
  void followingARunningJobGoesOnUntilItEndsAndGivesItsStatus() throws Exception {
    Path gate = dir.resolve("gate-" + System.nanoTime());
    String ns =
        detached(
            "--",
            "sh",
            "-c",
            "echo first; while [ ! -e " + gate + " ]; do sleep 0.05; done; echo second; exit 3");
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    try (JdvmClient c =
        JdvmClient.connector()
            .dir(dir)
            .output(
                (source, stderr, bytes) -> {
                  synchronized (seen) {
                    seen.write(bytes, 0, bytes.length);
                  }
                })
            .connect()) {
      Listings.until(() -> text(seen).isEmpty() && replayHas(c, ns, "first"), "first line", 30);
      OutputReplay r = c.replayOutput(ns, true);
      assertThat(r.end()).as("the job waits for its gate: still running").isNotDone();
      Files.createFile(gate);
      JobEnd end = r.end().get(30, TimeUnit.SECONDS);
      c.delivered().get(10, TimeUnit.SECONDS);
      assertThat(end.exitCode()).isEqualTo(3);
      String job = ns.substring(ns.lastIndexOf('@') + 1);
      assertThat(text(seen))
          .containsOnlyOnce("[" + job + ",0]<stdout>: first\n")
          .containsOnlyOnce("[" + job + ",0]<stdout>: second\n");
    }
    // The command's own exit status is the job's, once it has ended too.
    CliRun again = CliRun.of("output", "--dir", dir.toString(), ns, "--follow");
    assertThat(again.status()).as(again.err()).isEqualTo(3);
    assertThat(again.out()).contains("first", "second");
  }

  @Test
  void aJobPastItsBoundKeepsItsNewestOutputAndSaysWhatWasDropped() throws Exception {
    String ns = detached("--", "seq", "1", "40000"); // 228,894 bytes, past 64 KiB
    awaitEnded(ns);
    CliRun r = CliRun.of("output", "--dir", dir.toString(), ns);
    assertThat(r.status()).as(r.err()).isZero();
    String job = ns.substring(ns.lastIndexOf('@') + 1);
    assertThat(r.out()).endsWith("[" + job + ",0]<stdout>: 40000\n");
    // The newest whole lines, consecutive, within 64 KiB and within a line of it.
    String[] lines = r.out().split("\n");
    long kept = 0;
    int first = Integer.parseInt(lines[0].substring(lines[0].indexOf(": ") + 2));
    for (int i = 0; i < lines.length; i++) {
      String value = lines[i].substring(lines[i].indexOf(": ") + 2);
      assertThat(value).isEqualTo(Integer.toString(first + i));
      kept += value.length() + 1;
    }
    // Each kept piece also counts 64 bytes, and how the pipe's reads cut the output into pieces
    // depends on the machine's load (a clean-clone run kept 65,214 bytes, another 65,336 or more):
    // within the bound, and at least what one-line pieces would keep (6 + 64 bytes a line).
    assertThat(kept).isBetween(4L << 10, 64L << 10);
    assertThat(r.err())
        .contains("output truncated: " + (228894 - kept) + " bytes dropped")
        .contains(" of 228894 written");
  }

  @Test
  void pastTheTotalBoundTheOldestJobsOutputGoesFirst() throws Exception {
    // 48,894 bytes each: within a job's 64 KiB, three of them past the 128 KiB of all jobs.
    String a = detached("--", "seq", "1", "10000");
    awaitEnded(a);
    String b = detached("--", "seq", "1", "10000");
    awaitEnded(b);
    String c = detached("--", "seq", "1", "10000");
    awaitEnded(c);
    assertThat(CliRun.of("output", "--dir", dir.toString(), a).err()).contains("truncated");
    assertThat(CliRun.of("output", "--dir", dir.toString(), c).err()).doesNotContain("truncated");
    assertThat(CliRun.of("output", "--dir", dir.toString(), c).out()).contains("<stdout>: 1\n");
  }

  @Test
  void aJobTheDvmDoesNotKnowIsRefusedNotFound() {
    CliRun r = CliRun.of("output", "--dir", dir.toString(), "stored@999");
    assertThat(r.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err()).contains("PMIX_ERR_NOT_FOUND");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void aProcessThatBurnsCpuShowsItsCpuTimeAndPeakMemory() throws Exception {
    // Past the peak of this JVM (where the DVM runs), whose own the kernel reports for a child
    // born sharing its memory; then some tenths of a second of CPU.
    long bytes = (org.jdvm.host.os.Posix.selfMaxRssKiB() + (128 << 10)) * 1024;
    CliRun run =
        CliRun.of(
            "run",
            "--dir",
            dir.toString(),
            "--",
            "perl",
            "-e",
            "my $x = 'x' x " + bytes + "; my $i = 0; $i++ while $i < 3000000;");
    assertThat(run.status()).as(run.err()).isZero();
    try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
      Map<String, Object> job = null;
      for (Map<String, Object> j : Listings.jobs(c)) {
        if ("application".equals(j.get("kind"))) {
          job = j; // the newest application job is this run's
        }
      }
      assertThat(job).isNotNull();
      @SuppressWarnings("unchecked")
      Map<String, Object> proc = ((List<Map<String, Object>>) job.get("procs")).get(0);
      @SuppressWarnings("unchecked")
      Map<String, Object> used = (Map<String, Object>) proc.get("usage");
      assertThat(used).as(job.toString()).isNotNull();
      long cpu =
          ((Number) used.get("userCpuMicros")).longValue()
              + ((Number) used.get("systemCpuMicros")).longValue();
      assertThat(cpu).isPositive();
      assertThat(((Number) used.get("maxRssKiB")).longValue()).isGreaterThanOrEqualTo(bytes / 1024);
      assertThat(((Number) used.get("wallMicros")).longValue()).isPositive();
      assertThat(job.get("usage")).isNotNull();
    }
    assertThat(CliRun.of("jobs", "--dir", dir.toString()).out()).contains("USAGE", "cpu ");
  }

  private static boolean replayHas(JdvmClient c, String ns, String text) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (JdvmClient probe =
        JdvmClient.connector()
            .dir(dir)
            .output((source, stderr, bytes) -> b.write(bytes, 0, bytes.length))
            .connect()) {
      probe.replayOutput(ns, false);
      probe.delivered().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return b.toString(java.nio.charset.StandardCharsets.UTF_8).contains(text);
  }

  private static String text(ByteArrayOutputStream b) {
    synchronized (b) {
      return b.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static String detached(String... args) {
    List<String> all =
        new java.util.ArrayList<>(List.of("run", "--dir", dir.toString(), "--detach"));
    all.addAll(List.of(args));
    CliRun r = CliRun.of(all.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    // The namespace alone: none of the job's output, which is the DVM's to keep (it printed what
    // arrived before it returned, a quick job's first lines, before jdvm output existed).
    assertThat(r.out()).matches("stored@[0-9]+\n");
    return r.out().strip();
  }

  private static void awaitEnded(String ns) throws InterruptedException, PmixException {
    try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
      Listings.until(
          () -> "terminated".equals(Listings.jobOf(c, ns).get("state")), ns + " to end", 30);
    }
  }
}
