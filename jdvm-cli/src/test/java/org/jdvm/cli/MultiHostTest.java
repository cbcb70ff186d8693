package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.agents.SshAgentStarter;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DVM across three simulated hosts (scripts/multihost: network and UTS namespaces with an sshd
 * each; needs root): the controller in this JVM on host0, a {@code jdvm agent} per host started by
 * ssh, jobs whose ranks run on different hosts, and each host fault with its outcome — a slow host
 * stays up, a killed agent and a partitioned host go down, their jobs end, nothing is mapped onto
 * them again, a healed partition's agent is refused and ends what it ran — and a teardown that
 * leaves no process on any host. Ranks on the hosts reach the controller through their agents' PMIx
 * relays: an Open MPI program (without mpicc, skipped) and a libpmix fence with data (without
 * libpmix-dev, skipped) span the hosts. Skipped, with the reason, where namespaces cannot be made.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MultiHostTest {
  private static final Path MH = multihostDir();
  private static final long HEARTBEAT_MS = 250;
  private static final int MISSED = 8;
  private static final Path PROGRAMS = Path.of("../jdvm-client/src/test/resources/wireup");
  @TempDir static Path dir;
  @TempDir static Path bin;
  private static String noMpi;
  private static String noMpich;
  private static String noPmix;
  private static boolean up;
  private static DvmServer server;
  private static final List<String> progress = new CopyOnWriteArrayList<>();

  static Path multihostDir() {
    String p = System.getProperty("multihost.dir");
    if (p != null) {
      return Path.of(p);
    }
    Path at = Path.of("").toAbsolutePath();
    while (at != null && !Files.isDirectory(at.resolve("scripts/multihost"))) {
      at = at.getParent();
    }
    return at == null ? Path.of("scripts/multihost") : at.resolve("scripts/multihost");
  }

  static String mh(String script, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(MH.resolve(script).toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(cmd + " failed: " + out);
    }
    return out;
  }

  @BeforeAll
  static void hostsUp() throws Exception {
    assumeTrue(Files.isExecutable(MH.resolve("hosts-up.sh")), "no multihost tool at " + MH);
    Process check =
        new ProcessBuilder(MH.resolve("hosts-up.sh").toString(), "--check")
            .redirectErrorStream(true)
            .start();
    String why = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assumeTrue(check.waitFor() == 0, "no simulated hosts: " + why);
    boolean sshd = Files.isExecutable(Path.of("/usr/sbin/sshd"));
    noMpi = build("mpi_hello", "mpi_allreduce");
    noMpich = buildMpich("mpi_hello", "mpi_ring");
    noPmix = build("pmix_fence_collect");
    mh("hosts-up.sh", "3");
    up = true;
    // ssh is the path under test when an sshd can run in the hosts; else the tool's stand-in.
    List<String> launcher =
        sshd
            ? List.of("/usr/bin/ssh", "-F", "/tmp/mh/ssh/config")
            : List.of(MH.resolve("hostexec.sh").toString());
    RemoteHosts remote =
        new RemoteHosts(
            HostList.parseHosts("host1:1,host2:1,host3:1"),
            new SshAgentStarter(launcher),
            new InetSocketAddress(InetAddress.getByName("10.77.0.1"), 0),
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()),
            new AgentHub.Settings(HEARTBEAT_MS, MISSED),
            60_000,
            progress::add);
    long t0 = System.nanoTime();
    server =
        DvmServer.start(
            DvmConfig.embedded("mh", 1, 1, 0, dir)
                .withScheduler(DvmConfig.SchedulerKind.NONE)
                .withShrinkGrace(500),
            remote);
    System.out.printf(
        "multihost: 3-host DVM started through %s in %d ms%n",
        sshd ? "ssh" : "hostexec.sh", (System.nanoTime() - t0) / 1_000_000);
  }

  /** Builds test programs into {@link #bin}; why they could not be built, or {@code null}. */
  private static String build(String... programs) throws Exception {
    assertThat(PROGRAMS.resolve("mpi_hello.c")).exists();
    for (String program : programs) {
      List<String> cmd = new ArrayList<>();
      if (program.startsWith("mpi_")) {
        cmd.addAll(List.of("mpicc.openmpi", "-o", bin.resolve(program).toString()));
        cmd.add(PROGRAMS.resolve(program + ".c").toString());
      } else {
        String flags = output(List.of("pkg-config", "--cflags", "--libs", "pmix"));
        if (flags == null) {
          return "pkg-config or libpmix-dev (pmix.pc) is not installed";
        }
        cmd.addAll(List.of("gcc", "-o", bin.resolve(program).toString()));
        cmd.add(PROGRAMS.resolve(program + ".c").toString());
        cmd.addAll(List.of(flags.strip().split("\\s+")));
      }
      if (output(cmd) == null) {
        return (program.startsWith("mpi_")
                ? "mpicc.openmpi (libopenmpi-dev)"
                : "gcc with libpmix-dev")
            + " could not build "
            + program;
      }
    }
    return null;
  }

  /** Builds MPICH programs into {@link #bin} as {@code mpich_*}; why not, or {@code null}. */
  private static String buildMpich(String... programs) throws Exception {
    for (String program : programs) {
      String out = bin.resolve("mpich_" + program.substring(4)).toString();
      if (output(List.of("mpicc.mpich", "-o", out, PROGRAMS.resolve(program + ".c").toString()))
          == null) {
        return "mpicc.mpich (libmpich-dev) could not build " + program;
      }
    }
    return null;
  }

  /** What {@code cmd} printed, or {@code null} when it could not run or failed. */
  private static String output(List<String> cmd) throws InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return null;
    }
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  static void hostsDown() throws Exception {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      if (up) {
        mh("hosts-down.sh");
      }
    }
  }

  private static CliRun jdvm(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString()));
    all.addAll(Arrays.asList(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> listing(String what) {
    CliRun r = jdvm(what, "--json");
    assertThat(r.status()).as(r.err()).isZero();
    return (List<Map<String, Object>>) Json.parse(r.out());
  }

  private static Map<String, Object> row(String what, String key, String value) {
    return listing(what).stream().filter(r -> value.equals(r.get(key))).findFirst().orElseThrow();
  }

  private static void await(String what, long seconds, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + seconds + " s: " + what);
      }
      Thread.sleep(20);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Long> pids(String nspace) {
    List<Long> out = new ArrayList<>();
    for (Object p : (List<Object>) row("jobs", "nspace", nspace).get("procs")) {
      Object pid = ((Map<String, Object>) p).get("pid");
      if (pid instanceof Number n && n.longValue() > 0) {
        out.add(n.longValue());
      }
    }
    return out;
  }

  private static boolean gone(long pid) {
    return ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
  }

  private static String detached(String... command) {
    List<String> args = new ArrayList<>(List.of("--detach"));
    args.addAll(Arrays.asList(command));
    CliRun r = jdvm("run", args.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    String nspace = r.out().strip();
    return nspace;
  }

  /** Every process in host K's network namespace that is not its sshd. */
  private static List<String> strays(int k) throws Exception {
    List<String> out = new ArrayList<>();
    Process p = new ProcessBuilder("ip", "netns", "pids", "host" + k).start();
    String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    for (String pid : pids.split("\\s+")) {
      if (pid.isBlank()) {
        continue;
      }
      try {
        String cmd = Files.readString(Path.of("/proc", pid, "cmdline")).replace('\0', ' ').strip();
        if (!cmd.contains("sshd")) {
          out.add(pid + " " + cmd);
        }
      } catch (IOException e) {
        // ended meanwhile
      }
    }
    return out;
  }

  @Test
  @Order(1)
  void aJobSpansTheThreeHostsOneRankOnEach() {
    assertThat(progress).anySatisfy(l -> assertThat(l).contains("joined (3/3)"));
    List<Map<String, Object>> nodes = listing("nodes");
    assertThat(nodes)
        .filteredOn(n -> "up".equals(n.get("agent")))
        .extracting(n -> n.get("host"))
        .containsExactlyInAnyOrder("host1", "host2", "host3");
    assertThat(nodes).anySatisfy(n -> assertThat(n.get("agent")).isEqualTo("local"));
    long t0 = System.nanoTime();
    CliRun r = jdvm("run", "-n", "3", "--map-by", "node", "--", "hostname");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().lines().map(String::strip).sorted().toList())
        .containsExactly("host1", "host2", "host3");
    System.out.printf("multihost: 1 process per host on 3 hosts, spawn and wait: %d ms%n", ms);
  }

  @Test
  @Order(2)
  void anMpiProgramRunsAcrossTheHostsThroughTheirAgentsRelays() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    long t0 = System.nanoTime();
    CliRun r =
        jdvm("run", "-n", "3", "--map-by", "node", "--", bin.resolve("mpi_hello").toString());
    long hello = (System.nanoTime() - t0) / 1_000_000;
    assertThat(r.status()).as(r.err()).isZero();
    List<String> lines = r.out().lines().map(String::strip).sorted().toList();
    assertThat(lines).hasSize(3).allMatch(l -> l.matches("OK mpi_hello rank=[0-2] size=3 host=.*"));
    assertThat(lines.stream().map(l -> l.replaceAll(".* rank=([0-2]) .*", "$1")))
        .containsExactly("0", "1", "2");
    assertThat(lines.stream().map(l -> l.replaceAll(".* host=", "")))
        .containsExactlyInAnyOrder("host1", "host2", "host3");
    CliRun sum =
        jdvm("run", "-n", "3", "--map-by", "node", "--", bin.resolve("mpi_allreduce").toString());
    assertThat(sum.status()).as(sum.err()).isZero();
    assertThat(sum.out().lines().filter(l -> l.startsWith("OK mpi_allreduce")).count())
        .isEqualTo(3);
    assertThat(server.dvm().hub().all())
        .allSatisfy(a -> assertThat(a.relay().isUp()).as(a.node()).isTrue());
    System.out.printf("multihost: mpi_hello on 3 hosts, spawn and wait: %d ms%n", hello);
  }

  /**
   * MPICH ranks on three hosts, served simple PMI by their hosts' agents' relays, which carry their
   * lines to the controller and enter each barrier once per host (docs/protocol.md "Simple PMI").
   */
  @Test
  @Order(2)
  void anMpichProgramRunsAcrossTheHostsThroughTheirAgentsRelays() throws Exception {
    assumeTrue(noMpich == null, noMpich);
    long[] before = server.endpoint().pmi().carriedCounts();
    CliRun r =
        jdvm("run", "-n", "3", "--map-by", "node", "--", bin.resolve("mpich_hello").toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    List<String> lines = r.out().lines().map(String::strip).sorted().toList();
    assertThat(lines).hasSize(3).allMatch(l -> l.matches("OK mpi_hello rank=[0-2] size=3 host=.*"));
    assertThat(lines.stream().map(l -> l.replaceAll(".* host=", "")))
        .containsExactlyInAnyOrder("host1", "host2", "host3");
    assertThat(server.endpoint().pmi().carriedCounts()[0] - before[0]).isEqualTo(3);
    CliRun ring =
        jdvm("run", "-n", "3", "--map-by", "node", "--", bin.resolve("mpich_ring").toString());
    assertThat(ring.status()).as(ring.out() + ring.err()).isZero();
    assertThat(ring.out().lines().filter(l -> l.startsWith("OK mpi_ring")).count()).isEqualTo(3);
  }

  @Test
  @Order(3)
  void aPmixFenceWithDataSpansTheHosts() throws Exception {
    assumeTrue(noPmix == null, noPmix);
    CliRun r =
        jdvm(
            "run",
            "-n",
            "3",
            "--map-by",
            "node",
            "--",
            bin.resolve("pmix_fence_collect").toString(),
            "4096");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    System.out.print(
        r.out()
            .lines()
            .filter(l -> l.contains("fence"))
            .map(l -> "multihost: " + l + "\n")
            .reduce("", String::concat));
  }

  @Test
  @Order(3)
  void jdvmInsideAJobOnAnotherHostReachesTheDvmThroughItsAgentsRelay() {
    CliRun r =
        jdvm(
            "run",
            "-n",
            "1",
            "--",
            ProcessHandle.current().info().command().orElse("java"),
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "jobs");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("mh@");
  }

  @Test
  @Order(4)
  void aSlowHostStaysUpAndItsJobsSucceed() throws Exception {
    mh("host-delay.sh", "host1", "50ms");
    try {
      CliRun r = jdvm("run", "-n", "3", "--map-by", "node", "--", "hostname");
      assertThat(r.status()).as(r.err()).isZero();
      assertThat(r.out()).contains("host1");
      assertThat(row("nodes", "name", "host1").get("agent")).isIn("up", "suspect");
    } finally {
      mh("host-delay.sh", "host1", "off");
    }
  }

  @Test
  @Order(5)
  void aKilledAgentTakesItsHostDownEndsItsJobAndItIsNeverMappedAgain() throws Exception {
    String job = detached("-n", "3", "--map-by", "node", "--", "sleep", "60");
    await("3 running", 20, () -> pids(job).size() == 3);
    List<Long> ranks = pids(job);
    long t0 = System.nanoTime();
    mh("host-kill.sh", "host3");
    await("host3 down", 20, () -> "down".equals(row("nodes", "name", "host3").get("agent")));
    System.out.printf(
        "multihost: killed agent declared down after %d ms (heartbeat %d ms x %d)%n",
        (System.nanoTime() - t0) / 1_000_000, HEARTBEAT_MS, MISSED);
    await("job ended", 20, () -> "terminated".equals(row("jobs", "nspace", job).get("state")));
    assertThat(row("jobs", "nspace", job).get("status"))
        .isEqualTo((long) PmixStatus.ERR_JOB_ABORTED_BY_SYS_EVENT);
    await("its other ranks killed", 20, () -> ranks.stream().allMatch(MultiHostTest::gone));

    CliRun two = jdvm("run", "-n", "2", "--map-by", "node", "--", "hostname");
    assertThat(two.status()).as(two.err()).isZero();
    assertThat(two.out().lines().map(String::strip).sorted().toList())
        .containsExactly("host1", "host2");
    CliRun three = jdvm("run", "-n", "3", "--", "hostname");
    assertThat(three.status()).isEqualTo(Main.EXIT_REFUSED);
  }

  @Test
  @Order(6)
  void aPartitionedHostGoesDownAndWhenItHealsItsAgentEndsWhatItRanAndExits() throws Exception {
    String job = detached("-n", "2", "--map-by", "node", "--", "sleep", "60");
    await("2 running", 20, () -> pids(job).size() == 2);
    List<Long> ranks = pids(job);
    long agent = Long.parseLong(server.dvm().hub().get("host2").resources().get("pid"));
    mh("host-partition.sh", "host2", "on");
    try {
      await("host2 down", 20, () -> "down".equals(row("nodes", "name", "host2").get("agent")));
      await("job ended", 20, () -> "terminated".equals(row("jobs", "nspace", job).get("state")));
      assertThat(row("jobs", "nspace", job).get("status"))
          .isEqualTo((long) PmixStatus.ERR_JOB_ABORTED_BY_SYS_EVENT);
    } finally {
      mh("host-partition.sh", "host2", "off");
    }
    await("host2's agent refused and gone", 40, () -> gone(agent));
    await("every rank gone", 20, () -> ranks.stream().allMatch(MultiHostTest::gone));
    CliRun one = jdvm("run", "-n", "1", "--", "hostname");
    assertThat(one.status()).as(one.err()).isZero();
    assertThat(one.out().strip()).isEqualTo("host1");
  }

  @Test
  @Order(7)
  void teardownLeavesNoProcessOnAnyHost() throws Exception {
    String job = detached("-n", "1", "--", "sleep", "60");
    await("running", 20, () -> pids(job).size() == 1);
    server.close();
    server = null;
    for (int k = 1; k <= 3; k++) {
      int host = k;
      List<String> left = new ArrayList<>();
      try {
        await(
            "nothing left on host" + k,
            20,
            () -> {
              try {
                left.clear();
                left.addAll(strays(host));
                return left.isEmpty();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + ": " + left, e);
      }
    }
  }
}
