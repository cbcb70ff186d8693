package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jdvm start --hosts|--hostfile}: usage errors, and hosts that cannot be reached. */
class StartHostsTest {
  @TempDir Path dir;

  private CliRun start(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "start";
    all[1] = "--dir";
    all[2] = dir.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.of(all);
  }

  @Test
  void hostsAndAHostfileTogetherOrAHostileNameAreUsageErrors() throws Exception {
    Path file = Files.writeString(dir.resolve("hosts"), "h1 slots=2\n");
    CliRun both = start("--hosts", "h1", "--hostfile", file.toString());
    assertThat(both.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(both.err()).contains("not both");
    CliRun hostile = start("--hosts", "h1,$(reboot)", "--listen", "127.0.0.1");
    assertThat(hostile.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(hostile.err()).contains("is not a host name").doesNotContain("Exception");
    CliRun badFile = start("--hostfile", dir.resolve("missing").toString());
    assertThat(badFile.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(badFile.err()).contains("cannot read");
  }

  @Test
  void withoutListenAHostThatDoesNotResolveIsAUsageErrorAskingForListen() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.net.InetAddress.getLocalHost().isLoopbackAddress(),
        "this host's name does not resolve to loopback: its own address is taken");
    CliRun r = start("--hosts", "nowhere.invalid:1", "--launcher", "/bin/false");
    assertThat(r.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.err().strip().lines().toList())
        .containsExactly(
            "jdvm start: this host's name resolves to a loopback address and nowhere.invalid does"
                + " not resolve, so the address the hosts reach this host by is unknown; give"
                + " --listen ADDR");
    assertThat(dir.resolve("dvm.json")).doesNotExist();
  }

  @Test
  void aHostThatCannotBeReachedFailsTheStartWithOneLineNamingIt() {
    // A launcher that fails at once, as ssh does for a host it cannot reach.
    CliRun r =
        start(
            "--hosts",
            "h1,h2",
            "--listen",
            "127.0.0.1",
            "--launcher",
            "/bin/false",
            "--join-timeout-ms",
            "20000");
    assertThat(r.status()).as(r.err()).isEqualTo(Main.EXIT_FAILURE);
    assertThat(r.err().strip().lines().toList())
        .hasSize(1)
        .first()
        .asString()
        .contains("cannot start agents", "h1: the launcher exited with 1", "h2:");
    assertThat(dir.resolve("dvm.json")).doesNotExist();
  }
}
