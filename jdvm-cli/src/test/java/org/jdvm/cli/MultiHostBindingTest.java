package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.host.topology.TopologyReader;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.agents.SshAgentStarter;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Binding on agents' hosts by the agents' own topology: two simulated hosts (scripts/multihost)
 * whose agents are confined to different cpus ({@code taskset -c 0} on host1, {@code -c 1} on
 * host2), so a binding computed from the controller's topology, or from the wrong host's, shows in
 * what the processes read of their own {@code Cpus_allowed_list}. Skipped where the hosts cannot be
 * made or this host has fewer than two cpus.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MultiHostBindingTest {
  @TempDir static Path dir;
  @TempDir static Path bin;
  private static final Path MH = multihostDir();
  private static boolean up;
  private static DvmServer server;

  private static Path multihostDir() {
    Path at = Path.of("").toAbsolutePath();
    while (at != null && !Files.isDirectory(at.resolve("scripts/multihost"))) {
      at = at.getParent();
    }
    return at == null ? Path.of("scripts/multihost") : at.resolve("scripts/multihost");
  }

  private static void mh(String... cmd) throws Exception {
    List<String> all = new ArrayList<>(List.of(MH.resolve(cmd[0]).toString()));
    all.addAll(List.of(cmd).subList(1, cmd.length));
    Process p = new ProcessBuilder(all).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(all + " failed: " + out);
    }
  }

  @BeforeAll
  static void hostsUp() throws Exception {
    assumeTrue(Files.isExecutable(MH.resolve("hosts-up.sh")), "no multihost tool at " + MH);
    Process check = new ProcessBuilder(MH.resolve("hosts-up.sh").toString(), "--check").start();
    assumeTrue(check.waitFor() == 0, "no simulated hosts here");
    assumeTrue(
        TopologyReader.host().cpuSet().cardinality() >= 2,
        "two cpus are needed to tell hosts apart");
    mh("hosts-up.sh", "2");
    up = true;
    // The launcher: hostexec.sh (the tool's stand-in for ssh) under taskset, cpu 0 on host1 and
    // cpu 1 on host2; the agent, a JVM, inherits the confinement and reports it in its hello.
    Path launcher = bin.resolve("confined-launcher.sh");
    Files.writeString(
        launcher,
        "#!/bin/bash\n"
            + "while [ $# -gt 0 ]; do case $1 in -o) shift 2;; -*) shift;; *) break;; esac; done\n"
            + "h=$1; shift\n"
            + "case $h in host1) c=0;; *) c=1;; esac\n"
            + "exec taskset -c $c "
            + MH.resolve("hostexec.sh")
            + " \"$h\" \"$@\"\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    RemoteHosts remote =
        new RemoteHosts(
            HostList.parseHosts("host1:1,host2:1"),
            new SshAgentStarter(List.of(launcher.toString())),
            new InetSocketAddress(InetAddress.getByName("10.77.0.1"), 0),
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()),
            new AgentHub.Settings(250, 8),
            60_000,
            line -> {});
    server =
        DvmServer.start(
            DvmConfig.embedded("mhbind", 1, 1, 0, dir)
                .withScheduler(DvmConfig.SchedulerKind.NONE)
                .withShrinkGrace(300),
            remote);
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

  @Test
  void eachHostsProcessIsBoundWithinWhatItsOwnAgentMayUse() throws Exception {
    CliRun r =
        CliRun.of(
            "run",
            "--dir",
            dir.toString(),
            "-n",
            "2",
            "--map-by",
            "node",
            "--bind-to",
            "core",
            "--",
            "sh",
            "-c",
            "echo $(hostname) $(grep Cpus_allowed_list /proc/self/status | cut -f2)");
    assertThat(r.status()).as(r.err()).isZero();
    List<String> lines = r.out().lines().map(String::strip).sorted().toList();
    // the controller's own node has no slot in a DVM across hosts: one rank on each host
    assertThat(lines).containsExactly("host1 0", "host2 1");
  }
}
