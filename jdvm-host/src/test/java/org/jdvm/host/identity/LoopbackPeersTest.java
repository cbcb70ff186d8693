package org.jdvm.host.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
}
