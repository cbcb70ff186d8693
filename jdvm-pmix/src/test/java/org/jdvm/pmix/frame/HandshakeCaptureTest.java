package org.jdvm.pmix.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jdvm.pmix.WireVectors.hex;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.Test;

/**
 * The connect handshake and the framing against the real bytes of a libpmix 4.2.2 tool session and
 * client session ({@code wire/handshake_capture.json} of the test resources, pmix-wire.md §9.3):
 * each message decodes to what the capture's notes say and encodes back to the same bytes.
 */
class HandshakeCaptureTest {
  private static final Map<?, ?> CAPTURE =
      (Map<?, ?>) Json.parse(WireVectors.resource("handshake_capture.json"));

  private static byte[] chunk(String session, int index) {
    Map<?, ?> c = (Map<?, ?>) ((List<?>) CAPTURE.get(session)).get(index);
    return hex((String) c.get("hex"));
  }

  private static final ByteObject ROOT = new NativeCredential(0, 0).encode();

  @Test
  void theClientsConnectMessageDecodesAndEncodesBackExactly() {
    byte[] message = chunk("client_session", 0);

    ConnectRequest request = ConnectRequest.decode(message);

    ConnectRequest expected =
        new ConnectRequest(
            "native",
            ROOT,
            ConnectFlag.SIMPLE_CLIENT,
            ConnectRequest.ABSENT,
            ConnectRequest.ABSENT,
            new Proc("app", 0),
            "4.2.2rc2",
            "v41",
            BufferType.NON_DESCRIBED,
            "hash",
            List.of(),
            true);
    assertThat(request).isEqualTo(expected);
    assertThat(request.wireFormat()).isEqualTo(WireFormat.V41);
    assertThat(hex(request.encode())).isEqualTo(hex(message));
  }

  @Test
  void theToolsConnectMessageCarriesItsInfoBlobAndTheTrailingZero() {
    byte[] message = chunk("tool_session", 0);

    ConnectRequest request = ConnectRequest.decode(message);

    assertThat(request.flag()).isEqualTo(ConnectFlag.TOOL_NEEDS_ID);
    assertThat(request.uid()).isZero();
    assertThat(request.gid()).isZero();
    assertThat(request.proc()).isNull();
    assertThat(NativeCredential.decode(request.credential())).isEqualTo(new NativeCredential(0, 0));
    assertThat(request.infos())
        .containsExactly(
            Info.of("pmix.srvr.uri", Value.string("srv.26771;tcp4://127.0.0.1:45999")),
            Info.of("pmix.ppid", Value.pid(26857)),
            Info.of("pmix.cmd.line", Value.string("./tool")));
    assertThat(request.trailingZero()).isTrue();
    assertThat(hex(request.encode())).isEqualTo(hex(message));
  }

