package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.server.home.DvmHome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm start --scheduler slurm} outside any allocation, against a real Slurm 22.05 (four
 * nodes on this machine, {@code scripts/slurm/slurm-up.sh}, as {@link SlurmEndToEndTest}): a node
 * Slurm grants runs its processes under a {@code jdvm agent} that is a step of the node's Slurm
 * job, they see that step's {@code SLURM_*} variables, MPI programs of both families wire up there,
 * and releasing the allocation ends them with the agent and the job. The DVM is given no {@code
 * --listen}: where this host's name is loopback, it listens on the address that routes to Slurm's
 * nodes. Skipped with the reason where a local Slurm cannot run.
 */
class SlurmGrantedAgentsTest {
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  @TempDir static Path tmp;
  private static Path slurmDir;
  private static Path home;
  private static Process dvm;
  private static final List<Long> pids = new ArrayList<>();

  @BeforeAll
  static void up() throws Exception {
    slurmDir = SlurmScripts.up(tmp);
    home = tmp.resolve("dvm");
    Path out = tmp.resolve("dvm.out");
    ProcessBuilder pb =
        new ProcessBuilder(
                ChildJdvm.command(
                    "start",
                    "--scheduler",
                    "slurm",
                    "--nodes",
                    "1",
                    "--dir",
                    home.toString(),
                    "--name",
                    "slurmgrants"))
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    pb.environment().put("SLURM_CONF", slurmDir.resolve("etc/slurm.conf").toString());
    pb.environment().put("JDVM_SLURM_POLL_MS", "200");
    dvm = pb.start();
    Listings.until(
        () -> {
          assertThat(dvm.isAlive()).as(read(out)).isTrue();
          return Files.exists(home.resolve(DvmHome.CONTACT)) && read(out).contains("log:");
        },
        "the DVM ready",
        60);
  }

  @AfterAll
  static void down() throws Exception {
    try {
      if (dvm != null) {
        CliRun.of("stop", "--dir", home.toString());
        if (!dvm.waitFor(30, TimeUnit.SECONDS)) {
          dvm.destroyForcibly();
        }
      }
      for (long pid : pids) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    } finally {
      SlurmScripts.down(slurmDir);
    }
  }

  @Test
  void aGrantedNodesProcessRunsUnderAnAgentStepOfItsSlurmJobAndEndsWithTheAllocation()
      throws Exception {
    try (JdvmClient tool = JdvmClient.connector().dir(home).connect()) {
      AllocationResult granted =
          tool.allocate(
              AllocationRequest.newAllocation()
                  .nodes(1)
                  .inheritance(AllocInheritance.NONE)
                  .reqId("granted")
                  .timeSeconds(600)
                  .build());
      String job = granted.allocId();
      String node = granted.nodes().getFirst();
      assertThat(node).matches("node[1-4]");
      // the requester heard of the grant once the agent joined: it is a step of the node's job
      assertThat(slurm("squeue", "-h", "-s", "-j", job, "-o", "%i|%j|%N"))
          .isEqualTo(job + ".0|jdvm-agent|" + node);
      tool.spawn(SpawnRequest.of("sleep", "300").target(job).build());
      long[] pid = new long[1];
      Listings.until(() -> (pid[0] = runningPidOn(tool, node)) > 0, "the process running", 30);
      pids.add(pid[0]);
      long agent = agentOf(pid[0], node);
      pids.add(agent);
      Map<String, String> env = environ(pid[0]);
      assertThat(env)
          .containsEntry("SLURM_JOB_ID", job)
          .containsEntry("SLURM_JOBID", job)
          .containsEntry("SLURM_STEP_ID", "0")
          .containsEntry("SLURM_NODELIST", node)
          .containsEntry("SLURMD_NODENAME", node)
          .containsEntry("SLURM_NODEID", "0")
          .doesNotContainKeys("SLURM_PROCID", "SLURM_LOCALID", "SLURM_SRUN_COMM_PORT");
      assertThat(environ(agent)).containsEntry("SLURM_JOB_ID", job);
      assertThat(
              ProcessHandle.of(agent)
                  .flatMap(ProcessHandle::parent)
                  .map(SlurmGrantedAgentsTest::cmd))
          .as("the agent is the task of a slurmstepd")
          .hasValueSatisfying(c -> assertThat(c).startsWith("slurmstepd: [" + job + ".0]"));

      tool.allocate(AllocationRequest.release().reqId("granted").build());
      Listings.until(() -> !alive(pid[0]), "the process ended by the release", 30);
      Listings.until(() -> !alive(agent), "the agent ended by the release", 30);
      Listings.until(
          () -> slurm("squeue", "-h", "-t", "all", "-j", job, "-o", "%T").equals("CANCELLED"),
          "the Slurm job cancelled",
          30);
    }
  }

