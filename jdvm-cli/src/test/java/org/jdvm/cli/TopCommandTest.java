package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm top} without a terminal (docs/cli.md "jdvm top"): refused, unless {@code --once} asks
 * for one frame. The test JVM's standard streams are pipes, not a terminal.
 */
class TopCommandTest {
  @TempDir static Path dir;
  private static DvmServer server;

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("topcmd", 2, 2, 0, dir));
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  @Test
  void withoutATerminalItIsRefusedWithUsageStatusBeforeConnecting(@TempDir Path none) {
    CliRun r = CliRun.of("top", "--dir", none.toString());
    assertThat(r.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.err())
        .isEqualTo(
            "jdvm top: not a terminal (it draws on one); use --once to print a single frame\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void onceItPrintsOneFrameOfAHundredColumnsAndFortyLinesAtMost() {
    CliRun r = CliRun.of("top", "--dir", dir.toString(), "--once");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().lines().toList())
        .startsWith("jdvm top: 2 nodes, 0/4 slots in use, 0 jobs not ended (q quits)", "", "NODES")
        .contains("default: node0 0/2 node1 0/2", "JOBS (0 not ended)", "EVENTS")
        .hasSizeLessThanOrEqualTo(TopCommand.ONCE_HEIGHT)
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(TopCommand.ONCE_WIDTH));
    assertThat(r.out()).doesNotContain("\u001b");
  }
}
