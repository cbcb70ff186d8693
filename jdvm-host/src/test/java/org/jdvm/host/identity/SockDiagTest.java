package org.jdvm.host.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import org.jdvm.host.os.SockDiag;
import org.junit.jupiter.api.Test;

/**
 * The kernel's {@code sock_diag} answer for one socket, against real loopback connections of this
 * process: the uid and inode are those {@code /proc/net/tcp} (or {@code tcp6}) shows for it.
 */
class SockDiagTest {
  private static final InetAddress V4 = InetAddress.getLoopbackAddress();

  /**
   * A connection from a {@code family} socket to a {@code family} listener on {@code address}; the
   * peer's end, as the accepting side names it, looked up both ways.
   */
  private static void sameAnswerAsTheTables(ProtocolFamily family, InetAddress address)
      throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open(family)) {
      server.bind(new InetSocketAddress(address, 0));
      try (SocketChannel client = SocketChannel.open(family)) {
        client.connect(server.getLocalAddress());
        try (SocketChannel accepted = server.accept()) {
          InetSocketAddress peer = (InetSocketAddress) accepted.getRemoteAddress();
          InetSocketAddress local = (InetSocketAddress) accepted.getLocalAddress();
          Optional<SockDiag.Socket> s = SockDiag.tcp(peer, local);
          Optional<LoopbackPeers.SocketOwner> table = LoopbackPeers.ownerFromTables(peer, local);
          assertThat(table).as("the table shows the peer's socket").isPresent();
          assertThat(s).isPresent();
          assertThat(s.get().state()).as("TCP_ESTABLISHED").isEqualTo(1);
          assertThat(new LoopbackPeers.SocketOwner(s.get().uid(), s.get().inode()))
              .isEqualTo(table.get());
          assertThat(s.get().uid()).isEqualTo(LoopbackPeers.ownUid());
          assertThat(LoopbackPeers.holdsSocket(ProcessHandle.current().pid(), s.get().inode()))
              .isTrue();
          assertThat(LoopbackPeers.ownerOf(peer, local)).isEqualTo(table);
        }
      }
    }
  }

  @Test
  void anIpv4ConnectionIsNamedAsTheIpv4TableNamesIt() throws Exception {
    sameAnswerAsTheTables(StandardProtocolFamily.INET, V4);
  }

  @Test
  void anIpv4ConnectionOfIpv6SocketsIsNamedAsTheIpv6TableNamesIt() throws Exception {
    // Dual-stack sockets: the kernel keeps them in the IPv4 hash, /proc/net/tcp6 shows ::ffff:...
    sameAnswerAsTheTables(StandardProtocolFamily.INET6, V4);
  }

  @Test
  void anIpv6LoopbackConnectionIsNamedAsTheIpv6TableNamesIt() throws Exception {
    sameAnswerAsTheTables(StandardProtocolFamily.INET6, InetAddress.getByName("::1"));
  }

  @Test
  void aSocketThatIsNotThereIsAnEmptyAnswer() throws Exception {
    InetSocketAddress free;
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.INET)) {
      s.bind(new InetSocketAddress(V4, 0));
      free = (InetSocketAddress) s.getLocalAddress();
    }
    InetSocketAddress other = new InetSocketAddress(V4, 1);
    assertThat(SockDiag.tcp(free, other)).isEmpty();
    assertThat(SockDiag.tcp(new InetSocketAddress(InetAddress.getByName("::1"), 1), other))
        .isEmpty();
  }

  @Test
  void aListeningSocketIsNoOnesPeer() throws Exception {
    // Without an established socket of that four-tuple the kernel's look-up falls back to the
    // listener on the local port: that is not the peer's socket.
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET)) {
      server.bind(new InetSocketAddress(V4, 0));
      InetSocketAddress listening = (InetSocketAddress) server.getLocalAddress();
      assertThat(SockDiag.tcp(listening, new InetSocketAddress(V4, 40_000))).isEmpty();
      assertThat(LoopbackPeers.ownerOf(listening, new InetSocketAddress(V4, 40_000))).isEmpty();
    }
  }

  @Test
  void thisHostsKernelAnswersSockDiag() {
    assertThat(SockDiag.unavailable()).isEmpty();
    assertThat(LoopbackPeers.lookup()).isEqualTo("sock_diag");
  }
}
