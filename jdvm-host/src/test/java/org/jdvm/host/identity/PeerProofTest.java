package org.jdvm.host.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jdvm.host.Await;
import org.jdvm.host.OtherUser;
import org.jdvm.host.os.SockDiag;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.NativeCredential;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a connecting peer must prove, against real sockets of this process: the transport by the
 * kernel's answer, a launched process's name by its credential or by the kernel showing its socket
 * held by the process launched under that name.
 */
class PeerProofTest {
  private static final Proc PROC = new Proc("jdvm-1@3", 2);
  private static final long ME = ProcessHandle.current().pid();

  /** Above any pid_max Linux allows. */
  private static final long NO_SUCH_PID = 1L << 30;

  private final Credentials credentials = Credentials.generate();
  private final PeerProof proof = new PeerProof(credentials, "the test");

  private static ConnectRequest client(Info... blob) {
    return new ConnectRequest(
        ConnectRequest.PSEC_NATIVE,
        new NativeCredential(0, 0).encode(),
        ConnectFlag.SIMPLE_CLIENT,
        ConnectRequest.ABSENT,
        ConnectRequest.ABSENT,
        PROC,
        "4.2.2",
        "v41",
        BufferType.NON_DESCRIBED,
        ConnectRequest.GDS_HASH,
        List.of(blob),
        false);
  }

  @Test
  void overLoopbackTheKernelNamesTheOwnerAndTheProcessHoldingTheSocket() throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (SocketChannel peer = SocketChannel.open(server.getLocalAddress());
          SocketChannel accepted = server.accept()) {
        PeerProof.Transport t = proof.transport(accepted, false, client());
        assertThat(t.refused()).isFalse();
        assertThat(t.uid()).isEqualTo(LoopbackPeers.ownUid());
        assertThat(t.owner()).isPresent();

        PeerProof.Proof held = proof.process(client(), t, (p, ms) -> p.equals(PROC) ? ME : 0);
        assertThat(held).isEqualTo(new PeerProof.Proof(ME, null));
        assertThat(proof.process(client(), t, (p, ms) -> NO_SUCH_PID).refusal())
            .isEqualTo("the socket is not held by " + PROC + " as the test runs it");
        assertThat(proof.process(client(), t, (p, ms) -> 0).proved()).isFalse();
      }
    }
  }

  @Test
  void aCredentialProvesItsOwnNameAndNoOtherWithoutAskingForAPid() throws Exception {
    PeerProof.Transport tcp =
        new PeerProof.Transport(
            LoopbackPeers.ownUid(),
            java.util.Optional.of(new LoopbackPeers.SocketOwner(LoopbackPeers.ownUid(), 1)),
            false,
            null);
    PeerProof.Pids never =
        (p, ms) -> {
          throw new AssertionError("a credential needs no pid");
        };
    Info mine =
        Info.of(
            JdvmProtocol.CREDENTIAL,
            Value.string(credentials.procCredential(PROC.nspace(), PROC.rank())));
    assertThat(proof.process(client(mine), tcp, never)).isEqualTo(new PeerProof.Proof(0, null));
    Info other =
        Info.of(JdvmProtocol.CREDENTIAL, Value.string(credentials.procCredential("jdvm-1@3", 0)));
    assertThat(proof.process(client(other), tcp, never).refusal())
        .isEqualTo("a credential that is not " + PROC + "'s");
  }

  @Test
  void onTheUnixSocketTheUserIsTheKernelsAndANameNeedsItsCredential(@TempDir Path dir)
      throws Exception {
    Path socket = dir.resolve("s");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      try (SocketChannel peer = SocketChannel.open(UnixDomainSocketAddress.of(socket));
          SocketChannel accepted = server.accept()) {
        PeerProof.Transport t = proof.transport(accepted, true, client());
        assertThat(t)
            .isEqualTo(
                new PeerProof.Transport(
                    LoopbackPeers.ownUid(), java.util.Optional.empty(), true, null));
        assertThat(proof.process(client(), t, (p, ms) -> ME).refusal())
            .isEqualTo(PROC + " without its credential, on a socket the kernel cannot name");
      }
    }
    assertThat(Files.exists(socket)).isTrue();
  }

  @Test
  void theConnectBlobsStringsAreReadByKey() {
    ConnectRequest r =
        client(
            Info.of(JdvmProtocol.SECRET, Value.uint32(1)),
            Info.of(JdvmProtocol.CHALLENGE, Value.string("n")));
    assertThat(PeerProof.blobString(r, JdvmProtocol.CHALLENGE)).isEqualTo("n");
    assertThat(PeerProof.blobString(r, JdvmProtocol.SECRET)).as("not a string").isNull();
    assertThat(PeerProof.blobString(r, JdvmProtocol.CREDENTIAL)).isNull();
  }

  @Test
  void anotherUsersLoopbackPeerIsNamedByTheKernelAndRefusedBeforeItsRequestIsRead()
      throws Exception {
    try (OtherUser other = OtherUser.create();
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      server.configureBlocking(false);
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      other.start("/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + port + "; exec sleep 60");
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
          "the other user's connection");
      try (SocketChannel a = accepted.get()) {
        InetSocketAddress peer = (InetSocketAddress) a.getRemoteAddress();
        InetSocketAddress local = (InetSocketAddress) a.getLocalAddress();
        assertThat(SockDiag.tcp(peer, local).orElseThrow().uid()).isEqualTo(other.uid);
        assertThat(LoopbackPeers.ownerFromTables(peer, local).orElseThrow().uid())
            .isEqualTo(other.uid);
        assertThat(new PeerUsers().userOf(a, false)).isEqualTo("uid:" + other.uid);
        PeerProof.Transport t = proof.transport(a, false, client());
        assertThat(t.refusal()).isEqualTo("TCP peer of uid " + other.uid);
        assertThat(t.uid()).isEqualTo(other.uid);
      }
    }
  }
}
