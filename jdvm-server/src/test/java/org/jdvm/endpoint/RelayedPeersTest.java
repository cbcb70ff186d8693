package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.ToolConnectReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's side of a node agent's relay (docs/protocol.md "Node agents"): a tool the agent
 * vouches for is registered and answered through the link, and served like any peer; the bounds and
 * faults of the link (too many peers, an id opened twice, a frame whose header lies) close what
 * they concern and nothing else.
 */
class RelayedPeersTest {
  @TempDir Path home;

  private EndpointFixture fixture;
  private final LinkedBlockingQueue<String> link = new LinkedBlockingQueue<>();
  private final LinkedBlockingQueue<byte[]> down = new LinkedBlockingQueue<>();
  private RelayedPeers peers;

  @BeforeEach
  void start() throws Exception {
    fixture = new EndpointFixture(home, 1, 1, 0);
    peers =
        fixture.endpoint.relayedPeers(
            "node0",
            new RelayedPeers.Carrier() {
              @Override
              public void send(long id, byte[] message) {
                down.add(message);
                link.add("message " + id);
              }

              @Override
              public void closed(long id) {
                link.add("closed " + id);
              }
            },
            2);
  }

  @AfterEach
  void stop() {
    peers.close();
    fixture.close();
  }

  private String next() throws InterruptedException {
    String e = link.poll(20, TimeUnit.SECONDS);
    assertThat(e).as("an answer on the link").isNotNull();
    return e;
  }

  private Proc tool(long id) throws InterruptedException {
    peers.opened(id, true, null, WireFormat.V41, 1000, 0);
    assertThat(next()).isEqualTo("message " + id);
    ToolConnectReply reply = ToolConnectReply.decode(down.poll(), true);
    assertThat(reply.isAccepted()).isTrue();
    return reply.assigned();
  }

  private static byte[] frame(int tag, byte[] body) {
    byte[] f = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(f, 0);
    System.arraycopy(body, 0, f, FrameHeader.BYTES, body.length);
    return f;
  }

  @Test
  void aVouchedToolGetsANamespaceAndItsRequestsAreServed() throws Exception {
    Proc proc = tool(1);
    assertThat(proc.nspace()).startsWith(fixture.endpoint.dvmName());
    peers.frame(
        1, frame(9, new Packer(WireFormat.V41).packCommand(Commands.REQ_CMD).toByteArray()));
    assertThat(next()).isEqualTo("message 1");
    byte[] reply = down.poll();
    assertThat(FrameHeader.decode(reply, 0).tag()).isEqualTo(9);
    assertThat(
            new Unpacker(WireFormat.V41, reply, FrameHeader.BYTES, reply.length - FrameHeader.BYTES)
                .unpackString())
        .as("a tool's REQ is answered with its namespace")
        .isEqualTo(proc.nspace());
  }

  @Test
  void aPeerPastTheAgentsBoundIsRefusedAndTheOthersStay() throws Exception {
    tool(1);
    tool(2);
    peers.opened(3, true, null, WireFormat.V41, 1000, 0);
    assertThat(next()).isEqualTo("closed 3");
    assertThat(peers.size()).isEqualTo(2);
  }

  @Test
  void anIdOpenedAgainClosesBothAndAFrameWhoseHeaderLiesClosesItsPeer() throws Exception {
    tool(1);
    peers.opened(1, true, null, WireFormat.V41, 1000, 0);
    assertThat(next()).isEqualTo("closed 1");
    assertThat(peers.size()).isZero();

    tool(2);
    byte[] lying = frame(9, new byte[] {1, 2, 3});
    lying[11] = 9; // announces 9 bytes, carries 3
    peers.frame(2, lying);
    assertThat(next()).isEqualTo("closed 2");
    assertThat(peers.size()).isZero();
  }
}
