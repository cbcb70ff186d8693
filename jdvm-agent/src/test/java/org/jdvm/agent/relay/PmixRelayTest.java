package org.jdvm.agent.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.agent.link.RelayChannel;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.NativeCredential;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node agent's relay on its own (docs/protocol.md "Node agents"), against a recording link: what
 * it announces for a peer it authenticated, what it refuses without a word to the controller, how
 * it carries frames both ways, and the bounds of a frame.
 */
class PmixRelayTest {
  private static final Proc PROC = new Proc("jdvm-9@1", 2);

  private final Credentials credentials = Credentials.generate();
  private final LinkedBlockingQueue<String> link = new LinkedBlockingQueue<>();
  private final LinkedBlockingQueue<byte[]> up = new LinkedBlockingQueue<>();
  private final java.util.Map<Long, byte[]> identities =
      new java.util.concurrent.ConcurrentHashMap<>();
  private PmixRelay relay;

  /** The agent's link, recording what the relay sends the controller. */
  private final RelayChannel channel =
      new RelayChannel() {
        @Override
        public void send(long id, byte[] frame) {
          up.add(frame);
          link.add("frame " + id);
        }

        @Override
        public void closed(long id) {
          link.add("closed " + id);
        }

        @Override
        public void onReceive(RelayListener listener) {}
      };

  @TempDir Path dir;

  @BeforeEach
  void open() throws IOException {
    relay = open(dir.resolve("relay.sock"), PmixRelay.MAX_PEERS);
  }

  private PmixRelay open(Path unix, int maxPeers) throws IOException {
    return PmixRelay.open(
        new PmixRelay.Config("jdvm-9", credentials, (proc, ms) -> -1, null, unix, true),
        channel,
        (id, identity) -> {
          identities.put(id, identity);
          link.add("opened " + id);
        },
        maxPeers);
  }

  @AfterEach
  void close() {
    relay.close();
  }

  private SocketChannel connect(List<Info> blob) throws IOException {
    return connect(SocketChannel.open(relay.tcpAddress()), blob);
  }

  private SocketChannel connect(SocketChannel s, List<Info> blob) throws IOException {
    ConnectRequest request =
        new ConnectRequest(
            ConnectRequest.PSEC_NATIVE,
            new NativeCredential(1000, 1000).encode(),
            ConnectFlag.SIMPLE_CLIENT,
            ConnectRequest.ABSENT,
            ConnectRequest.ABSENT,
            PROC,
            "4.2.2",
            "v41",
            WireFormat.V41.bufferType(),
            ConnectRequest.GDS_HASH,
            blob,
            false);
    s.write(ByteBuffer.wrap(request.encode()));
    return s;
  }

  private List<Info> ownCredential() {
    return List.of(
        Info.of(
            JdvmProtocol.CREDENTIAL,
            Value.string(credentials.procCredential(PROC.nspace(), PROC.rank()))));
  }

  private SocketChannel admittedClient() throws Exception {
    SocketChannel s = connect(ownCredential());
    assertThat(next()).isEqualTo("opened 1");
    return s;
  }

  private String next() throws InterruptedException {
    String e = link.poll(20, TimeUnit.SECONDS);
    assertThat(e).as("an event on the link").isNotNull();
    return e;
  }

