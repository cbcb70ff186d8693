package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.host.topology.Topology;
import org.jdvm.host.topology.TopologyReader;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Open MPI program that prints its cpus and the groups {@code MPI_Comm_split_type} makes (shared
 * memory, and Open MPI's socket, L3, core and hardware-thread splits, which it computes from the
 * peers' {@code PMIX_LOCALITY_STRING}), run under {@code jdvm run} on one virtual node of this host
 * and under {@code mpirun.openmpi} with the same options: the same lines.
 */
class MpiBindingTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        MpiJobs.build(
            "mpicc.openmpi", PROGRAMS.resolve("mpi_binding.c"), bin.resolve("mpi_binding")),
        "mpicc.openmpi (libopenmpi-dev) could not build mpi_binding");
    assumeTrue(MpiJobs.succeeds(List.of("mpirun.openmpi", "--version")), "no mpirun.openmpi");
    assumeTrue(
        TopologyReader.host().count(Topology.Level.CORE) >= 2, "the comparison needs 2 cores");
    server = DvmServer.start(DvmConfig.embedded("mpibind", 1, 2, 0, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static List<String> sorted(String out) {
    return Arrays.stream(out.split("\n")).filter(l -> l.startsWith("rank ")).sorted().toList();
  }

  private static List<String> underJdvm(String... options) {
    List<String> args = new ArrayList<>(List.of("run", "--dir", dir.toString()));
    args.addAll(List.of(options));
    args.addAll(List.of("--", bin.resolve("mpi_binding").toString()));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    return sorted(r.out());
  }

  private static List<String> underMpirun(String... options) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("mpirun.openmpi"));
    cmd.addAll(List.of(options));
    cmd.add(bin.resolve("mpi_binding").toString());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1"); // the suite may run as root
    pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    pb.environment().keySet().removeIf(k -> k.startsWith("PMIX_") || k.startsWith("JDVM_"));
    Process p = pb.start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      return sorted(out);
    } finally {
      p.destroyForcibly();
    }
  }

  private static void same(String... options) throws Exception {
    List<String> mpirun = underMpirun(options);
    assertThat(mpirun).hasSize(2);
    assertThat(underJdvm(options)).as("jdvm run " + String.join(" ", options)).isEqualTo(mpirun);
  }

  @Test
  void bindToCoreMapByCoreGivesWhatMpirunGives() throws Exception {
    same("--bind-to", "core", "--map-by", "core", "-n", "2");
  }

  @Test
  void mapBySocketGivesWhatMpirunGives() throws Exception {
    same("--map-by", "socket", "-n", "2");
  }

  @Test
  void bindToNoneGivesWhatMpirunGives() throws Exception {
    same("--bind-to", "none", "-n", "2");
  }
}
