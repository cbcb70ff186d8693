package org.jdvm.agent.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.FrameHeader;
import org.junit.jupiter.api.Test;

/**
 * The job data a relay answers itself (docs/protocol.md "Node agents"): a REQ of a namespace whose
 * reply the controller already sent, in the peer's wire format, and nothing else.
 */
class JobDataCacheTest {
  private static final String NS = "jdvm-1@3";

  private static RelayedSocket peer(PeerIdentity.Kind kind, int rank, WireFormat format) {
    PeerIdentity who = new PeerIdentity(kind, new Proc(NS, rank), 1000, -1, 0, format);
    return new RelayedSocket(rank, null, who, null);
  }

  private static RelayedSocket client(int rank) {
    return peer(PeerIdentity.Kind.CLIENT, rank, WireFormat.V41);
  }

  private static byte[] frame(int tag, byte[] body) {
    byte[] f = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(f, 0);
    System.arraycopy(body, 0, f, FrameHeader.BYTES, body.length);
    return f;
  }

  private static byte[] req(WireFormat format, int tag) {
    return frame(tag, new Packer(format).packCommand(Commands.REQ_CMD).toByteArray());
  }

  private static byte[] jobData(String nspace, int tag) {
    return frame(
        tag,
        new Packer(WireFormat.V41)
            .packString(nspace)
            .pack(DataType.KVAL, new KVal("pmix.job.size", Value.uint32(4)))
            .toByteArray());
  }

  @Test
  void aReqOfANamespaceTheControllerAnsweredOnceIsAnsweredHereOnItsOwnTag() {
    JobDataCache cache = new JobDataCache();
    RelayedSocket first = client(0);
    assertThat(cache.answer(first, 5, req(WireFormat.V41, 5))).as("not held yet").isNull();
    byte[] reply = jobData(NS, 5);
    assertThat(cache.reply(first, reply)).isTrue();

    byte[] answer = cache.answer(client(1), 9, req(WireFormat.V41, 9));
    assertThat(answer).isNotNull();
    assertThat(FrameHeader.decode(answer, 0).tag()).isEqualTo(9);
    assertThat(Arrays.copyOfRange(answer, FrameHeader.BYTES, answer.length))
        .isEqualTo(Arrays.copyOfRange(reply, FrameHeader.BYTES, reply.length));
    assertThat(cache.counts()).containsExactly(1, 1);
  }

  @Test
  void anotherWireFormatAToolAnotherCommandOrAnotherTagIsNotAnsweredHere() {
    JobDataCache cache = new JobDataCache();
    RelayedSocket first = client(0);
    cache.answer(first, 5, req(WireFormat.V41, 5));
    assertThat(cache.reply(first, jobData(NS, 6))).as("a reply on another tag").isFalse();
    assertThat(cache.size()).isZero();
    assertThat(cache.reply(first, jobData(NS, 5))).isTrue();

    assertThat(
            cache.answer(
                peer(PeerIdentity.Kind.CLIENT, 1, WireFormat.V61), 3, req(WireFormat.V61, 3)))
        .isNull();
    assertThat(
            cache.answer(
                peer(PeerIdentity.Kind.TOOL, 1, WireFormat.V41), 3, req(WireFormat.V41, 3)))
        .isNull();
    byte[] fence =
        frame(3, new Packer(WireFormat.V41).packCommand(Commands.FENCENB_CMD).toByteArray());
    assertThat(cache.answer(client(1), 3, fence)).isNull();
    assertThat(cache.answer(client(1), 3, new byte[FrameHeader.BYTES])).isNull();
  }

  @Test
  void aReplyWithoutJobDataIsNotKept() {
    JobDataCache cache = new JobDataCache();
    RelayedSocket first = client(0);
    cache.answer(first, 5, req(WireFormat.V41, 5));
    byte[] bare = frame(5, new Packer(WireFormat.V41).packString(NS).toByteArray());
    assertThat(cache.reply(first, bare)).isTrue();
    assertThat(cache.answer(client(1), 6, req(WireFormat.V41, 6))).isNull();
  }

  @Test
  void theCacheHoldsAtMostItsNamespacesAndForgetsAnEndedJob() {
    JobDataCache cache = new JobDataCache();
    for (int n = 0; n <= JobDataCache.MAX_NAMESPACES; n++) {
      PeerIdentity who =
          new PeerIdentity(
              PeerIdentity.Kind.CLIENT, new Proc("jdvm-1@" + n, 0), 1000, -1, 0, WireFormat.V41);
      RelayedSocket p = new RelayedSocket(n, null, who, null);
      cache.answer(p, 1, req(WireFormat.V41, 1));
      cache.reply(p, jobData("jdvm-1@" + n, 1));
    }
    assertThat(cache.size()).isEqualTo(JobDataCache.MAX_NAMESPACES);
    cache.forget("jdvm-1@" + JobDataCache.MAX_NAMESPACES);
    assertThat(cache.size()).isEqualTo(JobDataCache.MAX_NAMESPACES - 1);
  }

  @Test
  void aPeerMayHaveOnlyABoundedNumberOfJobDataRequestsWaiting() {
    RelayedSocket p = client(0);
    for (int tag = 1; tag <= RelayedSocket.MAX_PENDING_REQS; tag++) {
      assertThat(p.awaitsJobData(tag)).isTrue();
    }
    assertThat(p.awaitsJobData(1000)).isFalse();
  }
}
