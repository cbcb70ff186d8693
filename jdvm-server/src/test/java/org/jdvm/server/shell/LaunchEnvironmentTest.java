package org.jdvm.server.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdvm.host.identity.Credentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The environment of a launched process: the Open MPI 4.1 launch marker (docs/protocol.md "Launch
 * marker") on every process, whatever the controller inherited or the app asked for.
 */
class LaunchEnvironmentTest {
  private static final String MARKER = LaunchEnvironment.OMPI41_DIRECT_LAUNCH_MARKER;

  private static LaunchEnvironment environment(Map<String, String> inherited) {
    return new LaunchEnvironment(
        inherited,
        "jdvm-test.0;tcp4://127.0.0.1:1",
        "contact",
        "/tmp/jdvm-test",
        Credentials.generate());
  }

  @Test
  void everyRankOfEveryJobCarriesTheOpenMpiDirectLaunchMarker() {
    LaunchEnvironment env = environment(Map.of("PATH", "/usr/bin:/bin"));
    for (String nspace : List.of("jdvm@1", "jdvm@2")) {
      for (int rank = 0; rank < 3; rank++) {
        Map<String, String> e = env.of(nspace, rank, "n" + rank, List.of(), List.of());
        assertThat(e).containsEntry(MARKER, "jdvm");
      }
    }
  }

  /**
   * With no --mpi a process gets both families' variables (docs/protocol.md "Simple PMI"); each
   * mode leaves the other's out; an inherited PMI_FD never reaches a process (MPICH's client would
   * take it over PMI_PORT); a node agent's host gets them too (its relay points PMI_PORT at its own
   * port), and every process, whatever its mode, names the PMIx server a node agent opens its
   * relays by (JDVM_SERVER_URI).
   */
  @Test
  void everyProcessGetsBothFamiliesWireUpUnlessItsModeSaysOtherwise() {
    LaunchEnvironment env = environment(Map.of("PMI_FD", "9", "PMI_SIZE", "64"));
    env.pmi("127.0.0.1:4242", (nspace, rank) -> 100 + rank);
    env.serverUriOn("remote", "jdvm-test@0.0;tcp4://127.0.0.1:2");
    Map<String, String> both = env.of("jdvm@1", 3, "n0", List.of(), List.of());
    assertThat(both)
        .containsEntry("PMI_PORT", "127.0.0.1:4242")
        .containsEntry("PMI_ID", "103")
        .containsEntry("PMI_RANK", "3")
        .containsEntry("PMIX_RANK", "3")
        .containsEntry(MARKER, "jdvm")
        .doesNotContainKeys("PMI_FD", "PMI_SIZE");
    Map<String, String> pmi = env.of("jdvm@1", 0, "n0", List.of("JDVM_MPI=pmi"), List.of());
    assertThat(pmi)
        .containsKey("PMI_PORT")
        .doesNotContainKeys("PMIX_RANK", "PMIX_NAMESPACE", MARKER);
    Map<String, String> pmix = env.of("jdvm@1", 0, "n0", List.of("JDVM_MPI=pmix"), List.of());
    assertThat(pmix).containsKey("PMIX_RANK").doesNotContainKeys("PMI_PORT", "PMI_ID");
    Map<String, String> none = env.of("jdvm@1", 0, "n0", List.of("JDVM_MPI=none"), List.of());
    assertThat(none).doesNotContainKeys("PMI_PORT", "PMIX_RANK", MARKER).containsKey("JDVM_URI");
    assertThat(env.of("jdvm@1", 1, "remote", List.of(), List.of()))
        .containsKey("PMIX_RANK")
        .containsEntry("PMI_ID", "101")
        .containsEntry("JDVM_SERVER_URI", "jdvm-test@0.0;tcp4://127.0.0.1:2");
    assertThat(pmi).containsEntry("JDVM_SERVER_URI", "jdvm-test.0;tcp4://127.0.0.1:1");
    assertThat(none).containsKey("JDVM_SERVER_URI");
  }

  @Test
  void processesOfANodeWithARelayConnectToItAndOthersToTheController() {
    LaunchEnvironment env = environment(Map.of("PMIX_SERVER_URI41", "inherited"));
    String relay = "jdvm-test@0.0;tcp4://127.0.0.1:2";
    env.serverUriOn("n1", relay);
    assertThat(env.of("jdvm@1", 0, "n0", List.of(), List.of()))
        .containsEntry("PMIX_SERVER_URI41", "jdvm-test.0;tcp4://127.0.0.1:1");
    assertThat(env.of("jdvm@1", 1, "n1", List.of(), List.of()))
        .containsEntry("PMIX_SERVER_URI41", relay)
        .containsEntry("PMIX_SERVER_URI61", relay);
    env.serverUriOn("n1", null);
    assertThat(env.of("jdvm@1", 1, "n1", List.of(), List.of()))
        .containsEntry("PMIX_SERVER_URI41", "jdvm-test.0;tcp4://127.0.0.1:1");
  }

  @Test
  void aSpawnedChildWhoseAppEnvironmentOpenMpiFilledStillGetsTheMarker() {
    // What Open MPI 4.1's MPI_Comm_spawn puts in a child's app (ompi/dpm/dpm.c:759-764): the parent
    // port and the parent's OMPI_MCA_* entries, but no resource-manager marker.
    List<String> appEnv =
        List.of(
            "OMPI_PARENT_PORT=1234.0:42", "OMPI_MCA_ess=pmi", "OMPI_MCA_orte_externally_bound=1");
    Map<String, String> e =
        environment(Map.of()).of("jdvm@7", 1, "n1", appEnv, List.of("JDVM_ALLOC=a1"));
    assertThat(e)
        .containsEntry(MARKER, "jdvm")
        .containsEntry("OMPI_PARENT_PORT", "1234.0:42")
        .containsEntry("OMPI_MCA_ess", "pmi")
        .containsEntry("JDVM_ALLOC", "a1");
  }

  /**
   * Open MPI 4.1's MPI_Comm_spawn passes the parent's {@code OMPI_MCA_*} to the children, the
   * parent's own shared-memory directory among them: a child keeps its segment in its own directory
   * all the same, or two children of one job on two virtual nodes, each local rank 0, would share
   * one segment file and crash (docs/wireup.md "Dynamic processes"). A directory the user chose
   * outside jdvm's scratch directory still wins.
   */
  @Test
  void aChildKeepsItsSharedMemorySegmentInItsOwnDirectoryNotItsParents() {
    String dir = LaunchEnvironment.OMPI_VADER_BACKING_DIRECTORY;
    LaunchEnvironment env = environment(Map.of());
    List<String> fromParent = List.of(dir + "=/tmp/jdvm-test/jdvm@1/0", "OMPI_MCA_ess=pmi");
    assertThat(env.of("jdvm@7", 0, "n0", fromParent, List.of()))
        .containsEntry(dir, "/tmp/jdvm-test/jdvm@7/0");
    assertThat(env.of("jdvm@7", 3, "n1", fromParent, List.of()))
        .containsEntry(dir, "/tmp/jdvm-test/jdvm@7/3");
    assertThat(env.of("jdvm@7", 0, "n0", List.of(dir + "=/var/tmp/mine"), List.of()))
        .as("the user's own choice")
        .containsEntry(dir, "/var/tmp/mine");
    assertThat(env.of("jdvm@7", 0, "n0", List.of(dir + "=/tmp/jdvm-test-other/x"), List.of()))
        .as("a path that only starts like the scratch directory")
        .containsEntry(dir, "/tmp/jdvm-test-other/x");
  }

  @Test
  void aMarkerInheritedFromTheControllerOrRequestedByTheAppIsReplacedByJdvms() {
    Map<String, String> e =
        environment(Map.of(MARKER, "6379"))
            .of("jdvm@1", 0, "n0", List.of(MARKER + "=from-app"), List.of(MARKER + "=from-core"));
    assertThat(e).containsEntry(MARKER, "jdvm");
  }

  @Test
  void jdvmAddsNoOtherResourceManagersMarkers() {
    Map<String, String> e =
        environment(Map.of("PATH", "/bin")).of("jdvm@1", 0, "n0", List.of(), List.of());
    assertThat(e.keySet())
        .doesNotContain(
            "FLUX_JOB_ID",
            "SLURM_JOBID",
            "SLURM_NODELIST",
            "SLURM_STEP_ID",
            "OMPI_MCA_orte_local_daemon_uri",
            "OMPI_MCA_ess");
  }

  /**
   * The marker does what it is for: Debian's Open MPI 4.1 declares a process with jdvm's
   * environment direct-launched (schizo/jsm) instead of a singleton. The server URI points at a
   * closed port, so MPI_Init then fails at once; only the declaration is checked. Skipped without
   * mpicc.
   */
  @Test
  void openMpi41DeclaresAProcessWithThisEnvironmentDirectLaunched(@TempDir Path dir)
      throws Exception {
    Path source = dir.resolve("init.c");
    Files.writeString(
        source,
        "#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n");
    Path exe = dir.resolve("init");
    Finished build =
        run(List.of("mpicc.openmpi", "-o", exe.toString(), source.toString()), null, dir);
    assumeTrue(
        build != null && build.exitCode() == 0,
        "mpicc.openmpi (libopenmpi-dev) is not installed or could not build an MPI program");
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    Map<String, String> inherited =
        Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin"));
    Map<String, String> env =
        new LaunchEnvironment(
                inherited,
                "jdvm-test.0;tcp4://127.0.0.1:" + closedPort,
                "contact",
                dir.toString(),
                Credentials.generate())
            .of("jdvm@1", 0, "n0", List.of("OMPI_MCA_schizo_base_verbose=1"), List.of());
    Finished init = run(List.of(exe.toString()), env, dir);
    assertThat(init).as("the MPI program ended within its bound").isNotNull();
    assertThat(init.output()).contains("schizo:jsm DECLARED AS DIRECT_LAUNCHED");
  }

  private record Finished(int exitCode, String output) {}

  /**
   * Runs a command to its end, bounded, with exactly {@code env} (or the test's own environment if
   * null); null if it could not start or overran. It and anything it forked (a singleton's private
   * daemon) are ended before returning.
   */
  private static Finished run(List<String> cmd, Map<String, String> env, Path dir)
      throws InterruptedException, IOException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    if (env != null) {
      pb.environment().clear();
      pb.environment().putAll(env);
    }
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      return null;
    }
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        return null;
      }
      return new Finished(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
