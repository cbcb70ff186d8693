package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.cli.Listings.list;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.AllocInheritance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Slurm", against a real Slurm 22.05 (four nodes on this machine, made by {@code
 * scripts/slurm/slurm-up.sh} as for {@link SlurmEndToEndTest}): a {@code jdvm start --scheduler
 * slurm} holding two granted allocations and a queued request is killed with SIGKILL, one Slurm job
 * is cancelled and an unjournaled one appears while it is down, and the restarted controller
 * re-adopts the running job by its id, reclaims the cancelled one, keeps waiting for the queued one
 * and cancels the stray; after {@code jdvm stop} nothing of the DVM is left in Slurm. Skipped with
 * the reason where a local Slurm cannot run.
 */
class SlurmControllerCrashTest {
  @TempDir Path tmp;
  private Path slurmDir;
  private Path home;
  private final List<Process> started = new ArrayList<>();
  private final List<JdvmClient> clients = new ArrayList<>();
  private final List<Long> pids = new ArrayList<>();

  @BeforeEach
  void up() throws Exception {
    slurmDir = SlurmScripts.up(tmp);
    home = tmp.resolve("dvm");
  }

  @AfterEach
  void down() throws Exception {
    clients.forEach(JdvmClient::close);
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
    }
    for (long pid : pids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    SlurmScripts.down(slurmDir);
  }

