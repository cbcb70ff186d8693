package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One job of several programs (docs/cli.md "Several programs in one job"), as MPI sees it: every
 * app's ranks in one {@code MPI_COMM_WORLD} (an allreduce over it sums every rank), each with its
 * app's {@code MPI_APPNUM}: Open MPI C programs, a C program beside mpi4py, MPICH, and an appfile.
 * Each run also checks that the job left no process and no directory ({@link MpiJobs#run}).
 */
class MpmdEndToEndTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  private static final String PYTHON = "/usr/bin/python3";

  /**
   * mpi4py's side of {@code mpi_appnum.c}: the same line, from Python, with the same collective
   * ({@code MPI_Allreduce} of one C long: mpi4py's lower-case {@code allreduce} pickles, which is
   * other MPI calls, and the ranks would wait for each other forever).
   */
  private static final String PY_APPNUM =
      "from mpi4py import MPI\n"
          + "c = MPI.COMM_WORLD\n"
          + "from array import array\n"
          + "r = array('l', [0])\n"
          + "c.Allreduce(array('l', [c.rank + 1]), r)\n"
          + "s = r[0]\n"
          + "a = c.Get_attr(MPI.APPNUM)\n"
          + "ok = s == c.size * (c.size + 1) // 2 and a is not None\n"
          + "print('%s mpi_appnum rank=%d size=%d appnum=%s sum=%d'"
          + " % ('OK' if ok else 'FAIL', c.rank, c.size, a, s), flush=True)\n";

  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;
  private static String noOpenMpi;
  private static String noMpich;
  private static String noMpi4py;

  @BeforeAll
  static void compileAndStart() throws Exception {
    assertThat(PROGRAMS.resolve("mpi_appnum.c")).exists();
    Path source = PROGRAMS.resolve("mpi_appnum.c");
    if (!MpiJobs.build("mpicc.openmpi", source, bin.resolve("appnum_ompi"))) {
      noOpenMpi = "mpicc.openmpi (libopenmpi-dev) could not build mpi_appnum";
    }
    if (!MpiJobs.build("mpicc.mpich", source, bin.resolve("appnum_mpich"))) {
      noMpich = "mpicc.mpich (libmpich-dev) could not build mpi_appnum";
    }
    if (!MpiJobs.succeeds(List.of(PYTHON, "-c", "import mpi4py"))) {
      noMpi4py = PYTHON + " cannot import mpi4py (python3-mpi4py)";
    }
    server = DvmServer.start(DvmConfig.embedded("mpmdtest", 2, 2, 0, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  /** A wrong wire-up would hang the ranks: the job's own time limit ends it (a test failure). */
  private static CliRun run(int np, String... cmd) throws Exception {
    return new MpiJobs(server, dir).run(List.of("--timeout", "120"), np, cmd);
  }

  private static List<String> lines(CliRun r) {
    return MpiJobs.lines(r, "OK mpi_appnum").stream().map(l -> l.replace("OK ", "")).toList();
  }

  private static String line(int rank, int size, int app) {
    return "mpi_appnum rank="
        + rank
        + " size="
        + size
        + " appnum="
        + app
        + " sum="
        + size * (size + 1) / 2;
  }

  @Test
  void openMpiAppsShareOneWorldEachWithItsAppnum() throws Exception {
    assumeTrue(noOpenMpi == null, noOpenMpi);
    String a = bin.resolve("appnum_ompi").toString();
    CliRun r = run(1, a, ":", "-n", "3", a);
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(lines(r))
        .as(r.out() + r.err())
        .containsExactly(line(0, 4, 0), line(1, 4, 1), line(2, 4, 1), line(3, 4, 1));
  }

  @Test
  void aCProgramAndMpi4pyShareOneWorld() throws Exception {
    assumeTrue(noOpenMpi == null, noOpenMpi);
    assumeTrue(noMpi4py == null, noMpi4py);
    String a = bin.resolve("appnum_ompi").toString();
    CliRun r = run(1, a, ":", "-n", "2", PYTHON, "-c", PY_APPNUM);
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(lines(r))
        .as(r.out() + r.err())
        .containsExactly(line(0, 3, 0), line(1, 3, 1), line(2, 3, 1));
  }

  @Test
  void mpichAppsGetTheirAppnumThroughSimplePmi() throws Exception {
    assumeTrue(noMpich == null, noMpich);
    String a = bin.resolve("appnum_mpich").toString();
    CliRun r = run(2, a, ":", "-n", "1", a);
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(lines(r))
        .as(r.out() + r.err())
        .containsExactly(line(0, 3, 0), line(1, 3, 0), line(2, 3, 1));
  }

  @Test
  void anAppfileOfThreeAppsIsOneWorld() throws Exception {
    assumeTrue(noOpenMpi == null, noOpenMpi);
    String a = bin.resolve("appnum_ompi").toString();
    Path file =
        Files.writeString(
            bin.resolve("appfile"),
            "# three apps\n-n 1 " + a + "\n-n 1 " + a + "\n-n 2 " + a + "\n");
    CliRun r =
        CliRun.of("run", "--dir", dir.toString(), "--timeout", "120", "--app", file.toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(lines(r))
        .as(r.out() + r.err())
        .containsExactly(line(0, 4, 0), line(1, 4, 1), line(2, 4, 2), line(3, 4, 2));
  }
}
