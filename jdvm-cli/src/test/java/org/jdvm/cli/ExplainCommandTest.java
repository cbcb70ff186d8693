package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm explain}, {@code jdvm tree} and a refused {@code jdvm run}'s hint against a real DVM
 * (in this JVM) with real processes (docs/cli.md): each rule's wording, the exit statuses, and that
 * a refused run starts nothing. One start-up node of 2 slots and 4 spare nodes per test.
 */
class ExplainCommandTest {
  @TempDir Path dir;
  private DvmServer server;
  private final List<String> jobs = new ArrayList<>();

  @BeforeEach
  void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("explaintest", 1, 2, 4, dir).withShrinkGrace(300));
  }

  @AfterEach
  void stopDvm() {
    for (String ns : jobs) {
      jdvm("kill", ns);
    }
    server.close();
  }

  private CliRun jdvm(String... args) {
    boolean hasSubcommands = !Subcommand.named(args[0]).alone().getSubcommands().isEmpty();
    int at = hasSubcommands ? 2 : 1;
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(at, List.of("--dir", dir.toString()));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** A detached job of {@code n} sleeping processes; ended by the test. */
  private String sleeper(int n) {
    CliRun r = jdvm("run", "--detach", "-n", String.valueOf(n), "--", "sleep", "60");
    assertThat(r.status()).as(r.err()).isZero();
    String ns = r.out().trim();
    jobs.add(ns);
    return ns;
  }

  /** A reservation of one node owned by {@code owner}: its id and its node. */
  @SuppressWarnings("unchecked")
  private String[] reservationFor(String owner, String inherit) {
    CliRun r =
        jdvm("alloc", "new", "--nodes", "1", "--target", owner, "--inherit", inherit, "--json");
    assertThat(r.status()).as(r.err()).isZero();
    Map<String, Object> grant = (Map<String, Object>) Json.parse(r.out().lines().findFirst().get());
    return new String[] {
      (String) grant.get("allocId"), (String) ((List<?>) grant.get("nodes")).get(0)
    };
  }

  private void killAndWait(String ns) throws InterruptedException {
    assertThat(jdvm("kill", ns).status()).isZero();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (jdvm("jobs", "--json")
          .out()
          .contains(
              "\"nspace\":\"" + ns + "\",\"kind\":\"application\",\"state\":\"terminated\"")) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("job " + ns + " did not end");
  }

  @Test
  void aReservationOfAnotherNamespaceIsRefusedByTheOwnerSetRuleAndExplainNamesTheOwners() {
    String owner = sleeper(1);
    String[] a = reservationFor(owner, "default");
    CliRun e = jdvm("explain", "--target", a[0]);
    assertThat(e.status()).as(e.err()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(e.out())
        .contains(
            "refused, PMIX_ERR_NO_PERMISSIONS: allocation "
                + a[0]
                + " is reserved to its owner set ("
                + owner
                + ") and ")
        .contains("is not in it (spec §8.2.1.7)")
        .containsPattern(
            a[1] + " +no +targeted, but allocation " + a[0] + " is reserved to " + owner);
    CliRun open = jdvm("explain");
    assertThat(open.status()).as(open.err()).isZero();
    assertThat(open.out())
        .startsWith("allowed: 1 process would run on node0 (1) (spec §8.2.1.6)")
        .containsPattern(
            a[1]
                + " +no +reserved to allocation "
                + a[0]
                + ", owned by "
                + owner
                + "; .* is not an owner \\(spec §8.2.1.7\\)");
  }

  @Test
  void aRefusedRunSaysTheRuleAndPointsToExplainAndStartsNothing() {
    String owner = sleeper(1);
    String[] a = reservationFor(owner, "default");
    int before = jdvm("jobs", "--json").out().split("\"kind\":\"application\"").length;
    CliRun r = jdvm("run", "-n", "2", "--target", a[0], "--", "true");
    assertThat(r.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err())
        .contains("PMIX_ERR_NO_PERMISSIONS")
        .contains(
            "jdvm run: refused, PMIX_ERR_NO_PERMISSIONS: allocation "
                + a[0]
                + " is reserved to its owner set ("
                + owner
                + ")")
        .contains("see: jdvm explain -n 2 --target " + a[0]);
    assertThat(jdvm("jobs", "--json").out().split("\"kind\":\"application\"").length)
        .as("no job started")
        .isEqualTo(before);
  }

  @Test
  void noFreeSlotNamesWhoHoldsTheSlotsAndTheJobIsExplainedWhereItRuns() {
    String holder = sleeper(2);
    CliRun e = jdvm("explain");
    assertThat(e.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(e.out())
        .contains(
            "refused, PMIX_ERR_OUT_OF_RESOURCE: 1 process, but the nodes the spawn may use have 0 free slots (spec §8.2.1.6)")
        .containsPattern(
            "node0 +no +no free slot: 2 held by " + holder + " \\(2\\) \\(spec §8.2.1.6\\)");
    CliRun job = jdvm("explain", holder);
    assertThat(job.status()).as(job.err()).isZero();
    assertThat(job.out())
        .startsWith("job " + holder + ": 2 processes, on node0 (2)")
        .containsPattern("node0 +no +no free slot");
    CliRun none = jdvm("explain", "jdvm-nosuch@9");
    assertThat(none.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(none.err()).contains("no job jdvm-nosuch@9");
  }

  @Test
  void anAllocationUnreservedWhenItsOwnerEndedIsSaidWithItsDisposition() throws Exception {
    String owner = sleeper(1);
    String[] a = reservationFor(owner, "default");
    killAndWait(owner);
    CliRun e = jdvm("explain", "--target", a[0]);
    assertThat(e.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(e.out())
        .contains(
            "refused, PMIX_ERR_NOT_FOUND: target "
                + a[0]
                + " names no live allocation (spec §8.2.1.8); allocation "
                + a[0]
                + " ended: its owner "
                + owner
                + " ended and its DEFAULT disposition unreserved its nodes into the default session"
                + " (spec §8.2.1.9.2)");
    CliRun node = jdvm("explain", "--node", a[1]);
    assertThat(node.status()).isZero();
    assertThat(node.out())
        .containsPattern(
            a[1]
                + " +yes +usable: 2 of 2 slots free.*; unreserved when allocation "
                + a[0]
                + " ended");
  }

  @Test
  void nodesThatWentBackToTheSchedulerOrNeverWereAreNotInTheDvm() throws Exception {
    String owner = sleeper(1);
    String[] a = reservationFor(owner, "none");
    killAndWait(owner);
    CliRun e = jdvm("explain", "--alloc", a[0]);
    assertThat(e.status()).isZero();
    assertThat(e.out())
        .contains(
            "allocation "
                + a[0]
                + " ended: its owner "
                + owner
                + " ended and its NONE disposition returned its nodes to the scheduler (spec §8.2.1.9.2)")
        .containsPattern(
            a[1]
                + " +no +not in the DVM \\(spec §8.2.1.6\\): it went back to the scheduler when"
                + " allocation "
                + a[0]
                + " ended");
    CliRun nosuch = jdvm("explain", "--node", "nosuch");
    assertThat(nosuch.out())
        .containsPattern("nosuch +no +not in the DVM \\(spec §8.2.1.6\\): no such node");
  }

  @Test
  void badOptionsAreUsageErrorsAndJsonCarriesTheVerdict() {
    assertThat(jdvm("explain", "-n", "0").status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(jdvm("explain", "--node", "").status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(jdvm("explain", "--target", "").status()).isEqualTo(Main.EXIT_USAGE);
    CliRun j = jdvm("explain", "--json", "-n", "2");
    assertThat(j.status()).as(j.err()).isZero();
    @SuppressWarnings("unchecked")
    Map<String, Object> e = (Map<String, Object>) Json.parse(j.out());
    assertThat(e)
        .containsEntry("allowed", true)
        .containsEntry("statusName", "PMIX_SUCCESS")
        .containsKeys("requester", "targets", "nodes", "procs");
    assertThat(Explaining.maps(e.get("nodes")))
        .allSatisfy(
            n ->
                assertThat(n)
                    .containsKeys(
                        "node", "reason", "clause", "freeSlots", "holders", "placed", "agent"));
  }

  @Test
  void theTreeShowsEachJobWithTheAllocationsItOwnsAndWhatTheirDispositionWillDo() {
    String owner = sleeper(1);
    String[] kept = reservationFor(owner, "default");
    String[] returned = reservationFor(owner, "child");
    CliRun t = jdvm("tree");
    assertThat(t.status()).as(t.err()).isZero();
    assertThat(t.out())
        .containsPattern("(├─|└─) " + owner + " application running, 1 proc in default")
        .contains(
            "owns "
                + kept[0]
                + " (reserved, "
                + kept[1]
                + ", DEFAULT): its nodes stay, unreserved, in the default session when "
                + owner
                + " ends (spec §8.2.1.9.2)")
        .contains(
            "owns "
                + returned[0]
                + " (reserved, "
                + returned[1]
                + ", CHILD): its nodes go back to the scheduler when "
                + owner
                + " and its last descendant have ended (spec §8.2.1.9.2)");
    CliRun j = jdvm("tree", "--json");
    assertThat(j.status()).as(j.err()).isZero();
    List<Map<String, Object>> rows = Explaining.maps(Json.parse(j.out()));
    Map<String, Object> row =
        rows.stream().filter(r -> owner.equals(r.get("nspace"))).findFirst().orElseThrow();
    assertThat(row)
        .containsEntry("depth", 1L)
        .containsEntry("state", "running")
        .containsKeys("parent", "owns", "spawnedInto", "endedAllocations", "usage");
    assertThat(Explaining.maps(row.get("owns")))
        .extracting(o -> o.get("allocId"))
        .containsExactly(kept[0], returned[0]);
  }
}
