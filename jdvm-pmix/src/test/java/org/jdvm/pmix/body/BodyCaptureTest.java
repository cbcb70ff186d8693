package org.jdvm.pmix.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.pmix.WireVectors.hex;

import java.util.List;
import java.util.Map;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.Test;

/**
 * The bodies against the whole frames a libpmix 4.2.2 server and its tool and client exchanged
 * ({@code wire/handshake_capture.json}, pmix-wire.md §9.3): each captured frame reads as its note
 * says, and the body written from what was read, in its frame, is the captured frame again.
 */
class BodyCaptureTest {
  private static final Map<?, ?> CAPTURE =
      (Map<?, ?>) Json.parse(WireVectors.resource("handshake_capture.json"));
  private static final WireFormat V41 = WireFormat.V41;
  private static final KVal BFROPS = new KVal("pmix.bfrops.mod", Value.string("4.2.2rc2"));

  private static byte[] frame(String session, int index) {
    Map<?, ?> c = (Map<?, ?>) ((List<?>) CAPTURE.get(session)).get(index);
    return hex((String) c.get("hex"));
  }

  @Test
  void theJobDataRequestIsItsCommandAlone() {
    for (byte[] req : List.of(frame("tool_session", 3), frame("client_session", 2))) {
      assertThat(Frames.command(V41, req)).isEqualTo(JobDataReply.COMMAND);
      Unpacker in = Frames.body(V41, req);
      in.unpackCommand();
      in.expectEnd();
    }
  }

  @Test
  void theJobDataRepliesReadAndWriteBackToTheCapturedFrames() {
    Map<String, byte[]> replies =
        Map.of("toolns", frame("tool_session", 4), "app", frame("client_session", 3));
    replies.forEach(
        (nspace, captured) -> {
          Unpacker in = Frames.body(V41, captured);
          JobDataReply reply = JobDataReply.read(in);
          in.expectEnd();
          assertThat(reply).isEqualTo(new JobDataReply(nspace, List.of(BFROPS)));
          assertThat(hex(Frames.of(101, reply.write(V41)))).isEqualTo(hex(captured));
          assertThat(JobDataReply.first(Frames.body(V41, captured), k -> true)).isEqualTo(BFROPS);
        });
  }

  @Test
  void finalizeIsItsCommandAndItsAnswerAStatusReply() {
    assertThat(Frames.command(V41, frame("tool_session", 7))).isEqualTo(Commands.FINALIZE_CMD);
    byte[] captured = frame("tool_session", 8);
    assertThat(StatusReply.read(Frames.body(V41, captured)))
        .isEqualTo(new StatusReply(PmixStatus.SUCCESS));
    assertThat(hex(Frames.of(103, new StatusReply(PmixStatus.SUCCESS).write(V41))))
        .isEqualTo(hex(captured));
  }

  @Test
  void aFrameWithoutABodyHasNoCommand() {
    byte[] bare = Frames.of(5, new byte[0]);
    assertThat(Frames.body(V41, bare)).isNull();
    assertThat(Frames.command(V41, bare)).isEqualTo(-1);
    assertThat(Frames.command(V41, Frames.of(5, new byte[] {(byte) 0xFF}))).isEqualTo(-1);
  }
}
