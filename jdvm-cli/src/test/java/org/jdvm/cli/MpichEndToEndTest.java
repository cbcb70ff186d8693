package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPICH programs under {@code jdvm run} through the simple PMI server (docs/protocol.md "Simple
 * PMI"), with no flag: the suite's MPI programs built with {@code mpicc.mpich}, on a DVM of two
 * nodes of two slots, so that -n 4 spans two (virtual) nodes of one host. Each checks every rank's
 * line, the exit status, and that no process of the job is left (by pid). Without Debian's {@code
 * mpicc.mpich} ({@code libmpich-dev}) the tests are skipped, saying why; one test runs an Open MPI
 * job beside an MPICH job on the same DVM when both are there.
 */
class MpichEndToEndTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");

  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;
  private static String noMpi;
  private static String noOpenMpi;
  private static String noPmi2;

  @BeforeAll
  static void compileAndStart() throws Exception {
    // a missing source is this checkout's fault, not a missing package: fail, do not skip
    assertThat(PROGRAMS.resolve("mpi_hello.c")).exists();
    for (String program :
        List.of("mpi_hello", "mpi_allreduce", "mpi_abort", "mpi_ring", "mpi_names")) {
      if (!MpiJobs.build("mpicc.mpich", PROGRAMS.resolve(program + ".c"), bin.resolve(program))) {
        noMpi = "mpicc.mpich (libmpich-dev) could not build " + program;
        break;
      }
    }
    // MPICH's own simple PMI client, from libmpich.a (the shared library hides PMI_*)
    String[] pmiClients = MpiJobs.buildPmiClients(PROGRAMS, bin);
    noMpi = noMpi != null ? noMpi : pmiClients[0];
    noPmi2 = pmiClients[1];
    for (String program : List.of("mpi_hello", "mpi_names")) {
      if (!MpiJobs.build(
          "mpicc.openmpi",
          PROGRAMS.resolve(program + ".c"),
          bin.resolve("ompi_" + program.substring(4)))) {
        noOpenMpi = "mpicc.openmpi (libopenmpi-dev) could not build " + program;
      }
    }
    server = DvmServer.start(DvmConfig.embedded("mpichtest", 2, 2, 0, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  /** {@code jdvm run -n np CMD...}; then checks that the job left no process and no directory. */
  private static CliRun run(int np, String... cmd) throws Exception {
    return new MpiJobs(server, dir).run(np, cmd);
  }

  private static List<String> lines(CliRun r, String prefix) {
    return MpiJobs.lines(r, prefix);
  }

  private static List<String> helloLines(int np) {
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      expected.add("OK mpi_hello rank=" + rank + " size=" + np + " host=");
    }
    return expected;
  }

  private static void assertHello(CliRun r, int np) {
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    List<String> got = lines(r, "OK mpi_hello");
    assertThat(got).as(r.out() + r.err()).hasSize(np);
    List<String> expected = helloLines(np);
    for (int rank = 0; rank < np; rank++) {
      assertThat(got.get(rank)).startsWith(expected.get(rank));
    }
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpichHelloWiresUpEveryRankAndPassesItsBarrier(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    assertHello(run(np, bin.resolve("mpi_hello").toString()), np);
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpichAllreduceSumsEveryRank(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(np, bin.resolve("mpi_allreduce").toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    int sum = np * (np + 1) / 2;
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      expected.add("OK mpi_allreduce rank=" + rank + " size=" + np + " sum=" + sum);
    }
    assertThat(lines(r, "OK mpi_allreduce")).as(r.out() + r.err()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpichAbortInOneRankEndsEveryRankAndExitsWithItsCode(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(np, bin.resolve("mpi_abort").toString());
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(7);
    assertThat(r.out()).contains("ABORTING mpi_abort rank=" + (np - 1) + " code=7");
    assertThat(r.out()).doesNotContain("FAIL mpi_abort");
    // MPI_Abort never returns: the aborting rank waits in PMI_Abort until the job's end kills it
    assertThat(r.out()).doesNotContain("WAITING mpi_abort rank=" + (np - 1));
  }

  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void mpichRingPassesATokenAroundEveryRank(int np) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(np, bin.resolve("mpi_ring").toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    List<String> got = lines(r, "OK mpi_ring");
    assertThat(got).as(r.out() + r.err()).hasSize(np);
    for (int rank = 0; rank < np; rank++) {
      long expected = rank == 0 ? (long) np * (np - 1) / 2 : (long) rank * (rank - 1) / 2;
      assertThat(got.get(rank))
          .isEqualTo(
              "OK mpi_ring rank="
                  + rank
                  + " size="
                  + np
                  + " got="
                  + expected
                  + " from="
                  + ((rank + np - 1) % np));
    }
  }

  /**
   * MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name: MPICH's through simple PMI ({@code
   * publish_name}, {@code lookup_name}, {@code unpublish_name}), Open MPI's through PMIx, into the
   * one store of published names.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"mpi_names", "ompi_names"})
  void namesArePublishedLookedUpAndWithdrawn(String program) throws Exception {
    assumeTrue(noMpi == null, noMpi);
    assumeTrue(!program.startsWith("ompi") || noOpenMpi == null, noOpenMpi);
    int np = 3;
    CliRun r = run(np, bin.resolve(program).toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    List<String> expected = new ArrayList<>();
    for (int rank = 0; rank < np; rank++) {
      expected.add("OK mpi_names rank=" + rank + " size=3 port=port-of-rank-0 gone=1");
    }
    assertThat(lines(r, "OK mpi_names")).as(r.out() + r.err()).isEqualTo(expected);
  }

  /**
   * {@code mcmd=spawn} from MPICH's own PMI client, as MPI_Comm_spawn_multiple sends it: two apps
   * in one child job, each child finding the parent's preput key, told {@code PMI_SPAWNED}, with
   * its own arguments (spaces kept), app number and working directory (the parent's, or {@code
   * wdir}); every child's output reaches the parent's {@code jdvm run}, which waits for them.
   */
  @Test
  void anMpichSpawnOfTwoAppsMakesOneChildJobWhoseOutputReachesTheParentsRun() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    CliRun r = run(1, bin.resolve("pmi_spawn").toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    String cwd = Path.of("").toAbsolutePath().toString();
    assertThat(lines(r, "OK pmi_spawn"))
        .as(r.out() + r.err())
        .containsExactly(
            "OK pmi_spawn child rank=0 size=3 appnum=0 args=child,two words"
                + " preput=tag#0$port#42$ cwd="
                + cwd,
            "OK pmi_spawn child rank=1 size=3 appnum=0 args=child,two words"
                + " preput=tag#0$port#42$ cwd="
                + cwd,
            "OK pmi_spawn child rank=2 size=3 appnum=1 args=child,b preput=tag#0$port#42$"
                + " cwd=/tmp",
            "OK pmi_spawn parent rank=0 size=1 rc=0");
  }

  /**
   * PMI-2 through Slurm's own client library ({@code libpmi2}), which finds jdvm by {@code
   * PMI_PORT} and claims {@code PMI_ID}: fullinit, put (a value with {@code ;}), fence, every
   * rank's get, the process mapping, node attributes and the name service.
   */
  @ParameterizedTest(name = "-n {0}")
  @ValueSource(ints = {2, 4})
  void aPmi2ClientWiresUpThroughTheSameStoreAndFence(int np) throws Exception {
    assumeTrue(noPmi2 == null, noPmi2);
    CliRun r = run(np, bin.resolve("pmi2_hello").toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    List<String> got = lines(r, "OK pmi2_hello");
    assertThat(got).as(r.out() + r.err()).hasSize(np);
    String map = np == 2 ? "(vector,(0,1,2))" : "(vector,(0,2,2))";
    for (int rank = 0; rank < np; rank++) {
      assertThat(got.get(rank))
          .isEqualTo(
              "OK pmi2_hello rank="
                  + rank
                  + " size="
                  + np
                  + " appnum=0 map="
                  + map
                  + " seen=yes port=port-of-rank-0");
    }
  }

  @Test
  void mpiModePmixLeavesAnMpichProgramASingleton() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    List<String> args =
        List.of(
            "run",
            "--dir",
            dir.toString(),
            "-n",
            "2",
            "--mpi",
            "pmix",
            "--",
            bin.resolve("mpi_hello").toString());
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(lines(r, "OK mpi_hello"))
        .as(r.out() + r.err())
        .allMatch(l -> l.startsWith("OK mpi_hello rank=0 size=1 "));
  }

  @Test
  void oneDvmRunsAnOpenMpiJobAndAnMpichJobAtOnce() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    assumeTrue(noOpenMpi == null, noOpenMpi);
    CompletableFuture<CliRun> ompi =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return run(2, bin.resolve("ompi_hello").toString());
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    CliRun mpich = run(2, bin.resolve("mpi_hello").toString());
    assertHello(mpich, 2);
    assertHello(ompi.get(120, TimeUnit.SECONDS), 2);
  }

  /**
   * A PMI_ID is only a claim: the test's own JVM, connecting to PMI_PORT with the id of a live
   * launched process, is refused (the kernel shows the socket held by another process) and the
   * connection is closed.
   */
  @Test
  void aPmiIdClaimedFromAnotherProcessIsRefused() throws Exception {
    CliRun r =
        CliRun.of("run", "--dir", dir.toString(), "--detach", "-n", "1", "--", "/bin/sleep", "60");
    assertThat(r.status()).as(r.err()).isZero();
    String nspace = r.out().strip();
    long pid = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (pid == 0 && System.nanoTime() < deadline) {
      for (Map<String, Object> job : new MpiJobs(server, dir).jobs()) {
        if (nspace.equals(job.get("nspace"))) {
          for (Object p : (List<?>) job.get("procs")) {
            Object n = ((Map<?, ?>) p).get("pid");
            pid = n == null ? 0 : ((Number) n).longValue();
          }
        }
      }
      Thread.sleep(10);
    }
    assertThat(pid).as("the sleeper's pid").isPositive();
    try {
      Map<String, String> env = new java.util.HashMap<>();
      for (String e :
          new String(Files.readAllBytes(Path.of("/proc/" + pid + "/environ"))).split("\0")) {
        int eq = e.indexOf('=');
        if (eq > 0) {
          env.put(e.substring(0, eq), e.substring(eq + 1));
        }
      }
      assertThat(env).containsKeys("PMI_PORT", "PMI_ID", "PMI_RANK", "PMIX_SERVER_URI41");
      String[] hostPort = env.get("PMI_PORT").split(":");
      try (java.net.Socket s = new java.net.Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
        s.setSoTimeout(30_000);
        s.getOutputStream().write(("cmd=initack pmiid=" + env.get("PMI_ID") + "\n").getBytes());
        String answer = new String(s.getInputStream().readAllBytes());
        assertThat(answer).startsWith("cmd=initack rc=-1 msg=");
      }
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * Another user's connection to PMI_PORT is closed before any line is answered: the kernel shows
   * its socket held by a uid that is not the DVM's.
   */
  @Test
  void anotherUsersConnectionIsClosedUnanswered() throws Exception {
    try (org.jdvm.host.OtherUser other = org.jdvm.host.OtherUser.create()) {
      String[] hostPort = server.endpoint().pmi().port().split(":");
      Process p =
          other.start(
              "/bin/bash",
              "-c",
              "exec 3<>/dev/tcp/"
                  + hostPort[0]
                  + "/"
                  + hostPort[1]
                  + " && echo cmd=get_maxes >&3 && timeout 30 cat <&3 2>&1; echo \"status=$?\"");
      try {
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes());
        // the stream ended (closed, or reset since the line was left unread) with no reply,
        // before cat's timeout (124)
        assertThat(out).contains("status=").doesNotContain("cmd=").doesNotContain("status=124");
      } finally {
        p.destroyForcibly();
      }
    }
  }
}
