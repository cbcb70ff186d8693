package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic processes as test suites use them (docs/wireup.md "Dynamic processes"), in C (Open MPI
 * 4.1) and in mpi4py, one {@code jdvm run} each: a spawn from {@code COMM_SELF} in every rank at
 * once, from {@code COMM_WORLD} with root 0 and maxprocs 1, 2, 3, {@code Spawn_multiple} of two
 * apps with their own argv and {@code wdir} / {@code env} info, and five more spawns, each
 * disconnected before the next; the children answer through the intercommunicator. Checked: every
 * parent rank's line per pattern, the exit status, one child job per spawn of the right size with
 * every process exited 0, and no process left. On a DVM of four nodes of four slots, so that child
 * jobs span virtual nodes of one host (their processes must not share Open MPI's shared-memory
 * segment, whatever directory the parent's environment names). Skipped, saying why, without
 * Debian's {@code mpicc.openmpi} or {@code python3-mpi4py}.
 */
class MpiSpawnPatternsTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  private static final String PYTHON = "/usr/bin/python3";

  /** The child jobs' sizes in the order spawned, after one from COMM_SELF per parent rank. */
  private static final List<Integer> WORLD_CHILDREN = List.of(1, 2, 3, 3, 1, 1, 1, 1, 1);

  private static final List<String> PATTERNS =
      List.of(
          "self", "world1", "world2", "world3", "multiple", "many", "many", "many", "many", "many");

  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;
  private static String noMpi;
  private static String noMpi4py;

  @BeforeAll
  static void compileAndStart() throws Exception {
    // a missing source is this checkout's fault, not a missing package: fail, do not skip
    assertThat(PROGRAMS.resolve("mpi_spawn_patterns.c")).exists();
    List<String> cmd =
        List.of(
            "mpicc.openmpi",
            "-o",
            bin.resolve("mpi_spawn_patterns").toString(),
            PROGRAMS.resolve("mpi_spawn_patterns.c").toString());
    if (!MpiJobs.succeeds(cmd)) {
      noMpi = "mpicc.openmpi (libopenmpi-dev) could not build mpi_spawn_patterns";
    }
    if (!MpiJobs.succeeds(List.of(PYTHON, "-c", "import mpi4py"))) {
      noMpi4py = PYTHON + " cannot import mpi4py (python3-mpi4py)";
    }
    // nodes of four slots: child jobs share the parents' node and span the next ones, with a
    // local rank 0 on each
    server = DvmServer.start(DvmConfig.embedded("spawntest", 4, 4, 0, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  /** Every process of every job this DVM ran is ended by its pid, whatever the test's outcome. */
  @AfterEach
  void endEveryProcess() {
    for (Map<String, Object> job : new MpiJobs(server, dir).jobs()) {
      for (Object p : (List<?>) job.get("procs")) {
        Object pid = ((Map<?, ?>) p).get("pid");
        if (pid != null) {
          ProcessHandle.of(((Number) pid).longValue()).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }

  @Test
  void openMpiSpawnsFromSelfFromWorldMultipleAndManyTimes() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    everyPatternAnswers("mpi_spawn_patterns", 3, bin.resolve("mpi_spawn_patterns").toString());
  }

  @Test
  void mpi4pySpawnsFromSelfFromWorldMultipleAndManyTimes() throws Exception {
    assumeTrue(noMpi4py == null, noMpi4py);
    everyPatternAnswers(
        "mpi4py_spawn_patterns",
        2,
        PYTHON,
        PROGRAMS.resolve("mpi4py_spawn_patterns.py").toAbsolutePath().toString());
  }

  private static void everyPatternAnswers(String program, int np, String... cmd) throws Exception {
    MpiJobs jobs = new MpiJobs(server, dir);
    List<String> before = jobs.namespaces();
    CliRun r = jobs.run(np, cmd);
    String all = r.out() + r.err();
    assertThat(r.status()).as(all).isZero();
    assertThat(r.out()).as(all).doesNotContain("FAIL");
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      for (String pattern : PATTERNS) {
        int children = pattern.startsWith("world") ? pattern.charAt(5) - '0' : 1;
        children = pattern.equals("multiple") ? 3 : children;
        expected.add("OK " + program + " " + pattern + " rank=" + rank + " children=" + children);
      }
      expected.add("OK " + program + " done rank=" + rank + " spawns=" + PATTERNS.size());
    }
    assertThat(MpiJobs.lines(r, "OK " + program))
        .as(all)
        .isEqualTo(expected.stream().sorted().toList());
    assertChildJobs(jobs, before, np);
  }

  /** One child job per spawn, of the size asked, each process exited 0, all children of one job. */
  private static void assertChildJobs(MpiJobs jobs, List<String> before, int np) {
    List<Map<String, Object>> added =
        jobs.jobs().stream().filter(j -> !before.contains((String) j.get("nspace"))).toList();
    Map<String, Object> parent = added.get(0);
    assertThat((List<?>) parent.get("procs")).hasSize(np);
    List<Integer> sizes = new ArrayList<>();
    for (Map<String, Object> child : added.subList(1, added.size())) {
      assertThat(child.get("parent")).as("%s", child).isEqualTo(parent.get("nspace"));
      List<?> procs = (List<?>) child.get("procs");
      sizes.add(procs.size());
      for (Object p : procs) {
        Object status = ((Map<?, ?>) p).get("exitStatus");
        assertThat(status).as("%s", child).isInstanceOf(Number.class);
        assertThat(((Number) status).intValue()).as("%s", child).isZero();
      }
    }
    List<Integer> expected = new ArrayList<>(Collections.nCopies(np, 1));
    expected.addAll(WORLD_CHILDREN);
    assertThat(sizes).isEqualTo(expected);
  }
}
