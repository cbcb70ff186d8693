package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain libpmix 4.2.2 wire-up programs for publish/lookup, connect and log (docs/wireup.md
 * §c.4–§c.6, §e) run as jobs of a real in-process DVM: every check line they print, from every
 * namespace they make, and their exit status. Skipped, saying why, only without gcc and
 * libpmix-dev.
 */
class PublishConnectLogProgramsTest {
  @TempDir static Path bin;
  @TempDir Path home;

  private static String skipped;

  @BeforeAll
  static void build() throws Exception {
    skipped =
        WireupPrograms.build(
            bin, "pmix_pubsub", "pmix_lookup_timeout", "pmix_connect", "pmix_log", "cconnect");
  }

  /** Runs {@code program} as a job of {@code n} processes; its end, bounded. */
  private static JobEnd run(JdvmClient tool, int n, String... argv) throws Exception {
    String[] cmd = argv.clone();
    cmd[0] = bin.resolve(argv[0]).toString();
    Job job = tool.spawn(SpawnRequest.of(List.of(cmd)).procs(n).notifyCompletion(true).build());
    return job.end().get(90, TimeUnit.SECONDS);
  }

  @Test
  void pubsubPublishesLooksUpAndUnpublishesAcrossTheNamespaceItSpawns() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 2, 2, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JobEnd end = run(t.tool(out), 1, "pmix_pubsub");
      List<String> lines = WireupPrograms.lines(out);
      assertThat(lines)
          .as("every check, from both jobs")
          .filteredOn(l -> l.startsWith("OK "))
          .hasSize(8);
      assertThat(lines).noneMatch(l -> l.startsWith("FAIL") || l.startsWith("TIMEOUT"));
      assertThat(lines)
          .anyMatch(l -> l.contains("child lookup wireup.ping SUCCESS"))
          .anyMatch(l -> l.contains("child publish wireup.pong SUCCESS"))
          .anyMatch(l -> l.contains("lookup wireup.pong again (first-read) NOT-FOUND"))
          .anyMatch(l -> l.contains("lookup wireup.ping after unpublish NOT-FOUND"));
      assertThat(end.exitCode()).isZero();
    }
  }

  @Test
  void aLookupOfAKeyNobodyPublishesIsNotFoundAtOnceAndTimesOutWhenItWaits() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JobEnd end = run(t.tool(out), 1, "pmix_lookup_timeout", "1");
      List<String> lines = WireupPrograms.lines(out);
      assertThat(lines)
          .filteredOn(l -> l.startsWith("OK "))
          .hasSize(3)
          .anyMatch(l -> l.contains("lookup nowait status=NOT-FOUND"))
          .anyMatch(l -> l.contains("lookup wait=bool status=TIMEOUT (-24)"))
          .anyMatch(l -> l.contains("lookup wait=int0 status=TIMEOUT (-24)"));
      assertThat(end.exitCode()).isZero();
    }
  }

  @Test
  void everyRankLogsToTheToolAsItsStandardErrorOpenMpisHelpTextIncluded() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient tool = t.tool(out);
      Job job =
          tool.spawn(
              SpawnRequest.of(bin.resolve("pmix_log").toString())
                  .procs(2)
                  .notifyCompletion(true)
                  .build());
      JobEnd end = job.end().get(60, TimeUnit.SECONDS);
      for (int rank = 0; rank < 2; rank++) {
        assertThat(out.of(job.nspace(), rank, false).lines().filter(l -> l.startsWith("OK ")))
            .hasSize(3);
        assertThat(out.of(job.nspace(), rank, true))
            .contains(
                "wireup log from rank " + rank + "\n",
                "wireup help text from rank " + rank + "\n",
                "wireup stamped log from rank " + rank + "\n");
      }
      assertThat(end.exitCode()).isZero();
    }
  }

  @Test
  void connectAcrossTwoJobsCarriesTheOtherJobsDataAndTheChildrenKnowTheirParent() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 2, 2, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient tool = t.tool(out);
      Job job =
          tool.spawn(
              SpawnRequest.of(bin.resolve("cconnect").toString(), "2")
                  .notifyCompletion(true)
                  .build());
      JobEnd end = job.end().get(60, TimeUnit.SECONDS);
      List<String> lines = WireupPrograms.lines(out);
      String child =
          lines.stream()
              .filter(l -> l.startsWith("SPAWN rc=0"))
              .map(l -> l.substring(l.lastIndexOf("value=") + 6))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no spawn in " + lines));
      assertThat(lines).noneMatch(l -> l.contains(" rc=-") || l.startsWith("TIMEOUT"));
      assertThat(lines).filteredOn(l -> l.startsWith("CONNECT rc=0")).hasSize(3);
      assertThat(lines).filteredOn(l -> l.startsWith("DISCONNECT rc=0")).hasSize(3);
      assertThat(lines)
          .filteredOn(l -> l.startsWith("OTHER_SIZE rc=0"))
          .extracting(l -> l.substring(l.lastIndexOf("value=") + 6))
          .containsExactlyInAnyOrder("2", "1", "1");
      assertThat(lines).filteredOn(l -> l.startsWith("OTHER_HOST rc=0")).hasSize(3);
      assertThat(lines)
          .filteredOn(l -> l.startsWith("PARENT rc=0"))
          .hasSize(2)
          .allMatch(l -> l.contains("ns=" + child) && l.endsWith("value=" + job.nspace() + ".0"));
      assertThat(end.exitCode()).isZero();
    }
  }

  /** The reference program: it also puts, commits, fences and gets, so it needs the modex. */
  @Test
  void pmixConnectPassesAcrossBothJobs() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 2, 2, 0)) {
      assumeTrue(WireupPrograms.modexServed(t), "needs the modex (FENCENB/GETNB)");
      TestDvm.Output out = new TestDvm.Output();
      JobEnd end = run(t.tool(out), 1, "pmix_connect", "2");
      List<String> lines = WireupPrograms.lines(out);
      assertThat(lines).noneMatch(l -> l.startsWith("FAIL") || l.startsWith("TIMEOUT"));
      assertThat(lines)
          .as("OK×18 under mpirun, docs/wireup.md §e")
          .filteredOn(l -> l.startsWith("OK "))
          .hasSize(18);
      assertThat(end.exitCode()).isZero();
    }
  }
}
