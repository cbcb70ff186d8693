package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.SpawnRequest;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listings of a DVM running a job of a few hundred processes (docs/cli.md "jdvm nodes | allocs
 * | jobs"): {@code jdvm jobs} summarises each job in one line, {@code --procs} lists its processes
 * up to {@code --limit} and says how many more, {@code --json} and {@code --procs --all} hold every
 * one, and {@code jdvm events} shortens a long list in its line while {@code --json} keeps it all.
 */
class ManyProcsListingTest {
  static final int PROCS = 300;

  @TempDir static Path dir;
  private static DvmServer server;
  private static JdvmClient tool;
  private static String nspace;

  @BeforeAll
  static void aJobOfManyProcesses() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("many", 2, PROCS / 2, 0, dir).withShrinkGrace(0));
    tool = JdvmClient.connector().dir(dir).output(OutputHandler.DISCARD).connect();
    nspace =
        tool.spawn(SpawnRequest.of("sleep", "300").procs(PROCS).forwardOutput(false).build())
            .nspace();
    Listings.until(
        () -> Listings.runningPids(jobs()).size() == PROCS, PROCS + " running processes", 120);
  }

  @AfterAll
  static void stop() {
    if (tool != null) {
      tool.close();
    }
    server.close(); // ends every process it started
  }

  private static String jobs() {
    try {
      return tool.jobsJson();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static CliRun jdvm(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.add("--dir");
    all.add(dir.toString());
    CliRun r = CliRun.of(all.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    return r;
  }

  @SuppressWarnings("unchecked")
  @Test
  void jsonListsEveryProcessOnceWithItsNodePidAndState() {
    Map<String, Object> job = Listings.jobOf(tool, nspace);
    List<Map<String, Object>> procs =
        (List<Map<String, Object>>)
            Listings.list(jdvm("jobs", "--json").out()).stream()
                .filter(j -> nspace.equals(j.get("nspace")))
                .findFirst()
                .orElseThrow()
                .get("procs");
    assertThat(procs).hasSize(PROCS).isEqualTo(job.get("procs"));
    Set<Object> ranks = new HashSet<>();
    for (Map<String, Object> p : procs) {
      ranks.add(p.get("rank"));
      assertThat(p.get("state")).isEqualTo("running");
      assertThat(p.get("node")).isIn("node0", "node1");
      long pid = ((Number) p.get("pid")).longValue();
      assertThat(ProcessHandle.of(pid)).isPresent();
    }
    assertThat(ranks).hasSize(PROCS);
  }

  @Test
  void theTableSummarisesAJobInOneLineAndTheSummaryQueryCountsByState() throws Exception {
    String table = jdvm("jobs").out();
    assertThat(table.lines().filter(l -> l.startsWith(nspace + " "))).hasSize(1);
    assertThat(table).contains(PROCS + ": " + PROCS + " running").doesNotContain("0@node0");
    Map<String, Object> summary =
        Listings.list(tool.jobsSummaryJson()).stream()
            .filter(j -> nspace.equals(j.get("nspace")))
            .findFirst()
            .orElseThrow();
    assertThat(summary.get("procCount")).isEqualTo((long) PROCS);
    assertThat(summary.get("procStates")).isEqualTo(Map.of("running", (long) PROCS));
    assertThat((List<?>) summary.get("procs")).hasSize(8);
  }

  @Test
  void procsListsUpToTheLimitAndSaysHowManyMoreAllListsEveryOne() {
    List<String> limited = jdvm("jobs", "--procs", "--limit", "100").out().lines().toList();
    assertThat(limited.getFirst()).startsWith("NAMESPACE").contains("RANK", "NODE", "PID");
    assertThat(limited.stream().filter(l -> l.startsWith(nspace + " "))).hasSize(100);
    assertThat(limited.getLast())
        .isEqualTo(
            (PROCS - 100)
                + " more processes (of "
                + PROCS
                + "); jdvm jobs --procs --all shows"
                + " every one");
    List<String> all = jdvm("jobs", "--procs", "--all").out().lines().toList();
    assertThat(all.stream().filter(l -> l.startsWith(nspace + " "))).hasSize(PROCS);
    assertThat(all.getLast()).doesNotContain("more processes");
    CliRun bad = CliRun.of("jobs", "--procs", "--limit", "0", "--dir", dir.toString());
    assertThat(bad.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(bad.err()).contains("--limit takes a number of processes of at least 1");
  }

  @Test
  void eventsShortenALongListInTheLineAndKeepItWholeInJson() {
    String placed =
        jdvm("events")
            .out()
            .lines()
            .filter(l -> l.startsWith("ProcsPlaced namespace=" + nspace))
            .findFirst()
            .orElseThrow();
    assertThat(placed).endsWith("... (" + (PROCS - 16) + " more of " + PROCS + "; --json: all)");
    String json =
        jdvm("events", "--json")
            .out()
            .lines()
            .filter(l -> l.contains("\"ProcsPlaced\"") && l.contains(nspace))
            .findFirst()
            .orElseThrow();
    @SuppressWarnings("unchecked")
    Map<String, Object> change = (Map<String, Object>) org.jdvm.pmix.json.Json.parse(json);
    assertThat((List<?>) change.get("placements")).hasSize(PROCS);
  }
}
