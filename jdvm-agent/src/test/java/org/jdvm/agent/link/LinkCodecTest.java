package org.jdvm.agent.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinkCodecTest {
  private static final byte[] B = {1, 2, 3, 0, -1};

  static List<LinkMessage> everyKind() {
    LinkMessage.Running r = new LinkMessage.Running("d@1", 3, 4242);
    return List.of(
        new LinkMessage.Challenge(1, B),
        new LinkMessage.Hello(
            2,
            "host2",
            "host2",
            4,
            Map.of("cpus", "2"),
            List.of(r),
            List.of(
                new LinkMessage.Exited("a@1", 1, 3, 0), new LinkMessage.Exited("a@1", 2, 0, 15)),
            B,
            B),
        new LinkMessage.Welcome("host2", 500, 5, List.of(r), B),
        new LinkMessage.Refused("no"),
        new LinkMessage.Heartbeat(Long.MAX_VALUE),
        new LinkMessage.Bye("stop"),
        new LinkMessage.Launch(
            7, "d@1", 0, List.of("/bin/echo", "a b"), Map.of("K", "v"), "", true, true),
        new LinkMessage.Signal("d@1", -1, 9),
        new LinkMessage.Stdin(8, "d@1", 0, B, 100),
        new LinkMessage.Cleanup(9, "d@1", "/tmp/x", true, true, false, false, List.of("a"), false),
        new LinkMessage.TerminateAll(10, 2000),
        new LinkMessage.Launched(7, 999),
        new LinkMessage.LaunchFailed(7, "EXE_NOT_FOUND", "no such file"),
        new LinkMessage.Done(8, ""),
        new LinkMessage.Output("d@1", 0, true, B),
        new LinkMessage.Exited("d@1", 0, 0, 9),
        new LinkMessage.RelayOpened(Long.MIN_VALUE, B),
        new LinkMessage.RelayFrame(5, new byte[0]),
        new LinkMessage.RelayClosed(5));
  }

  @Test
  void everyMessageKindSurvivesARoundTrip() throws Exception {
    for (LinkMessage m : everyKind()) {
      byte[] wire = LinkCodec.encode(m);
      LinkMessage back = LinkCodec.read(new ByteArrayInputStream(wire));
      assertThat(Arrays.equals(LinkCodec.encode(back), wire)).as(m.toString()).isTrue();
      assertThat(back.getClass()).isEqualTo(m.getClass());
    }
  }

  @Test
  void aLengthAboveTheBoundIsRefusedBeforeAnythingIsBuffered() {
    byte[] wire = ByteBuffer.allocate(4).putInt(LinkCodec.MAX_MESSAGE_BYTES + 1).array();
    assertThatThrownBy(() -> LinkCodec.read(new ByteArrayInputStream(wire)))
        .isInstanceOf(LinkCodec.Malformed.class)
        .hasMessageContaining("declares");
  }

  @Test
  void aCountLargerThanWhatIsLeftIsRefusedWithoutAllocating() {
    ByteBuffer b = ByteBuffer.allocate(9);
    b.put((byte) 4).putInt(Integer.MAX_VALUE).putInt(0).flip(); // Refused with a huge string
    assertThatThrownBy(() -> LinkCodec.decode(b))
        .isInstanceOf(LinkCodec.Malformed.class)
        .hasMessageContaining("count");
  }

  @Test
  void trailingBytesAnUnknownKindAndABadBooleanAreRefused() {
    byte[] ok = LinkCodec.encode(new LinkMessage.Heartbeat(1));
    ByteBuffer trailing = ByteBuffer.allocate(ok.length - 4 + 1);
    trailing.put(ok, 4, ok.length - 4).put((byte) 0).flip();
    assertThatThrownBy(() -> LinkCodec.decode(trailing)).hasMessageContaining("after");
    assertThatThrownBy(() -> LinkCodec.decode(ByteBuffer.wrap(new byte[] {99})))
        .hasMessageContaining("unknown");
    byte[] exited = LinkCodec.encode(new LinkMessage.Output("n", 0, true, new byte[0]));
    ByteBuffer bad = ByteBuffer.wrap(exited, 4, exited.length - 4).slice();
    bad.put(1 + 4 + 1 + 4, (byte) 2);
    assertThatThrownBy(() -> LinkCodec.decode(bad)).hasMessageContaining("boolean");
  }

  @Test
  void aMessageCutShortIsAnEndOfStreamOrMalformedNeverAnotherException() throws Exception {
    Random random = new Random(20261124);
    for (LinkMessage m : everyKind()) {
      byte[] wire = LinkCodec.encode(m);
      for (int cut = 0; cut < wire.length; cut++) {
        byte[] part = Arrays.copyOf(wire, cut);
        assertThatThrownBy(() -> LinkCodec.read(new ByteArrayInputStream(part)))
            .isInstanceOf(EOFException.class);
      }
      // The body cut short, with its length prefix made to match: malformed.
      for (int cut = 1; cut < wire.length - 4; cut++) {
        ByteBuffer body = ByteBuffer.wrap(Arrays.copyOfRange(wire, 4, 4 + cut));
        assertThatThrownBy(() -> LinkCodec.decode(body)).isInstanceOf(LinkCodec.Malformed.class);
      }
      // Random corruption: a message or Malformed, nothing else.
      for (int i = 0; i < 50; i++) {
        byte[] body = Arrays.copyOfRange(wire, 4, wire.length);
        body[random.nextInt(body.length)] = (byte) random.nextInt(256);
        try {
          LinkCodec.decode(ByteBuffer.wrap(body));
        } catch (LinkCodec.Malformed e) {
          // expected for most
        }
      }
    }
  }

  @Test
  void aMessageAboveTheBoundIsNotEncoded() {
    byte[] big = new byte[LinkCodec.MAX_MESSAGE_BYTES];
    assertThatThrownBy(() -> LinkCodec.encode(new LinkMessage.RelayFrame(1, big)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
