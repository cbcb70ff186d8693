package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jdvm.host.OtherUser;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client talks only to the DVM its contact file names (docs/protocol.md "Who the DVM is"): a
 * contact left by a DVM that was killed is reported, not connected to; a port another user bound is
 * not trusted; and a server that cannot prove it holds the DVM's secret is told nothing.
 */
class ImpersonationTest {
  @TempDir Path dir;

  private static void contact(Path home, long pid, int port) throws Exception {
    contact(home, pid, port, "");
  }

  private static void contact(Path home, long pid, int port, String unix) throws Exception {
    Files.createDirectories(home);
    Files.writeString(
        home.resolve("dvm.json"),
        "{\"name\":\"jdvm-x\",\"pid\":"
            + pid
            + ",\"uri\":\"jdvm-x@0.0;tcp4://127.0.0.1:"
            + port
            + "\",\"tcp\":\"127.0.0.1:"
            + port
            + "\",\"unix\":\""
            + unix
            + "\",\"version\":\"0.1.0\"}");
    Files.writeString(home.resolve("secret"), Credentials.generate().secretHex());
  }

  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }

  @Test
  void aContactWhoseDvmIsDeadIsReportedAndNothingConnectsToItsPort() throws Exception {
    try (ServerSocket squatter = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      long pid = deadPid();
      contact(dir, pid, squatter.getLocalPort());
      assertThatThrownBy(() -> JdvmClient.connector().dir(dir).connect())
          .isInstanceOf(PmixException.class)
          .hasMessageContaining("the DVM (pid " + pid + ") is not running")
          .satisfies(
              e -> assertThat(((PmixException) e).status()).isEqualTo(PmixStatus.ERR_UNREACH));
      squatter.setSoTimeout(200);
      assertThatThrownBy(squatter::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void aServerThatCannotProveItHoldsTheSecretIsToldNothingBeyondTheHandshake() throws Exception {
    try (TestDvm impostor = TestDvm.start(dir.resolve("impostor"), 1, 1, 0)) {
      Path home = dir.resolve("victim");
      contact(home, ProcessHandle.current().pid(), impostor.endpoint.tcpAddress().getPort());
      assertThatThrownBy(() -> JdvmClient.connector().dir(home).connect())
          .isInstanceOf(PmixException.class)
          .hasMessageContaining("could not prove it is the DVM");
      // The real one (its own secret in its own directory) is trusted.
      try (JdvmClient real = JdvmClient.connector().dir(impostor.home).connect()) {
        assertThat(real.self()).isNotNull();
      }
    }
  }

  @Test
  void aToolDialsTheUnixSocketWhereTheServerMustStillProveItHoldsTheSecret() throws Exception {
    try (TestDvm impostor = TestDvm.start(dir.resolve("impostor"), 1, 1, 0);
        ServerSocket tcp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Path home = dir.resolve("victim");
      contact(
          home,
          ProcessHandle.current().pid(),
          tcp.getLocalPort(),
          impostor.endpoint.unixSocket().toString());
      assertThatThrownBy(() -> JdvmClient.connector().dir(home).connect())
          .isInstanceOf(PmixException.class)
          .hasMessageContaining(
              "the server at " + impostor.endpoint.unixSocket() + " could not prove it is the DVM");
      tcp.setSoTimeout(200);
      assertThatThrownBy(tcp::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void aPortAnotherUserBoundIsNotTrustedEvenWhenTheContactsPidIsAlive() throws Exception {
    assumeTrue(new java.io.File("/usr/bin/python3").canExecute(), "python3 runs the listener");
    try (OtherUser other = OtherUser.create()) {
      Process listener =
          other.start(
              "/usr/bin/python3",
              "-c",
              "import socket,sys\n"
                  + "s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(8)\n"
                  + "print(s.getsockname()[1], flush=True)\n"
                  + "sys.stdin.read()\n");
      int port =
          Integer.parseInt(
              new BufferedReader(
                      new InputStreamReader(listener.getInputStream(), StandardCharsets.UTF_8))
                  .readLine()
                  .trim());
      contact(dir, ProcessHandle.current().pid(), port);
      assertThatThrownBy(() -> JdvmClient.connector().dir(dir).connect())
          .isInstanceOf(PmixException.class)
          .hasMessageContaining("is held by uid " + other.uid);
      listener.getOutputStream().close();
      listener.waitFor();
    }
  }
}
