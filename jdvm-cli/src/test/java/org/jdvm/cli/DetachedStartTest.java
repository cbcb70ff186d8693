package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.jdvm.server.DvmConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code jdvm start --detach} starts the same command again without {@code --detach}: the child's
 * command line parses as {@code jdvm start} and carries every option the user gave (a refactoring
 * once turned {@code --spare} into {@code --start.spare}, and no detached DVM could start).
 */
class DetachedStartTest {
  @Test
  void theChildsCommandLineIsAStartWithTheSameOptions() {
    StartCommand given = new StartCommand();
    new CommandLine(given)
        .parseArgs(
            "--detach",
            "--nodes",
            "2",
            "--slots",
            "5",
            "--spare",
            "3",
            "--scheduler",
            "none",
            "--grace",
            "7",
            "--fsync",
            "never",
            "--rejoin-ms",
            "9",
            "--name",
            "d1",
            "--dir",
            "/tmp/jdvm-detached-test",
            "--without",
            "share",
            "--limit",
            "live-procs=4");
    DvmConfig config = given.config();

    List<String> argv = new DetachedStart(given).detachedCommand(config);
    List<String> child = argv.subList(argv.indexOf(Main.class.getName()) + 2, argv.size());
    assertThat(argv.get(argv.indexOf(Main.class.getName()) + 1)).isEqualTo("start");

    StartCommand again = new StartCommand();
    new CommandLine(again).parseArgs(child.toArray(String[]::new));
    assertThat(again.detach).isFalse();
    assertThat(again.nodes).isEqualTo(2);
    assertThat(again.slots).isEqualTo(5);
    assertThat(again.spare).isEqualTo(3);
    assertThat(again.scheduler).isEqualTo("none");
    assertThat(again.graceMillis).isEqualTo(7);
    assertThat(again.fsync).isEqualTo("never");
    assertThat(again.rejoinMillis).isEqualTo(9);
    assertThat(again.name).isEqualTo("d1");
    assertThat(again.dir).isEqualTo(Path.of("/tmp/jdvm-detached-test"));
    assertThat(again.without).containsExactly("share");
    assertThat(again.limits).containsExactly("live-procs=4");
    assertThat(again.config()).isEqualTo(config);
  }

  @Test
  void aDvmAcrossHostsPassesItsHostsAndAgentOptionsOn() {
    StartCommand given = new StartCommand();
    new CommandLine(given)
        .parseArgs(
            "--detach",
            "--hosts",
            "h1,h2:4",
            "--launcher",
            "ssh -p 2222",
            "--listen",
            "127.0.0.1:0",
            "--heartbeat-ms",
            "250",
            "--missed-heartbeats",
            "3",
            "--join-timeout-ms",
            "5000",
            "--agent-command",
            "/opt/jdvm/jdvm");

    List<String> argv = new DetachedStart(given).detachedCommand(given.config());
    List<String> child = argv.subList(argv.indexOf(Main.class.getName()) + 2, argv.size());
    StartCommand again = new StartCommand();
    new CommandLine(again).parseArgs(child.toArray(String[]::new));
    assertThat(again.hosts).isEqualTo("h1,h2:4");
    assertThat(again.launcher).isEqualTo("ssh -p 2222");
    assertThat(again.listen).isEqualTo("127.0.0.1:0");
    assertThat(again.heartbeatMillis).isEqualTo(250);
    assertThat(again.missedHeartbeats).isEqualTo(3);
    assertThat(again.joinTimeoutMillis).isEqualTo(5000);
    assertThat(again.agentCommand).isEqualTo("/opt/jdvm/jdvm");
  }
}
