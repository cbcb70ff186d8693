package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire-up's plain libpmix 4.2.2 clients (the test resources' {@code wireup/README.md}) as jobs
 * of a DVM of two nodes of two slots, so that ranks share a node and ranks do not: put, commit,
 * fence and get with the scope rules; a fence with data collection; a fence a participant leaves by
 * dying; gets of keys nobody put. Each checks every rank's lines and the job's exit status; the
 * DVM's teardown checks, by pid, that no process is left. Without gcc or libpmix-dev the tests are
 * skipped, saying why.
 */
class WireupClientsTest {
  @TempDir static Path bin;
  @TempDir static Path home;

  private static String skipped;
  private static TestDvm dvm;
  private static JdvmClient tool;
  private static final TestDvm.Output out = new TestDvm.Output();

  @BeforeAll
  static void compileAndStart() throws Exception {
    String flags = run(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    if (flags == null) {
      skipped = "pkg-config or libpmix-dev (pmix.pc) is not installed";
      return;
    }
    copy("pmixtest.h");
    for (String program :
        List.of("pmix_put_get", "pmix_fence_collect", "pmix_fence_dead", "pmix_get_missing")) {
      Path source = copy(program + ".c");
      List<String> cmd =
          new ArrayList<>(List.of("gcc", "-o", bin.resolve(program).toString(), source.toString()));
      cmd.addAll(List.of(flags.trim().split("\\s+")));
      if (run(cmd) == null) {
        skipped = "gcc could not build " + source.getFileName() + " against libpmix";
        return;
      }
    }
    dvm = TestDvm.start(home, 2, 2, 0);
    tool = dvm.tool(out);
  }

  @AfterAll
  static void stop() {
    if (dvm != null) {
      dvm.close();
    }
  }

  private static Path copy(String name) throws IOException {
    Path to = bin.resolve(name);
    try (InputStream in = WireupClientsTest.class.getResourceAsStream("/wireup/" + name)) {
      Files.copy(in, to);
    }
    return to;
  }

  /** Runs a command to its end (bounded); its output, or null if it could not run or failed. */
  private static String run(List<String> cmd) throws InterruptedException {
    return LocalCommand.output(cmd, 60);
  }

  /** A job of {@code np} ranks of a program; its end and every rank's standard output. */
  private record Ran(JobEnd end, List<String> ranks) {}

  private static Ran job(int np, String program, String... args) throws Exception {
    return job(np, false, program, args);
  }

  /**
   * @param recoverable whether a rank that fails leaves the others running (otherwise the DVM ends
   *     the job, as mpirun does)
   */
  private static Ran job(int np, boolean recoverable, String program, String... args)
      throws Exception {
    assumeTrue(skipped == null, skipped);
    List<String> argv = new ArrayList<>(List.of(bin.resolve(program).toString()));
    argv.addAll(List.of(args));
    Job job = tool.spawn(SpawnRequest.of(argv).procs(np).recoverable(recoverable).build());
    JobEnd end = job.awaitEnd();
    List<String> ranks = new ArrayList<>();
    for (int r = 0; r < np; r++) {
      ranks.add(out.of(job.nspace(), r, false));
    }
    return new Ran(end, ranks);
  }

  private static long lines(String text, String prefix) {
    return text.lines().filter(l -> l.startsWith(prefix)).count();
  }

  @Test
  void putCommitFenceAndGetFollowTheScopeRulesAcrossNodes() throws Exception {
    Ran r = job(4, "pmix_put_get");
    for (int rank = 0; rank < 4; rank++) {
      String o = r.ranks().get(rank);
      // own hostname, three puts, commit, fence, then three keys of each of 4 ranks
      assertThat(lines(o, "OK pmix_put_get")).as(o).isEqualTo(18);
      assertThat(o).doesNotContain("FAIL", "TIMEOUT");
    }
    assertThat(r.ranks().get(0))
        .contains("get peer=1 node=same key=wireup.remote expect=NOT-FOUND");
    assertThat(r.ranks().get(0))
        .contains("get peer=2 node=other key=wireup.local expect=NOT-FOUND");
    assertThat(r.end().exitCode()).isZero();
  }

  @Test
  void aFenceCollectingDataLetsEveryRankGetEveryRanksBlob() throws Exception {
    Ran r = job(4, "pmix_fence_collect", "5000");
    for (String o : r.ranks()) {
      assertThat(o).contains("fence collect=1 procs=4 SUCCESS", "fence collect=0 SUCCESS");
      assertThat(lines(o, "OK pmix_fence_collect")).as(o).isEqualTo(12);
      assertThat(o).doesNotContain("FAIL", "TIMEOUT");
    }
    assertThat(r.end().exitCode()).isZero();
  }

  @Test
  void aFenceWhoseParticipantFinalizesAndExitsEndsInPartialSuccessForTheOthers() throws Exception {
    Ran r = job(3, "pmix_fence_dead", "finalize", "5");
    assertThat(r.ranks().get(2)).contains("LEAVING pmix_fence_dead rank=2 mode=finalize");
    for (String o : r.ranks().subList(0, 2)) {
      assertThat(o).contains("OK pmix_fence_dead", "status=PARTIAL SUCCESS (-52)");
    }
    assertThat(r.end().exitCode()).isZero();
  }

  @Test
  void aFenceWhoseParticipantIsKilledEndsInPartialSuccessForTheOthers() throws Exception {
    // recoverable: otherwise the killed rank ends the whole job before the others can report
    Ran r = job(3, true, "pmix_fence_dead", "kill", "5");
    for (String o : r.ranks().subList(0, 2)) {
      assertThat(o).contains("OK pmix_fence_dead", "status=PARTIAL SUCCESS (-52)");
    }
    assertThat(r.end().exitCode()).isEqualTo(128 + 9);
  }

  @Test
  void getsOfKeysNobodyPutEndInErrorsWithinTheirBounds() throws Exception {
    Ran r = job(2, "pmix_get_missing");
    for (String o : r.ranks()) {
      assertThat(o).contains("key=wireup.nobody immediate status=NOT-FOUND");
      assertThat(o).contains("key=wireup.nobody timeout=1 status=TIMEOUT");
      assertThat(o).contains("key=pmix.nobody reserved status=NOT-FOUND");
      assertThat(lines(o, "OK pmix_get_missing")).as(o).isEqualTo(8);
      assertThat(o).doesNotContain("FAIL", "TIMEOUT pmix_get_missing");
    }
    assertThat(r.end().exitCode()).isZero();
  }
}
