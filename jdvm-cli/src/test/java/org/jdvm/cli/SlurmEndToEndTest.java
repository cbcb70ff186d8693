package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jdvm.server.home.DvmHome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm start --scheduler slurm} against a real Slurm 22.05 (four nodes on this machine, made
 * by {@code scripts/slurm/slurm-up.sh}; jdvm-server's {@code SlurmCluster} does the same for the
 * port's own tests). The DVM runs in a JVM of its own, because Slurm's commands find the cluster
 * through {@code SLURM_CONF} in the DVM's environment. Skipped with the reason where a local Slurm
 * cannot run (not root, slurm-wlm not installed).
 */
class SlurmEndToEndTest {
  @TempDir static Path tmp;
  private static Path slurmDir;
  private static Path home;
  private static Process dvm;
  private static String started;

  @BeforeAll
  static void up() throws Exception {
    slurmDir = SlurmScripts.up(tmp);
    startDvm();
  }

  /** {@code jdvm start --scheduler slurm} in a JVM of its own, until it publishes its contact. */
  private static void startDvm() throws Exception {
    home = tmp.resolve("dvm");
    Path out = tmp.resolve("dvm.out");
    ProcessBuilder pb =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "start",
                "--scheduler",
                "slurm",
                "--nodes",
                "1",
                "--dir",
                home.toString(),
                "--name",
                "slurme2e")
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    pb.environment().put("SLURM_CONF", slurmDir.resolve("etc/slurm.conf").toString());
    pb.environment().put("JDVM_SLURM_POLL_MS", "200");
    dvm = pb.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(home.resolve(DvmHome.CONTACT))
        || !Files.readString(out).contains("log:")) {
      assertThat(dvm.isAlive()).as(Files.readString(out)).isTrue();
      assertThat(System.nanoTime()).as("the DVM ready within 60 s").isLessThan(deadline);
      dvm.waitFor(20, TimeUnit.MILLISECONDS);
    }
    started = Files.readString(out);
  }

  @AfterAll
  static void down() throws Exception {
    if (dvm != null) {
      CliRun.of("stop", "--dir", home.toString());
      if (!dvm.waitFor(30, TimeUnit.SECONDS)) {
        dvm.destroyForcibly();
      }
    }
    SlurmScripts.down(slurmDir);
  }

  @Test
  void anAllocationIsASlurmJobThatIsCancelledWhenTheAllocationGoesBack() throws Exception {
    assertThat(started).contains("scheduler: slurm");
    Set<String> before = runningJobs();
    // --inherit none: the allocation goes back to the scheduler when its command ends.
    CliRun r =
        CliRun.of(
            "alloc",
            "new",
            "--dir",
            home.toString(),
            "--nodes",
            "2",
            "--time",
            "120",
            "--inherit",
            "none",
            "--",
            "/bin/true");
    assertThat(r.status()).as(r.err()).isZero();
    // "allocation 7 granted: node1,node2 (session 1, time limit 120 s)": the Slurm job's id
    assertThat(r.out()).matches("(?s)allocation [0-9]+ granted: node[1-4],node[1-4] .*");
    String job = r.out().split(" ")[1];
    assertThat(before).doesNotContain(job);
    awaitState(job, "CANCELLED");
    assertThat(nodes()).doesNotContain("scheduler");
  }

  @Test
  void aSlurmJobCancelledByAnAdministratorEndsTheAllocationAndItsCommand() throws Exception {
    Set<String> before = runningJobs();
    // The command marks that it started: an scancel between the grant and the command's spawn
    // would test a different path (the spawn refused), and did, once in a clean-clone run.
    Path started = tmp.resolve("cancelled-started");
    Process holding =
        jdvm(
            "alloc",
            "new",
            "--nodes",
            "1",
            "--",
            "sh",
            "-c",
            "touch " + started + " && exec sleep 60");
    try {
      String job = newRunningJob(before);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!Files.exists(started)) {
        assertThat(System.nanoTime()).as("the command started").isLessThan(deadline);
        Thread.sleep(20);
      }
      slurm("scancel", job);
      assertThat(holding.waitFor(30, TimeUnit.SECONDS)).as("the holding command ended").isTrue();
      assertThat(new String(holding.getErrorStream().readAllBytes()))
          .contains("ended: reclaimed by the scheduler");
      assertThat(holding.exitValue()).isNotZero();
    } finally {
      holding.destroyForcibly();
    }
  }

  @Test
  void nodesLeftInTheDvmAfterTheirAllocationEndedLeaveWhenSlurmCancelsTheirJob() throws Exception {
    Set<String> before = runningJobs();
    CliRun r =
        CliRun.of("alloc", "new", "--dir", home.toString(), "--nodes", "1", "--", "/bin/true");
    assertThat(r.status()).as(r.err()).isZero();
    String job = newRunningJob(before);
    String node = slurm("squeue", "-h", "-j", job, "-o", "%N");
    assertThat(nodes()).as("unreserved into the default session").contains(node + " ");
    slurm("scancel", job);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (nodes().contains(node + " ")) {
      assertThat(System.nanoTime()).as(node + " gone from the DVM").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  void insideSallocTheAllocationsNodesGetAnAgentEachAndAJobSpansThem() throws Exception {
    Path inside = tmp.resolve("insalloc");
    Path out = tmp.resolve("insalloc.out");
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    boolean mpi =
        new ProcessBuilder(
                    "mpicc.openmpi",
                    "-o",
                    bin.resolve("mpi_hello").toString(),
                    "../jdvm-client/src/test/resources/wireup/mpi_hello.c")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor()
            == 0;
    long t0 = System.nanoTime();
    ProcessBuilder pb =
        new ProcessBuilder(
                "salloc",
                "-N",
                "3",
                "--time=5",
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "start",
                "--listen",
                "127.0.0.1",
                "--dir",
                inside.toString(),
                "--name",
                "insalloc")
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    pb.environment().put("SLURM_CONF", slurmDir.resolve("etc/slurm.conf").toString());
    Process salloc = pb.start();
    List<Long> agents = new ArrayList<>();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(inside.resolve(DvmHome.CONTACT))
          || !Files.readString(out).contains("log:")) {
        assertThat(salloc.isAlive()).as(Files.readString(out)).isTrue();
        assertThat(System.nanoTime()).as("the DVM ready within 60 s").isLessThan(deadline);
        salloc.waitFor(20, TimeUnit.MILLISECONDS);
      }
      System.out.printf(
          "slurm: jdvm start inside salloc -N 3 ready in %d ms%n",
          (System.nanoTime() - t0) / 1_000_000);
      assertThat(Files.readString(out)).contains("joined (3/3)");
      CliRun nodes = CliRun.of("nodes", "--dir", inside.toString(), "--json");
      assertThat(
              ((List<?>) org.jdvm.pmix.json.Json.parse(nodes.out()))
                  .stream()
                      .map(n -> (java.util.Map<?, ?>) n)
                      .filter(n -> "up".equals(n.get("agent")))
                      .map(n -> n.get("name"))
                      .toList())
          .as(nodes.out())
          .hasSize(3)
          .allSatisfy(n -> assertThat((String) n).matches("node[1-4]"));

      CliRun held =
          CliRun.of(
              "run",
              "--dir",
              inside.toString(),
              "--detach",
              "-n",
              "3",
              "--map-by",
              "node",
              "--",
              "sleep",
              "30");
      assertThat(held.status()).as(held.err()).isZero();
      String job = held.out().strip();
      Set<String> ranOn = new HashSet<>();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (agents.size() < 3) {
        agents.clear();
        ranOn.clear();
        CliRun jobs = CliRun.of("jobs", "--dir", inside.toString(), "--json");
        for (Object j : (List<?>) org.jdvm.pmix.json.Json.parse(jobs.out())) {
          java.util.Map<?, ?> m = (java.util.Map<?, ?>) j;
          if (!job.equals(m.get("nspace"))) {
            continue;
          }
          for (Object proc : (List<?>) m.get("procs")) {
            java.util.Map<?, ?> pm = (java.util.Map<?, ?>) proc;
            long pid = ((Number) pm.get("pid")).longValue();
            String node = (String) pm.get("node");
            ranOn.add(node);
            agentOf(pid, node).ifPresent(agents::add);
          }
        }
        assertThat(System.nanoTime()).as("3 ranks, each under its node's agent").isLessThan(until);
        Thread.sleep(20);
      }
      assertThat(ranOn).hasSize(3);
      if (mpi) {
        CliRun hello =
            CliRun.of(
                "run",
                "--dir",
                inside.toString(),
                "-n",
                "3",
                "--map-by",
                "node",
                "--",
                bin.resolve("mpi_hello").toString());
        assertThat(hello.status()).as(hello.err()).isZero();
        assertThat(hello.out().lines().filter(l -> l.startsWith("OK mpi_hello")).count())
            .isEqualTo(3);
      }
      // --scheduler slurm (the default inside) grants the fourth node: it gets an agent too
      CliRun grant =
          CliRun.of(
              "alloc",
              "new",
              "--dir",
              inside.toString(),
              "--nodes",
              "1",
              "--inherit",
              "none",
              "--",
              "/bin/sh",
              "-c",
              "echo agent=$PPID; tr '\\0' ' ' </proc/$PPID/cmdline");
      assertThat(grant.status()).as(grant.err()).isZero();
      assertThat(grant.out()).containsPattern(" agent --controller \\S+ --node node[1-4] ");
      long granted = Long.parseLong(grant.out().replaceAll("(?s).*agent=([0-9]+).*", "$1"));
      agents.add(granted);
      long released = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (ProcessHandle.of(granted).map(ProcessHandle::isAlive).orElse(false)) {
        assertThat(System.nanoTime()).as("the granted node's agent stopped").isLessThan(released);
        Thread.sleep(20);
      }
      assertThat(CliRun.of("stop", "--dir", inside.toString()).status()).isZero();
      assertThat(salloc.waitFor(30, TimeUnit.SECONDS)).as("salloc ended with its DVM").isTrue();
      assertThat(salloc.exitValue()).as(Files.readString(out)).isZero();
      for (long a : agents) {
        long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ProcessHandle.of(a).map(ProcessHandle::isAlive).orElse(false)) {
          assertThat(System.nanoTime()).as("agent " + a + " gone").isLessThan(gone);
          Thread.sleep(20);
        }
      }
    } finally {
      if (salloc.isAlive()) {
        CliRun.of("stop", "--dir", inside.toString());
        if (!salloc.waitFor(30, TimeUnit.SECONDS)) {
          salloc.destroyForcibly();
        }
      }
    }
  }

  /** The pid of the {@code jdvm agent} of {@code node} that {@code pid} runs under, if any. */
  private static java.util.Optional<Long> agentOf(long pid, String node) {
    java.util.Optional<ProcessHandle> p = ProcessHandle.of(pid).flatMap(ProcessHandle::parent);
    for (int up = 0; up < 3 && p.isPresent(); up++) {
      try {
        String cmd =
            Files.readString(Path.of("/proc", Long.toString(p.get().pid()), "cmdline"))
                .replace('\0', ' ');
        if (cmd.contains(" agent --controller ") && cmd.contains(" --node " + node + " ")) {
          return java.util.Optional.of(p.get().pid());
        }
      } catch (IOException e) {
        return java.util.Optional.empty();
      }
      p = p.get().parent();
    }
    return java.util.Optional.empty();
  }

  /** {@code jdvm ARGS --dir HOME} in a JVM of its own (a command that holds, say). */
  private static Process jdvm(String... args) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                args[0],
                args[1],
                "--dir",
                home.toString()));
    cmd.addAll(List.of(args).subList(2, args.length));
    return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  private static String nodes() {
    CliRun r = CliRun.of("nodes", "--dir", home.toString());
    assertThat(r.status()).as(r.err()).isZero();
    return r.out();
  }

  private static Set<String> runningJobs() throws Exception {
    return new HashSet<>(List.of(slurm("squeue", "-h", "-t", "RUNNING", "-o", "%i").split("\\s+")));
  }

  /** The one Slurm job that runs now and did not before. */
  private static String newRunningJob(Set<String> before) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Set<String> now = runningJobs();
      now.removeAll(before);
      now.remove("");
      if (!now.isEmpty()) {
        assertThat(now).hasSize(1);
        return now.iterator().next();
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no new running Slurm job within 30 s");
  }

  private static void awaitState(String job, String state) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String now = "";
    while (System.nanoTime() < deadline) {
      now = slurm("squeue", "-h", "-t", "all", "-j", job, "-o", "%T");
      if (now.equals(state)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("job " + job + " is " + now + ", not " + state);
  }

  private static String slurm(String... argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().put("SLURM_CONF", slurmDir.resolve("etc/slurm.conf").toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(15, TimeUnit.SECONDS);
    return out.strip();
  }
}