  private static byte[] read(SocketChannel s, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (s.read(b) < 0) {
        throw new EOFException();
      }
    }
    return b.array();
  }

  /** Whether the relay closed the socket: end of stream, or a reset when it left bytes unread. */
  private static boolean closedByRelay(SocketChannel s) {
    try {
      return s.read(ByteBuffer.allocate(1)) == -1;
    } catch (IOException reset) {
      return true;
    }
  }

  private static byte[] frame(int tag, byte[] body) {
    byte[] f = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(f, 0);
    System.arraycopy(body, 0, f, FrameHeader.BYTES, body.length);
    return f;
  }

  @Test
  void aProcessWithItsCredentialIsVouchedForAndItsFramesGoBothWaysUnchanged() throws Exception {
    try (SocketChannel s = admittedClient()) {
      PeerIdentity who = PeerIdentity.decode(identities.get(1L));
      assertThat(who.kind()).isEqualTo(PeerIdentity.Kind.CLIENT);
      assertThat(who.proc()).isEqualTo(PROC);
      assertThat(who.format()).isEqualTo(WireFormat.V41);

      byte[] early = frame(7, new byte[] {1, 2, 3});
      s.write(ByteBuffer.wrap(early));
      relay.frame(1, ClientConnectReply.accepted(5).encode());
      assertThat(ClientConnectReply.decode(read(s, 8)).isAccepted()).isTrue();
      assertThat(next()).as("read only after the handshake reply").isEqualTo("frame 1");
      assertThat(up.take()).isEqualTo(early);

      byte[] down = frame(7, new byte[] {9, 8});
      relay.frame(1, down);
      assertThat(read(s, down.length)).isEqualTo(down);
    }
    assertThat(next()).isEqualTo("closed 1");
    assertThat(relay.peers()).isZero();
  }

  @Test
  void aProcessWithoutItsCredentialWhoseSocketTheAgentCannotTieToItIsRefusedHere()
      throws Exception {
    String forged = credentials.procCredential(PROC.nspace(), PROC.rank() + 1);
    for (List<Info> blob :
        List.of(List.<Info>of(), List.of(Info.of(JdvmProtocol.CREDENTIAL, Value.string(forged))))) {
      try (SocketChannel s = connect(blob)) {
        assertThat(closedByRelay(s)).as("closed without a reply").isTrue();
      }
    }
    assertThat(link).as("nothing reached the controller").isEmpty();
  }

  @Test
  void aControllerRefusalClosesTheSocketWithoutAReplyAndWithoutReadingFrames() throws Exception {
    try (SocketChannel s = admittedClient()) {
      s.write(ByteBuffer.wrap(frame(7, new byte[] {1})));
      relay.closed(1);
      assertThat(closedByRelay(s)).isTrue();
    }
    assertThat(link).as("no frame went up, no close came back").isEmpty();
  }

  @Test
  void aFrameAnnouncingMoreThanTheLargestMessageClosesThePeer() throws Exception {
    try (SocketChannel s = admittedClient()) {
      relay.frame(1, ClientConnectReply.accepted(5).encode());
      read(s, 8);
      byte[] header = new byte[FrameHeader.BYTES];
      ByteBuffer.wrap(header).putInt(0).putInt(7).putInt(FrameHeader.MAX_MESSAGE_BYTES + 1);
      s.write(ByteBuffer.wrap(header));
      assertThat(closedByRelay(s)).isTrue();
    }
    assertThat(next()).isEqualTo("closed 1");
  }

  @Test
  void aProcessOnTheAgentsUnixSocketIsVouchedForWithItsCredential() throws Exception {
    try (SocketChannel s =
        connect(
            SocketChannel.open(UnixDomainSocketAddress.of(dir.resolve("relay.sock"))),
            ownCredential())) {
      assertThat(next()).isEqualTo("opened 1");
      assertThat(PeerIdentity.decode(identities.get(1L)).proc()).isEqualTo(PROC);
    }
  }

  @Test
  void aPeerPastTheRelaysBoundIsRefusedWithoutAWordToTheController() throws Exception {
    relay.close();
    relay = open(null, 1);
    try (SocketChannel first = admittedClient();
        SocketChannel second = connect(ownCredential())) {
      assertThat(closedByRelay(second)).isTrue();
      assertThat(link).isEmpty();
      assertThat(relay.peers()).isEqualTo(1);
    }
  }

  @Test
  void aPeerThatLetsMoreThanItsBoundPileUpUnreadIsCutOff() throws Exception {
    try (SocketChannel s = admittedClient()) {
      relay.frame(1, ClientConnectReply.accepted(5).encode());
      read(s, 8);
      byte[] big = frame(7, new byte[16 << 20]); // one array queued again and again: 16 MiB held
      for (int i = 0; i <= RelayedSocket.MAX_QUEUED_BYTES / big.length; i++) {
        relay.frame(1, big);
      }
      assertThat(next()).isEqualTo("closed 1");
    }
  }
}