  @Test
  void aKilledDvmReadoptsItsRunningSlurmJobsByIdAndReclaimsTheOneCancelledWhileItWasDown()
      throws Exception {
    Process dvm = startDvm();
    JdvmClient tool = connect(null);
    String toolNs = tool.self().nspace();
    AllocationResult kept =
        tool.allocate(
            AllocationRequest.newAllocation()
                .nodes(2)
                .inheritance(AllocInheritance.NONE)
                .reqId("kept")
                .timeSeconds(600)
                .build());
    AllocationResult lost =
        tool.allocate(
            AllocationRequest.newAllocation()
                .nodes(1)
                .inheritance(AllocInheritance.NONE)
                .reqId("lost")
                .timeSeconds(600)
                .build());
    String keptJob = kept.allocId();
    String lostJob = lost.allocId();
    assertThat(slurm("squeue", "-h", "-j", keptJob, "-o", "%T %N")).startsWith("RUNNING ");
    String keptNodes = slurm("squeue", "-h", "-j", keptJob, "-o", "%N");
    String name = slurm("squeue", "-h", "-j", keptJob, "-o", "%j");
    assertThat(name).as("the DVM's jobs carry its tag").matches("jdvm-[a-z0-9]+");
    // A job of this DVM its journal never heard of (as if the DVM died between salloc and the
    // write).
    String strayOut = slurm("salloc", "--no-shell", "-N", "1", "-t", "5", "-J", name);
    String stray = strayOut.replaceAll("(?s).*Granted job allocation ([0-9]+).*", "$1");
    assertThat(stray).as(strayOut).matches("[0-9]+");
    // Three nodes for a request that may wait: none is free, so it waits in Slurm's queue.
    JdvmClient waiter = connect(null);
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                waiter.allocate(
                    AllocationRequest.newAllocation()
                        .nodes(3)
                        .notRequired()
                        .reqId("queued")
                        .timeSeconds(600)
                        .build());
              } catch (PmixException e) {
                // its connection dies with the controller
              }
            });
    until(() -> !pendingJobs().isEmpty(), "the request to wait in Slurm's queue");
    String queuedJob = pendingJobs().getFirst();
    assertThat(slurm("squeue", "-h", "-j", queuedJob, "-o", "%j")).isEqualTo(name);

    dvm.destroyForcibly(); // SIGKILL
    assertThat(dvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
    long killed = System.nanoTime();
    slurm("scancel", lostJob);
    until(
        () -> slurm("squeue", "-h", "-t", "all", "-j", lostJob, "-o", "%T").equals("CANCELLED"),
        "the cancelled job to be CANCELLED");

    startDvm();
    System.out.printf(
        "slurm: restarted controller ready %d ms after the SIGKILL (jobs re-adopted)%n",
        (System.nanoTime() - killed) / 1_000_000);
    String log = Files.readString(home.resolve("dvm.log"));
    assertThat(log)
        .contains(
            "recovered=slurm jobs_readopted=1 reclaimed=1 asks_still_queued=1 jobs_cancelled=1",
            "slurm: job " + keptJob + " still runs: re-adopted for allocation " + keptJob,
            "slurm: job " + stray + " cancelled at recovery: not in the journal");
    assertThat(
            log.lines()
                .filter(l -> l.contains("job " + lostJob + " ended outside the DVM"))
                .count())
        .as("the cancelled job reclaimed once")
        .isEqualTo(1);
    assertThat(slurm("squeue", "-h", "-t", "all", "-j", keptJob, "-o", "%T %N"))
        .as("the same job, on the same nodes")
        .isEqualTo("RUNNING " + keptNodes);
    assertThat(slurm("squeue", "-h", "-t", "all", "-j", queuedJob, "-o", "%T"))
        .isEqualTo("PENDING");
    until(
        () -> slurm("squeue", "-h", "-t", "all", "-j", stray, "-o", "%T").equals("CANCELLED"),
        "the stray job cancelled");

    JdvmClient look = connect(null);
    List<Map<String, Object>> allocs = list(look.allocsJson());
    assertThat(allocs)
        .as("the kept allocation, by its Slurm job id; the lost one reclaimed")
        .extracting(a -> a.get("allocId"))
        .contains(keptJob)
        .doesNotContain(lostJob);
    Map<String, Object> back =
        allocs.stream().filter(a -> keptJob.equals(a.get("allocId"))).findFirst().orElseThrow();
    assertThat(back.get("nodes")).isEqualTo(List.copyOf(kept.nodes()));
    String nodes = look.nodesJson();
    assertThat(nodes).doesNotContain("\"" + lost.nodes().getFirst() + "\"");

    // The tool comes back to its namespace; releasing the kept allocation cancels its Slurm job.
    JdvmClient owner = connect(toolNs);
    owner.allocate(AllocationRequest.release().reqId("kept").build());
    until(
        () -> slurm("squeue", "-h", "-t", "all", "-j", keptJob, "-o", "%T").equals("CANCELLED"),
        "the re-adopted job cancelled by its release");

    owner.stopDvm();
    until(
        () -> slurm("squeue", "-h", "-t", "PD,R,CG", "-n", name, "-o", "%i").isEmpty(),
        "nothing of the DVM left in Slurm");
  }

  @Test
  void theAgentOfAGrantedSlurmNodeOutlivesTheControllerAndRejoinsItWithItsProcess()
      throws Exception {
    // As in a batch script: the DVM runs inside an allocation that outlives it.
    String outerOut = slurm("salloc", "--no-shell", "-N", "1", "-t", "5", "-J", "outer");
    String outer = outerOut.replaceAll("(?s).*Granted job allocation ([0-9]+).*", "$1");
    assertThat(outer).as(outerOut).matches("[0-9]+");
    Map<String, String> inside =
        Map.of(
            "SLURM_JOB_ID",
            outer,
            "SLURM_JOB_NODELIST",
            slurm("squeue", "-h", "-j", outer, "-o", "%N"),
            "SLURM_TASKS_PER_NODE",
            "4");
    Process dvm = startDvm(inside, "--listen", "127.0.0.1");
    java("alloc", "new", "--dir", home.toString(), "--nodes", "1", "--", "sleep", "120");
    long[] procPid = new long[1];
    String[] where = new String[2];
    until(
        () -> {
          for (Map<String, Object> j : Listings.list(cli("jobs", "--json"))) {
            for (Object p : (List<?>) j.get("procs")) {
              Map<?, ?> pm = (Map<?, ?>) p;
              if (String.valueOf(pm.get("node")).matches("node[1-4]")
                  && "running".equals(pm.get("state"))) {
                procPid[0] = ((Number) pm.get("pid")).longValue();
                where[0] = (String) pm.get("node");
                where[1] = (String) j.get("nspace");
                return true;
              }
            }
          }
          return false;
        },
        "the held command to run on a Slurm node");
    String node = where[0];
    String job = where[1];
    long agent = agentOf(procPid[0], node);
    pids.addAll(List.of(procPid[0], agent));
    assertThat(Files.readString(home.resolve("agents"))).contains("granted=" + node);

    dvm.destroyForcibly(); // SIGKILL
    assertThat(dvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(ProcessHandle.of(agent).map(ProcessHandle::isAlive)).contains(true);

    startDvm(inside, "--listen", "127.0.0.1");
    assertThat(Files.readString(home.resolve("dvm.log")))
        .contains("agents rejoined=2 missing=0 procs_running=1", "jobs_readopted=1");
    assertThat(ProcessHandle.of(procPid[0]).map(ProcessHandle::isAlive))
        .as("the process ran on through the restart")
        .contains(true);
    Map<String, Object> back =
        Listings.list(cli("nodes", "--json")).stream()
            .filter(n -> node.equals(n.get("name")))
            .findFirst()
            .orElseThrow();
    assertThat(back.get("agent")).isEqualTo("up");
    Map<String, Object> j =
        Listings.list(cli("jobs", "--json")).stream()
            .filter(x -> job.equals(x.get("nspace")))
            .findFirst()
            .orElseThrow();
    assertThat(j.get("state")).isEqualTo("running");

    assertThat(CliRun.of("stop", "--dir", home.toString()).status()).isZero();
    until(
        () -> !ProcessHandle.of(procPid[0]).map(ProcessHandle::isAlive).orElse(false),
        "the held command's process ended by the stop");
    until(() -> !ProcessHandle.of(agent).map(ProcessHandle::isAlive).orElse(false), "agent gone");
    until(
        () -> slurm("squeue", "-h", "-t", "PD,R,CG", "-o", "%i").equals(outer),
        "nothing of the DVM left in Slurm but the allocation it ran in");
  }

  // ---- helpers -------------------------------------------------------------------------------

  private Process startDvm() throws Exception {
    return startDvm(Map.of(), "--scheduler", "slurm", "--nodes", "1");
  }

  private Process startDvm(Map<String, String> env, String... options) throws Exception {
    List<String> cmd = ChildJdvm.command("start", "--dir", home.toString(), "--name", "slurmcrash");
    cmd.addAll(List.of(options));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("SLURM_CONF", slurmDir.resolve("etc/slurm.conf").toString());
    pb.environment().put("JDVM_SLURM_POLL_MS", "200");
    pb.environment().putAll(env);
    Process p = pb.start();
    started.add(p);
    until(
        () -> {
          assertThat(p.isAlive()).as("jdvm start runs").isTrue();
          try (JdvmClient c = JdvmClient.connector().dir(home).connect()) {
            return c.self() != null;
          } catch (PmixException e) {
            return false;
          }
        },
        "the DVM to accept connections");
    return p;
  }

  private String cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(1, List.of("--dir", home.toString()));
    CliRun r = CliRun.of(all.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    return r.out();
  }

  private Process java(String... args) throws IOException {
    List<String> cmd = ChildJdvm.command();
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(p);
    return p;
  }

  /** The pid of the {@code jdvm agent} of {@code node} that {@code pid} runs under. */
  private static long agentOf(long pid, String node) throws IOException {
    java.util.Optional<ProcessHandle> p = ProcessHandle.of(pid).flatMap(ProcessHandle::parent);
    for (int up = 0; up < 3 && p.isPresent(); up++) {
      String cmd =
          Files.readString(Path.of("/proc", Long.toString(p.get().pid()), "cmdline"))
              .replace('\0', ' ');
      if (cmd.contains(" agent --controller ") && cmd.contains(" --node " + node + " ")) {
        return p.get().pid();
      }
      p = p.get().parent();
    }
    throw new AssertionError("no agent of " + node + " above pid " + pid);
  }

  private JdvmClient connect(String namespace) throws PmixException {
    JdvmClient c = JdvmClient.connector().dir(home).namespace(namespace).connect();
    clients.add(c);
    return c;
  }

  private List<String> pendingJobs() {
    String out = slurm("squeue", "-h", "-t", "PD", "-o", "%i");
    return out.isEmpty() ? List.of() : List.of(out.split("\\s+"));
  }

  private String slurm(String... argv) {
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

  private static void until(BooleanSupplier condition, String what) throws InterruptedException {
    Listings.until(condition, what, 30);
  }
}
