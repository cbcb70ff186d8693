package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.cli.Listings.jobOf;
import static org.jdvm.cli.Listings.jobs;
import static org.jdvm.cli.Listings.list;
import static org.jdvm.cli.Listings.without;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.AllocInheritance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Agents that outlive the controller", end to end on three simulated hosts
 * (scripts/multihost; needs root): a controller started as a process of its own with an agent on
 * each host, holding an allocation of each disposition and two jobs across the three hosts, is
 * killed with SIGKILL; one job's processes end while it is away; {@code jdvm start} on the same
 * directory brings every allocation back, the agents rejoin with the job that kept running (same
 * processes), the job that ended meanwhile ends with its real status, and both {@code jdvm run}
 * tools reconnect and exit with their job's status. Skipped, with the reason, where namespaces
 * cannot be made; waits (bounded) while another test holds the simulated hosts.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class MultiHostRecoveryTest {
  @TempDir Path dir;
  private final Path mh = multihostDir();
  private final List<Process> started = new ArrayList<>();
  private final Set<Long> jobPids = new HashSet<>();
  private final List<JdvmClient> clients = new ArrayList<>();
  private boolean up;

  private static Path multihostDir() {
    Path at = Path.of("").toAbsolutePath();
    while (at != null && !Files.isDirectory(at.resolve("scripts/multihost"))) {
      at = at.getParent();
    }
    return at == null ? Path.of("scripts/multihost") : at.resolve("scripts/multihost");
  }

  @AfterEach
  void endEverythingThisTestStarted() throws Exception {
    clients.forEach(JdvmClient::close);
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
    }
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    if (up) {
      mh("hosts-down.sh");
    }
    // What the DVMs and tools said, for a post-mortem (target/ is the module's build directory).
    Path keep = Path.of("target", "multihost-recovery");
    Files.createDirectories(keep);
    try (var files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.toString().matches(".*\\.(log|err|out)$")).toList()) {
        Files.copy(
            f, keep.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  @Test
  void aControllerKilledWhileJobsRunOnThreeHostsIsStartedAgainAndItsJobsFinishNormally()
      throws Exception {
    hostsUp();
    Path launcher =
        Files.isExecutable(Path.of("/usr/sbin/sshd")) ? null : mh.resolve("hostexec.sh");
    Process first = startDvm(launcher, true);
    JdvmClient tool = connect(null);
    String toolNs = tool.self().nspace();
    // Three shared with the jobs on the three hosts; one reserving the controller's own node.
    String own =
        (String)
            list(tool.nodesJson()).stream()
                .filter(n -> "local".equals(n.get("agent")))
                .findFirst()
                .orElseThrow()
                .get("name");
    int k = 0;
    for (AllocInheritance how : AllocInheritance.values()) {
      k++;
      tool.allocate(
          AllocationRequest.newAllocation()
              .nodeList(k <= 3 ? "host" + k : own)
              .share(k <= 3)
              .inheritance(how)
              .reqId("mh-" + how)
              .timeSeconds(3600)
              .build());
    }
    Path keepGoing = dir.resolve("keep-going");
    Path endNow = dir.resolve("end-now");
    Process runs = run(keepGoing, 3, "runs");
    until(() -> appJobs(tool).size() == 1, "the first job to run on the three hosts");
    String keptNs = (String) appJobs(tool).getFirst().get("nspace");
    Process ends = run(endNow, 5, "ends");
    until(() -> appJobs(tool).size() == 2, "the second job to run on the three hosts");
    String endedNs =
        appJobs(tool).stream()
            .map(j -> (String) j.get("nspace"))
            .filter(ns -> !ns.equals(keptNs))
            .findFirst()
            .orElseThrow();
    for (Map<String, Object> j : appJobs(tool)) {
      jobPids.addAll(pids(j));
    }
    List<Long> keptPids = pids(tool, keptNs);
    List<Long> endedPids = pids(tool, endedNs);
    List<Map<String, Object>> before = list(tool.allocsJson());
    assertThat(before).hasSize(4);

    first.destroyForcibly(); // SIGKILL
    assertThat(first.waitFor(20, TimeUnit.SECONDS)).isTrue();
    Files.createFile(endNow); // these ranks end while the controller is away
    until(() -> endedPids.stream().allMatch(MultiHostRecoveryTest::gone), "ranks to end");
    assertThat(keptPids).allMatch(p -> !gone(p));

    long t0 = System.nanoTime();
    startDvm(null, false);
    long contactMs = (System.nanoTime() - t0) / 1_000_000;
    JdvmClient look = connect(null);
    until(
        () -> agentsUp(look) == 3 && "terminated".equals(jobOf(look, endedNs).get("state")),
        "the agents to rejoin and the ended job to be decided");
    long rejoinedMs = (System.nanoTime() - t0) / 1_000_000;
    System.out.printf(
        "multihost recovery: restarted controller answering after %d ms, 3 agents up and the"
            + " ended job decided after %d ms%n",
        contactMs, rejoinedMs);
    assertThat(jobOf(look, endedNs).get("exitCode")).isEqualTo(5L);
    assertThat(jobOf(look, keptNs).get("state")).isEqualTo("running");
    assertThat(pids(look, keptNs)).isEqualTo(keptPids);

    List<Map<String, Object>> after = list(look.allocsJson());
    assertThat(after).hasSize(4);
    for (int i = 0; i < before.size(); i++) {
      Map<String, Object> want = new LinkedHashMap<>(before.get(i));
      want.put("owners", without(want.get("owners"), endedNs));
      want.put("jobs", without(want.get("jobs"), endedNs));
      assertThat(after.get(i)).as("allocation %s", want.get("allocId")).isEqualTo(want);
    }

    assertThat(ends.waitFor(90, TimeUnit.SECONDS)).as("jdvm run of the ended job ends").isTrue();
    assertThat(ends.exitValue()).as(err("ends")).isEqualTo(5);
    until(() -> err("runs").contains("still runs"), "jdvm run to wait on the recovered DVM");
    Files.createFile(keepGoing);
    assertThat(runs.waitFor(90, TimeUnit.SECONDS)).as("jdvm run of the kept job ends").isTrue();
    assertThat(runs.exitValue()).as(err("runs")).isEqualTo(3);
    assertThat(err("runs"))
        .contains("reconnecting as", "reconnected; job " + keptNs + " still runs")
        .doesNotContain("while the DVM was away");
    assertThat(err("ends")).contains("job " + endedNs + " ended while the DVM was away");
    assertThat(jobOf(look, keptNs).get("exitCode")).isEqualTo(3L);

    JdvmClient back = connect(toolNs);
    assertThat(back.self().nspace()).isEqualTo(toolNs);
    back.allocate(AllocationRequest.release().reqId("mh-NONE").build());
    assertThat(list(back.allocsJson())).hasSize(3);
    back.stopDvm();
  }

  // ---- helpers -------------------------------------------------------------------------------

  private void hostsUp() throws Exception {
    assumeTrue(Files.isExecutable(mh.resolve("hosts-up.sh")), "no multihost tool at " + mh);
    Process check =
        new ProcessBuilder(mh.resolve("hosts-up.sh").toString(), "--check")
            .redirectErrorStream(true)
            .start();
    String why = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assumeTrue(check.waitFor() == 0, "no simulated hosts: " + why);
    // One set of simulated hosts per machine: wait while another test holds them.
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(8);
    while (netnsHeld()) {
      assumeTrue(System.nanoTime() < deadline, "the simulated hosts stayed in use for 8 minutes");
      Thread.sleep(1000);
    }
    mh("hosts-up.sh", "3");
    up = true;
  }

  private static boolean netnsHeld() throws Exception {
    Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out.lines().anyMatch(l -> l.startsWith("host"));
  }

  private String mh(String script, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(mh.resolve(script).toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(cmd + " failed: " + out);
    }
    return out;
  }

  /** A controller of its own; the first across the three hosts, the second on the directory. */
  private Process startDvm(Path hostexec, boolean across) throws Exception {
    List<String> args = new ArrayList<>(List.of("start", "--dir", dir.toString()));
    if (across) {
      args.addAll(
          List.of(
              "--name",
              "mhr",
              "--hosts",
              "localhost:1,host1:2,host2:2,host3:2",
              "--listen",
              "10.77.0.1",
              "--launcher",
              hostexec != null ? hostexec.toString() : "/usr/bin/ssh -F /tmp/mh/ssh/config",
              "--agent-command",
              String.join(" ", javaCommand()),
              "--heartbeat-ms",
              "250",
              "--missed-heartbeats",
              "8"));
    }
    Process p = java("dvm" + started.size(), args.toArray(String[]::new));
    until(
        () -> {
          try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
            return c.self() != null;
          } catch (PmixException e) {
            return !p.isAlive() && fail("the DVM exited: " + err("dvm" + (started.size() - 1)));
          }
        },
        "the DVM to accept connections");
    return p;
  }

  private static boolean fail(String why) {
    throw new AssertionError(why);
  }

  /** A {@code jdvm run} of 3 ranks, one per host, that exit with {@code status} once told. */
  private Process run(Path trigger, int status, String name) throws IOException {
    return java(
        name,
        "run",
        "--dir",
        dir.toString(),
        "-n",
        "3",
        "--map-by",
        "node",
        "--stdin",
        "none",
        "--",
        "/bin/sh",
        "-c",
        "while [ ! -e " + trigger + " ]; do sleep 0.05; done; exit " + status);
  }

  private static List<String> javaCommand() {
    return List.of(
        ProcessHandle.current().info().command().orElse("java"),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-cp",
        System.getProperty("java.class.path"),
        Main.class.getName());
  }

  private Process java(String name, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(javaCommand());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(new File(dir.toFile(), name + ".err"))
            .start();
    started.add(p);
    return p;
  }

  private String err(String name) {
    try {
      return Files.readString(dir.resolve(name + ".err"));
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  private JdvmClient connect(String namespace) throws PmixException {
    JdvmClient c = JdvmClient.connector().dir(dir).namespace(namespace).connect();
    clients.add(c);
    return c;
  }

  private static boolean gone(long pid) {
    return ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
  }

  private static long agentsUp(JdvmClient c) {
    try {
      return list(c.nodesJson()).stream().filter(n -> "up".equals(n.get("agent"))).count();
    } catch (PmixException e) {
      throw new AssertionError(e);
    }
  }

  private static List<Map<String, Object>> appJobs(JdvmClient c) {
    return jobs(c).stream()
        .filter(
            j ->
                "application".equals(j.get("kind"))
                    && "running".equals(j.get("state"))
                    && pids(j).size() == 3)
        .toList();
  }

  private static List<Long> pids(JdvmClient c, String ns) {
    return pids(jobOf(c, ns));
  }

  private static List<Long> pids(Map<String, Object> job) {
    List<Long> out = new ArrayList<>();
    for (Object p : (List<?>) job.getOrDefault("procs", List.of())) {
      Object pid = ((Map<?, ?>) p).get("pid");
      if (pid instanceof Number n && n.longValue() > 0) {
        out.add(n.longValue());
      }
    }
    return out;
  }

  private static void until(BooleanSupplier condition, String what) throws InterruptedException {
    Listings.until(condition, what, 40);
  }
}
