package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import org.jdvm.host.Await;
import org.jdvm.host.OtherUser;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.pmix.frame.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another local user can do to a DVM before it is admitted (architecture.md §4): hold at most
 * {@link ConnectionGate.Limits#pendingPerUser} connections open, whatever it tries, while the DVM's
 * owner keeps being served. Runs as root with a throwaway user; skipped otherwise.
 */
class OtherUserTest {
  /** Opens N loopback connections, sends each a connect header announcing 128 KiB, and waits. */
  private static final String FLOOD =
      """
      import socket, sys
      port, n, header = int(sys.argv[1]), int(sys.argv[2]), bytes.fromhex(sys.argv[3])
      held = []
      for i in range(n):
          try:
              s = socket.create_connection(("127.0.0.1", port))
              s.sendall(header)
              held.append(s)
          except OSError:
              pass
      print("opened", len(held), flush=True)
      sys.stdin.read()
      """;

  private static final String PYTHON = "/usr/bin/python3";

  @TempDir Path home;

  @Test
  void anotherUsersFloodOfStalledHandshakesIsHeldToItsBoundAndTheOwnerIsStillServed()
      throws Exception {
    assumeTrue(new java.io.File(PYTHON).canExecute(), PYTHON + " runs the other user's flood");
    try (OtherUser other = OtherUser.create();
        EndpointFixture f = new EndpointFixture(home, 1, 2, 2)) {
      int port = f.endpoint.tcpAddress().getPort();
      String header =
          HexFormat.of().formatHex(FrameHeader.encodeConnect(FrameHeader.MAX_CONNECT_BYTES));
      Process flood = other.start(PYTHON, "-c", FLOOD, Integer.toString(port), "600", header);
      BufferedReader said =
          new BufferedReader(new InputStreamReader(flood.getInputStream(), StandardCharsets.UTF_8));
      assertThat(said.readLine()).startsWith("opened");

      int bound = ConnectionGate.Limits.DEFAULT.pendingPerUser();
      assertThat(f.endpoint.connections()).hasSizeLessThanOrEqualTo(bound);
      try (RawPeer mine = RawPeer.tool(f.endpoint.tcpAddress())) {
        assertThat(mine.self()).isNotNull();
      }

      flood.getOutputStream().close(); // the flood ends: everything it held is released
      flood.waitFor();
      Await.until(() -> f.endpoint.gate().pendingOthers() == 0, "the flood's connections closed");
    }
  }
}
