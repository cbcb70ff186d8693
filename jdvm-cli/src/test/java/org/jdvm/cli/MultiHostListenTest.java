package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.server.home.DvmHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm start --hosts} without {@code --listen} on a machine whose name resolves to loopback,
 * across two simulated hosts ({@code scripts/multihost}, as {@link MultiHostTest}): the agents
 * connect back to the address of the interface that routes to the hosts (the bridge's, {@code
 * 10.77.0.1}), and a job spans them. Skipped, with the reason, where the hosts cannot be made or
 * this host's name does not resolve to loopback.
 */
class MultiHostListenTest {
  @TempDir Path tmp;

  @Test
  void theAgentsConnectBackToTheInterfaceThatRoutesToTheHosts() throws Exception {
    assumeTrue(
        InetAddress.getLocalHost().isLoopbackAddress(),
        "this host's name resolves to " + InetAddress.getLocalHost() + ", not loopback");
    Path mh = MultiHostTest.multihostDir();
    assumeTrue(Files.isExecutable(mh.resolve("hosts-up.sh")), "no multihost tool at " + mh);
    Process check =
        new ProcessBuilder(mh.resolve("hosts-up.sh").toString(), "--check")
            .redirectErrorStream(true)
            .start();
    String why = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assumeTrue(check.waitFor() == 0, "no simulated hosts: " + why);
    Path home = tmp.resolve("dvm");
    Path out = tmp.resolve("dvm.out");
    Process dvm = null;
    try {
      MultiHostTest.mh("hosts-up.sh", "2");
      String launcher =
          Files.isExecutable(Path.of("/usr/sbin/sshd"))
              ? "/usr/bin/ssh -F /tmp/mh/ssh/config"
              : mh.resolve("hostexec.sh").toString();
      List<String> cmd =
          ChildJdvm.command(
              "start",
              "--hosts",
              "host1:1,host2:1",
              "--launcher",
              launcher,
              "--dir",
              home.toString(),
              "--name",
              "mhlisten");
      dvm = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      Process started = dvm;
      Listings.until(
          () -> {
            assertThat(started.isAlive()).as(read(out)).isTrue();
            return Files.exists(home.resolve(DvmHome.CONTACT)) && read(out).contains("log:");
          },
          "the DVM across two hosts ready",
          90);
      assertThat(read(out)).contains("joined (2/2)");
      assertThat(Files.readString(home.resolve("agents"))).startsWith("listen=10.77.0.1 ");
      CliRun r =
          CliRun.of(
              "run", "--dir", home.toString(), "-n", "2", "--map-by", "node", "--", "hostname");
      assertThat(r.status()).as(r.err()).isZero();
      assertThat(r.out().lines().map(String::strip).sorted().toList())
          .containsExactly("host1", "host2");
    } finally {
      if (dvm != null) {
        CliRun.of("stop", "--dir", home.toString());
        if (!dvm.waitFor(30, TimeUnit.SECONDS)) {
          dvm.destroyForcibly();
        }
      }
      MultiHostTest.mh("hosts-down.sh");
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return "";
    }
  }
}