  @Test
  void theServersRepliesDecodeAndEncodeBackExactly() {
    byte[] client = chunk("client_session", 1);
    ClientConnectReply clientReply = ClientConnectReply.decode(client);
    assertThat(clientReply).isEqualTo(ClientConnectReply.accepted(0));
    assertThat(clientReply.encode()).isEqualTo(client);

    // the proxy saw the tool reply in two reads: status, ids, then the security status
    byte[] first = chunk("tool_session", 1);
    byte[] second = chunk("tool_session", 2);
    byte[] tool = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, tool, first.length, second.length);
    ToolConnectReply toolReply = ToolConnectReply.decode(tool, true);
    assertThat(toolReply)
        .isEqualTo(ToolConnectReply.accepted(new Proc("toolns", 0), new Proc("srv", 26771)));
    assertThat(toolReply.encode()).isEqualTo(tool);
  }

  @Test
  void steadyStateMessagesAreABigEndianHeaderAndABody() {
    int[] expectedTags = {101, 101, 102, 102, 103, 103};
    for (String session : List.of("tool_session", "client_session")) {
      List<?> chunks = (List<?>) CAPTURE.get(session);
      int offset = session.equals("tool_session") ? 3 : 2;
      for (int i = 0; i < expectedTags.length; i++) {
        byte[] message = chunk(session, offset + i);
        FrameHeader header = FrameHeader.decode(message, 0);
        assertThat(header.tag()).isEqualTo(expectedTags[i]);
        assertThat(header.pindex()).isZero();
        assertThat(header.bodyLength()).isEqualTo(message.length - FrameHeader.BYTES);
        assertThat(Tags.isDynamic(header.tag())).isTrue();
        assertThat(header.encode()).isEqualTo(Arrays.copyOf(message, FrameHeader.BYTES));
      }
      assertThat(chunks).hasSize(offset + expectedTags.length);
    }
  }

  @Test
  void theToolsFirstRequestIsReqCmdOnTag101() {
    byte[] message = chunk("tool_session", 3);
    FrameHeader header = FrameHeader.decode(message, 0);
    Unpacker body = new Unpacker(WireFormat.V41, message, FrameHeader.BYTES, header.nbytes());
    assertThat(body.unpackCommand()).isEqualTo(Commands.REQ_CMD);
    assertThat(TagSequence.connector().next()).isEqualTo(header.tag());
  }

  @Test
  void aDescribedConnectorsBlobIsPackedInItsOwnMode() {
    ConnectRequest request =
        new ConnectRequest(
            "native",
            new NativeCredential(1000, 1000).encode(),
            ConnectFlag.TOOL_GIVEN_ID,
            1000,
            1000,
            new Proc("tool-7", 0),
            "7.0.0",
            "v61",
            BufferType.FULLY_DESCRIBED,
            "hash",
            List.of(Info.of("pmix.cmd.line", Value.string("jdvm"))),
            false);

    byte[] message = request.encode();

    assertThat(ConnectRequest.decode(message)).isEqualTo(request);
    // the blob starts with a described SIZE unit: INT32 tag, count 1, SIZE tag, 1
    String payloadHex = hex(message);
    assertThat(payloadHex).contains("763631" + "00" + "02" + "6861736800" + "09020401");
  }

  @Test
  void everyTruncationOfACapturedConnectMessagePoisonsTheConnection() {
    for (String session : List.of("tool_session", "client_session")) {
      byte[] message = chunk(session, 0);
      for (int length = 0; length < message.length; length++) {
        byte[] cut = Arrays.copyOf(message, length);
        assertThatThrownBy(() -> ConnectRequest.decode(cut))
            .isInstanceOfSatisfying(
                WireException.class, e -> assertThat(e.poisonsConnection()).isTrue());
      }
    }
  }

  @Test
  void aHeaderAnnouncingTooMuchIsRefusedBeforeAnythingIsBuffered() {
    byte[] big = FrameHeader.of(0, 101, (32 << 20) + 1).encode();
    assertThatThrownBy(() -> FrameHeader.decode(big, 0))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> {
              assertThat(e.poisonsConnection()).isTrue();
              assertThat(e.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
            });
    byte[] connect = FrameHeader.encodeConnect((128 << 10) + 1);
    assertThatThrownBy(() -> FrameHeader.decodeConnect(connect, 0))
        .isInstanceOf(WireException.class);
    // a steady-state header is not a connect header
    assertThatThrownBy(() -> FrameHeader.decodeConnect(FrameHeader.of(0, 101, 2).encode(), 0))
        .isInstanceOf(WireException.class);
    assertThat(FrameHeader.of(0, -2, -1).bodyLength()).isEqualTo(0xFFFF_FFFFL);
  }

  @Test
  void aPeerOfAnotherFamilyOrAnOldVersionIsNotSupported() {
    ConnectRequest v3 =
        new ConnectRequest(
            "native",
            ROOT,
            ConnectFlag.SIMPLE_CLIENT,
            -1,
            -1,
            new Proc("a", 0),
            "3.2.3",
            "v3",
            BufferType.NON_DESCRIBED,
            "hash",
            List.of(),
            false);
    assertThatThrownBy(() -> ConnectRequest.decode(v3.encode()))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED));
  }

  @Test
  void dynamicTagsStartAt101AndTheTwoSidesNeverMeet() {
    TagSequence connector = TagSequence.connector();
    assertThat(connector.next()).isEqualTo(101);
    assertThat(connector.next()).isEqualTo(102);
    int accepted = TagSequence.acceptor().next();
    assertThat(Integer.toUnsignedLong(accepted)).isEqualTo(TagSequence.SPLIT + 1);
    assertThat(Tags.isDynamic(Tags.NOTIFY)).isFalse();
    assertThat(Tags.isDynamic(Tags.CONNECT)).isFalse();
    assertThat(Tags.isDynamic(DataType.values().length)).isFalse();
  }

  @Test
  void theFactoriesBuildWhatTheCapturedPeersSentLessThe422TrailingByte() {
    ConnectRequest client =
        ConnectRequest.simpleClient(
            new Proc("app", 0), new NativeCredential(0, 0), WireFormat.V41, "4.2.2rc2");
    byte[] captured = chunk("client_session", 0);
    // master sends no trailing 0x00 and counts its payload exactly
    byte[] expected = Arrays.copyOf(captured, captured.length - 1);
    expected[8] = (byte) (expected[8] - 1);
    assertThat(hex(client.encode())).isEqualTo(hex(expected));

    ConnectRequest tool =
        ConnectRequest.toolNeedingId(
            new NativeCredential(0, 0),
            WireFormat.V41,
            "4.2.2rc2",
            ConnectRequest.decode(chunk("tool_session", 0)).infos());
    assertThat(ConnectRequest.decode(tool.encode())).isEqualTo(tool);
    assertThat(tool.flag().needsId()).isTrue();
    assertThat(tool.flag().getsClientReply()).isFalse();
    assertThat(client.flag().getsClientReply()).isTrue();
  }
}
