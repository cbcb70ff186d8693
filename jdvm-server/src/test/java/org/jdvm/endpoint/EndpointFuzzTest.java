package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jdvm.host.JobDirectories;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Jazzer fuzz test of the endpoint as a peer meets it (docs/protocol.md): a tool completes a real
 * handshake, then sends the frames the input describes; whatever they hold, the DVM must go on
 * serving — a fresh tool is admitted and answered, the controller answers reads, and nothing
 * stopped it. In the normal build it runs in regression mode over the seeds in {@code
 * src/test/resources/org/jdvm/server/pmix/EndpointFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1}
 * fuzzes for real.
 *
 * <p>The input is a sequence of messages, each three bytes — which command (an index into the
 * commands the endpoint serves, plus one it does not) and the length of what follows (below 4 KiB)
 * — then the body after the command. Spawning and JDVM_STOP are left out: a fuzzer must not start
 * random programs, nor end the DVM it tests on request.
 */
class EndpointFuzzTest {
  private static Path home;
  private static EndpointFixture f;
  private static List<Integer> commands;

  @BeforeAll
  static void start() throws IOException {
    home = Files.createTempDirectory("jdvm-fuzz");
    f = new EndpointFixture(home, 1, 2, 2);
    commands = new ArrayList<>();
    for (int c = 0; c < 256; c++) {
      if (f.endpoint.table().row(c) != null
          && c != Commands.SPAWNNB_CMD
          && c != JdvmProtocol.STOP_CMD) {
        commands.add(c);
      }
    }
    commands.add(Commands.MONITOR_CMD); // one without a row: answered NOT_SUPPORTED
  }

  @AfterAll
  static void stop() {
    f.close();
    JobDirectories.removeTree(home);
  }

  @FuzzTest(maxDuration = "60s")
  void framesAfterAHandshake(byte[] input) throws IOException {
    // Jazzer's SSRF detector: this target talks to the DVM on loopback, and only there.
    try (SilentCloseable loopback = BugDetectors.allowNetworkConnections()) {
      exercise(input);
    }
  }

  private static void exercise(byte[] input) throws IOException {
    try (RawPeer peer = RawPeer.tool(f.endpoint.tcpAddress())) {
      int at = 0;
      while (at + 3 <= input.length) {
        int command = commands.get((input[at] & 0xff) % commands.size());
        int length = (((input[at + 1] & 0xff) << 8) | (input[at + 2] & 0xff)) % 4096;
        at += 3;
        byte[] rest = Arrays.copyOfRange(input, at, Math.min(input.length, at + length));
        at += rest.length;
        byte[] head = new Packer(peer.format).packCommand(command).toByteArray();
        byte[] body = Arrays.copyOf(head, head.length + rest.length);
        System.arraycopy(rest, 0, body, head.length, rest.length);
        try {
          peer.send(body);
        } catch (IOException closed) {
          break; // the server cut the connection off: a broken frame may do that
        }
      }
    }
    try (RawPeer fresh = RawPeer.tool(f.endpoint.tcpAddress())) {
      int tag = fresh.request(Commands.MONITOR_CMD, b -> {});
      assertThat(fresh.reply(tag).bytes()).isNotEmpty();
    }
    int nodes = f.read(v -> v.nodes().size());
    assertThat(nodes).isPositive();
    assertThat(f.stops.get()).isZero();
  }
}