  @Test
  void openMpiAndMpichProgramsWireUpOnAGrantedNode() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    boolean ompi =
        MpiJobs.build("mpicc.openmpi", PROGRAMS.resolve("mpi_hello.c"), bin.resolve("ompi_hello"));
    boolean mpich =
        MpiJobs.build("mpicc.mpich", PROGRAMS.resolve("mpi_hello.c"), bin.resolve("mpich_hello"));
    assumeTrue(ompi || mpich, "neither mpicc.openmpi nor mpicc.mpich could build mpi_hello");
    for (String program : List.of("ompi_hello", "mpich_hello")) {
      if (!Files.isExecutable(bin.resolve(program))) {
        continue;
      }
      // the allocation's command runs jdvm run on the granted node: its two ranks land there
      List<String> run = ChildJdvm.command("run", "-n", "2", "--", "/bin/sh", "-c");
      run.add("echo on=$SLURMD_NODENAME job=$SLURM_JOB_ID; exec " + bin.resolve(program));
      List<String> args =
          new ArrayList<>(
              List.of(
                  "alloc",
                  "new",
                  "--dir",
                  home.toString(),
                  "--nodes",
                  "1",
                  "--inherit",
                  "none",
                  "--"));
      args.addAll(run);
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertThat(r.status()).as(program + ": " + r.out() + r.err()).isZero();
      String job = r.out().replaceAll("(?s)^allocation ([0-9]+) granted: (node[1-4]) .*", "$1");
      String node = r.out().replaceAll("(?s)^allocation ([0-9]+) granted: (node[1-4]) .*", "$2");
      assertThat(r.out())
          .as(program)
          .containsPattern("OK mpi_hello rank=0 size=2 ")
          .containsPattern("OK mpi_hello rank=1 size=2 ");
      assertThat(r.out().lines().filter(l -> l.equals("on=" + node + " job=" + job)).count())
          .as(program + ": both ranks on the granted node, in its Slurm job: " + r.out())
          .isEqualTo(2);
    }
  }

  /** The pid of a running process of the DVM on {@code node}, or 0. */
  private static long runningPidOn(JdvmClient c, String node) {
    for (Map<String, Object> j : Listings.jobs(c)) {
      for (Object p : (List<?>) j.get("procs")) {
        Map<?, ?> pm = (Map<?, ?>) p;
        if (node.equals(pm.get("node")) && "running".equals(pm.get("state"))) {
          return ((Number) pm.get("pid")).longValue();
        }
      }
    }
    return 0;
  }

  /** The pid of the {@code jdvm agent} of {@code node} that {@code pid} runs under. */
  private static long agentOf(long pid, String node) {
    Optional<ProcessHandle> p = ProcessHandle.of(pid).flatMap(ProcessHandle::parent);
    for (int up = 0; up < 3 && p.isPresent(); up++) {
      String c = cmd(p.get());
      if (c.contains(" agent --controller ") && c.contains(" --node " + node + " ")) {
        return p.get().pid();
      }
      p = p.get().parent();
    }
    throw new AssertionError("no agent of " + node + " above pid " + pid);
  }

  private static String cmd(ProcessHandle p) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"))
          .replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  private static Map<String, String> environ(long pid) throws IOException {
    Map<String, String> env = new HashMap<>();
    for (String kv :
        Files.readString(Path.of("/proc", Long.toString(pid), "environ")).split("\0")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        env.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return env;
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return "";
    }
  }

  private static String slurm(String... argv) {
    try {
      ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
      pb.environment().put("SLURM_CONF", slurmDir.resolve("etc/slurm.conf").toString());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      return out.strip();
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
