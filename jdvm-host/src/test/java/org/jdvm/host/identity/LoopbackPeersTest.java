package org.jdvm.host.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;
import org.jdvm.host.Await;
import org.junit.jupiter.api.Test;

class LoopbackPeersTest {
  @Test
  void theKernelNamesTheUidAndTheProcessHoldingThePeersEndOfALoopbackConnection() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket accepted = server.accept()) {
      var owner =
          LoopbackPeers.ownerOf(
              (InetSocketAddress) accepted.getRemoteSocketAddress(),
              (InetSocketAddress) accepted.getLocalSocketAddress());
      assertThat(owner).isPresent();
      assertThat(owner.get().uid()).isEqualTo(LoopbackPeers.ownUid());
      assertThat(LoopbackPeers.holdsSocket(ProcessHandle.current().pid(), owner.get().inode()))
          .isTrue();
      assertThat(
              LoopbackPeers.heldByProcessTree(ProcessHandle.current().pid(), owner.get().inode()))
          .isTrue();
      assertThat(LoopbackPeers.holdsSocket(1, owner.get().inode())).isFalse();
    }
  }

  @Test
  void anAddressWithNoConnectionHasNoOwner() {
    var nowhere = new InetSocketAddress(InetAddress.getLoopbackAddress(), 1);
    assertThat(LoopbackPeers.ownerOf(nowhere, nowhere)).isEmpty();
  }

  @Test
  void endpointsAreWrittenTheWayTheKernelTablesWriteThem() {
    var a = new InetSocketAddress(InetAddress.getLoopbackAddress(), 8080);
    assertThat(LoopbackPeers.hexEndpoint(a)).isEqualTo("0100007F:1F90");
    assertThat(LoopbackPeers.hexEndpoint6(a)).isEqualTo("0000000000000000FFFF00000100007F:1F90");
  }

  @Test
  void aSocketHeldByADescendantIsHeldByTheTreeFoundFromTheProcessDown() throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      server.configureBlocking(false);
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      // bash's child bash opens the connection and holds it; bash itself does not.
      Process p =
          new ProcessBuilder(
                  "bash",
                  "-c",
                  "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + "; exec sleep 60' & wait")
              .start();
      try {
        AtomicReference<SocketChannel> accepted = new AtomicReference<>();
        Await.until(
            () -> {
              try {
                accepted.set(server.accept());
              } catch (java.io.IOException e) {
                throw new AssertionError(e);
              }
              return accepted.get() != null;
            },
            "the grandchild's connection");
        try (SocketChannel a = accepted.get()) {
          var owner =
              LoopbackPeers.ownerOf(
                  (InetSocketAddress) a.getRemoteAddress(),
                  (InetSocketAddress) a.getLocalAddress());
          assertThat(owner).isPresent();
          long inode = owner.get().inode();
          long child = LoopbackPeers.childrenOf(p.pid()).getFirst();
          assertThat(LoopbackPeers.holdsSocket(child, inode)).isTrue();
          assertThat(LoopbackPeers.holdsSocket(p.pid(), inode)).isFalse();
          assertThat(LoopbackPeers.heldByProcessTree(p.pid(), inode)).isTrue();
          assertThat(LoopbackPeers.heldByProcessTree(child, inode + 1)).isFalse();
        }
      } finally {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor();
      }
    }
  }

  @Test
  void aFreshJvmsFirstLookUpsOnVirtualThreadsAnswerWithOneCarrier() throws Exception {
    // The first look-up decides how to ask the kernel, with a loopback connection of its own; done
    // in a class initializer it held the only carriers while its connect waited for one.
    Process p =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                FirstLookups.class.getName())
            .redirectErrorStream(true)
            .start();
    try {
      boolean ended = p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(ended).as("the look-ups answered (a hang is the bug)").isTrue();
      assertThat(new String(p.getInputStream().readAllBytes())).contains("ok");
      assertThat(p.exitValue()).isZero();
    } finally {
      p.destroyForcibly();
    }
  }
}
