package org.jdvm.pmix.frame;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.jdvm.pmix.codec.WireException;

/**
 * Jazzer fuzz tests of the framing decoders: the steady-state header, the connect message and the
 * server's replies. Regression mode runs the seeds in {@code
 * src/test/resources/org/jdvm/pmix/frame/FrameFuzzTestInputs/<method>/}. Every failure must be a
 * {@link WireException} that poisons the connection; whatever decodes must encode back to bytes
 * that decode to the same thing.
 */
class FrameFuzzTest {
  @FuzzTest
  void frameHeader(byte[] input) {
    try {
      FrameHeader h = FrameHeader.decode(input, 0);
      assertThat(h.bodyLength()).isLessThanOrEqualTo(FrameHeader.MAX_MESSAGE_BYTES);
      assertThat(FrameHeader.decode(h.encode(), 0)).isEqualTo(h);
    } catch (WireException e) {
      assertThat(e.poisonsConnection()).isTrue();
    }
    try {
      FrameHeader h = FrameHeader.decodeConnect(input, 0);
      assertThat(h.bodyLength()).isLessThanOrEqualTo(FrameHeader.MAX_CONNECT_BYTES);
    } catch (WireException e) {
      assertThat(e.poisonsConnection()).isTrue();
    }
  }

  @FuzzTest
  void connectRequest(byte[] input) {
    ConnectRequest request;
    try {
      request = ConnectRequest.decode(input);
    } catch (WireException e) {
      assertThat(e.poisonsConnection()).isTrue();
      assertThat(e.offset()).isBetween(0, input.length);
      return;
    }
    // the first decode may normalize (floats become their %f value); from then on it is stable
    byte[] again = request.encode();
    assertThat(ConnectRequest.decode(again).encode()).isEqualTo(again);
  }

  @FuzzTest
  void connectReplies(byte[] input) {
    try {
      ClientConnectReply reply = ClientConnectReply.decode(input);
      assertThat(ClientConnectReply.decode(reply.encode())).isEqualTo(reply);
    } catch (WireException e) {
      assertThat(e.poisonsConnection()).isTrue();
    }
    for (boolean idRequested : new boolean[] {false, true}) {
      try {
        ToolConnectReply reply = ToolConnectReply.decode(input, idRequested);
        assertThat(ToolConnectReply.decode(reply.encode(), idRequested)).isEqualTo(reply);
      } catch (WireException e) {
        assertThat(e.poisonsConnection()).isTrue();
      }
    }
  }
}
