package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Open MPI 4.1 programs and mpi4py under {@code jdvm run} (docs/wireup.md §e), on a DVM of two
 * nodes of two slots, so that -n 4 spans two (virtual) nodes of one host: every rank's line, exit
 * status 0, and no process of the job left alive nor its directory left behind. Without Debian's
 * {@code mpicc} ({@code libopenmpi-dev}) or {@code python3-mpi4py} the tests are skipped, saying
 * why.
 */
class MpiEndToEndTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  private static final String PYTHON = "/usr/bin/python3";

  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;
  private static String noMpi;
  private static String noMpi4py;

  @BeforeAll
  static void compileAndStart() throws Exception {
    // a missing source is this checkout's fault, not a missing package: fail, do not skip
    assertThat(PROGRAMS.resolve("mpi_hello.c")).exists();
    for (String program : List.of("mpi_hello", "mpi_allreduce", "mpi_ring")) {
      List<String> cmd =
          List.of(
              "mpicc.openmpi",
              "-o",
              bin.resolve(program).toString(),
              PROGRAMS.resolve(program + ".c").toString());
      if (!succeeds(cmd)) {
        noMpi = "mpicc.openmpi (libopenmpi-dev) could not build " + program;
        break;
      }
    }
    if (!succeeds(List.of(PYTHON, "-c", "import mpi4py"))) {
      noMpi4py = PYTHON + " cannot import mpi4py (python3-mpi4py)";
    }
    server = DvmServer.start(DvmConfig.embedded("mpitest", 2, 2, 0, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  private static boolean succeeds(List<String> cmd) throws InterruptedException {
    return MpiJobs.succeeds(cmd);
  }

  /** {@code jdvm run -n np CMD...}; then checks that the job left no process and no directory. */
  private static CliRun run(int np, String... cmd) throws Exception {
    return new MpiJobs(server, dir).run(np, cmd);
  }

  private static List<String> lines(CliRun r, String prefix) {
    return MpiJobs.lines(r, prefix);
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpiHelloWiresUpEveryRankAndPassesItsBarrier(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(np, bin.resolve("mpi_hello").toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      expected.add("OK mpi_hello rank=" + rank + " size=" + np + " host=");
    }
    List<String> got = lines(r, "OK mpi_hello");
    assertThat(got).as(r.out() + r.err()).hasSize(np);
    for (int rank = 0; rank < np; rank++) {
      assertThat(got.get(rank)).startsWith(expected.get(rank));
    }
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpiAllreduceSumsEveryRank(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(np, bin.resolve("mpi_allreduce").toString());
    assertThat(r.status()).as(r.err()).isZero();
    int sum = np * (np + 1) / 2;
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      expected.add("OK mpi_allreduce rank=" + rank + " size=" + np + " sum=" + sum);
    }
    assertThat(lines(r, "OK mpi_allreduce")).as(r.out() + r.err()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpiRingPassesTheTokenBetweenEveryNeighbourPair(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(np, bin.resolve("mpi_ring").toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      long got = rank == 0 ? (long) np * (np - 1) / 2 : (long) rank * (rank - 1) / 2;
      int left = (rank + np - 1) % np;
      expected.add("OK mpi_ring rank=" + rank + " size=" + np + " got=" + got + " from=" + left);
    }
    assertThat(lines(r, "OK mpi_ring")).as(r.out() + r.err()).isEqualTo(expected);
  }

  @Test
  void mpi4pyHelloWiresUpBothRanks() throws Exception {
    assumeTrue(noMpi4py == null, noMpi4py);
    CliRun r = run(2, PYTHON, PROGRAMS.resolve("mpi4py_hello.py").toAbsolutePath().toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<String> got = lines(r, "OK mpi4py_hello");
    assertThat(got).as(r.out() + r.err()).hasSize(2);
    assertThat(got.get(0)).startsWith("OK mpi4py_hello rank=0 size=2 host=");
    assertThat(got.get(1)).startsWith("OK mpi4py_hello rank=1 size=2 host=");
  }

  @Test
  void mpi4pyAllreduceSumsBothRanks() throws Exception {
    assumeTrue(noMpi4py == null, noMpi4py);
    CliRun r = run(2, PYTHON, PROGRAMS.resolve("mpi4py_allreduce.py").toAbsolutePath().toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(lines(r, "OK mpi4py_allreduce"))
        .as(r.out() + r.err())
        .containsExactly(
            "OK mpi4py_allreduce rank=0 size=2 sum=3", "OK mpi4py_allreduce rank=1 size=2 sum=3");
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpi4pyRingPassesTheTokenBetweenEveryNeighbourPair(int np) throws Exception {
    assumeTrue(noMpi4py == null, noMpi4py);
    CliRun r = run(np, PYTHON, PROGRAMS.resolve("mpi4py_ring.py").toAbsolutePath().toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      long got = rank == 0 ? (long) np * (np - 1) / 2 : (long) rank * (rank - 1) / 2;
      int left = (rank + np - 1) % np;
      expected.add("OK mpi4py_ring rank=" + rank + " size=" + np + " got=" + got + " from=" + left);
    }
    assertThat(lines(r, "OK mpi4py_ring")).as(r.out() + r.err()).isEqualTo(expected);
  }
}
