package org.jdvm.agent.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.FrameHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node's fence entries gathered at its relay (docs/protocol.md "Node agents"): one entry goes up
 * for the node's participants and its answer reaches each of them on its own tag; what the relay
 * cannot gather goes up as it is; what it answers itself.
 */
class FenceAggregatorTest {
  private static final String NS = "jdvm-2@4";
  private static final WireFormat F = WireFormat.V41;

  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
  private final JobDataCache jobData = new JobDataCache();
  private final List<byte[]> up = new ArrayList<>();
  private final FenceAggregator fences =
      new FenceAggregator(jobData, timer, (carrier, frame) -> up.add(frame));

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  /** This node runs ranks 0 and 1 of a job of 4, as the job data the relay holds says. */
  private void nodeRuns(String lpeers) {
    RelayedSocket first = peer(0);
    byte[] req = frame(1, new Packer(F).packCommand(Commands.REQ_CMD).toByteArray());
    jobData.answer(first, 1, req);
    byte[] reply =
        new Packer(F)
            .packString(NS)
            .pack(DataType.KVAL, new KVal(PmixKeys.LOCAL_PEERS, Value.string(lpeers)))
            .toByteArray();
    jobData.reply(first, frame(1, reply));
  }

  private static RelayedSocket peer(int rank) {
    return new RelayedSocket(
        rank,
        null,
        new PeerIdentity(PeerIdentity.Kind.CLIENT, new Proc(NS, rank), 1, -1, 0, F),
        null);
  }

  private static byte[] frame(int tag, byte[] body) {
    return Frames.of(tag, body);
  }

  private static byte[] fence(int tag, boolean collect, Info... extra) {
    List<Info> infos =
        new ArrayList<>(List.of(Info.of(PmixKeys.COLLECT_DATA, Value.bool(collect))));
    infos.addAll(List.of(extra));
    return frame(
        tag,
        new Packer(F).packCommand(Commands.FENCENB_CMD).packSize(0).packInfos(infos).toByteArray());
  }

  private static int status(byte[] frame) {
    return new Unpacker(F, frame, FrameHeader.BYTES, frame.length - FrameHeader.BYTES)
        .unpackStatus();
  }

  private static String fenceFor(byte[] frame) {
    Unpacker in = new Unpacker(F, frame, FrameHeader.BYTES, frame.length - FrameHeader.BYTES);
    assertThat(in.unpackCommand()).isEqualTo(Commands.FENCENB_CMD);
    assertThat(in.unpackSize()).isZero();
    for (Info i : in.unpackInfos()) {
      if (i.key().equals(JdvmProtocol.FENCE_FOR)) {
        return (String) i.value().data();
      }
    }
    return null;
  }

  @Test
  void theNodesParticipantsEnterOnceAndEachGetsTheAnswerOnItsOwnTag() {
    nodeRuns("0,1");
    RelayedSocket r0 = peer(0);
    RelayedSocket r1 = peer(1);
    assertThat(fences.enter(r0, 11, fence(11, true))).isTrue();
    assertThat(up).as("held until the node's other participant entered").isEmpty();
    assertThat(fences.enter(r1, 22, fence(22, true))).isTrue();
    assertThat(up).hasSize(1);
    assertThat(FrameHeader.decode(up.getFirst(), 0).tag())
        .as("the last entrant carries it")
        .isEqualTo(22);
    assertThat(fenceFor(up.getFirst())).isEqualTo("0");
    assertThat(fences.carries(r1)).isTrue();

    byte[] answer = frame(22, new Packer(F).packStatus(PmixStatus.SUCCESS).toByteArray());
    assertThat(fences.reply(r1, answer)).isTrue();
    assertThat(fences.carries(r1)).isFalse();
    byte[] to0 = r0.pollQueued();
    byte[] to1 = r1.pollQueued();
    assertThat(FrameHeader.decode(to0, 0).tag()).isEqualTo(11);
    assertThat(FrameHeader.decode(to1, 0).tag()).isEqualTo(22);
    assertThat(status(to0)).isEqualTo(PmixStatus.SUCCESS);
    assertThat(fences.counts()).containsExactly(1, 1);
  }

  @Test
  void aLocalParticipantThatEndedIsNotWaitedFor() {
    nodeRuns("0,1");
    fences.enter(peer(0), 11, fence(11, true));
    fences.procsEnded(NS, List.of(1));
    assertThat(up).hasSize(1);
    assertThat(fenceFor(up.getFirst())).isEmpty();
  }

  @Test
  void whatTheRelayCannotGatherGoesUpAsItIs() {
    RelayedSocket r0 = peer(0);
    assertThat(fences.enter(r0, 11, fence(11, true))).as("no locality known").isFalse();
    nodeRuns("0,1");
    byte[] other =
        frame(
            3,
            new Packer(F)
                .packCommand(Commands.FENCENB_CMD)
                .packSize(1)
                .pack(DataType.PROC, List.of(Proc.wildcard("jdvm-2@9")))
                .packInfos(List.of())
                .toByteArray());
    assertThat(fences.enter(r0, 3, other)).as("another namespace").isFalse();
    byte[] commit = frame(4, new Packer(F).packCommand(Commands.COMMIT_CMD).toByteArray());
    assertThat(fences.enter(r0, 4, commit)).as("not a fence").isFalse();
  }

  @Test
  void anEntrantDisagreeingAboutCollectGoesUpAloneSoTheControllerRefusesTheFence() {
    nodeRuns("0,1");
    byte[] second = fence(22, false);
    fences.enter(peer(0), 11, fence(11, true));
    fences.enter(peer(1), 22, second);
    assertThat(up).hasSize(2);
    assertThat(up.get(0)).isEqualTo(second);
    assertThat(fenceFor(up.get(1))).isEmpty();
  }

  @Test
  void aRepeatedEntryAndAProcesssOwnFenceForAreRefusedHere() {
    nodeRuns("0,1");
    RelayedSocket r0 = peer(0);
    fences.enter(r0, 11, fence(11, true));
    assertThat(fences.enter(r0, 12, fence(12, true))).isTrue();
    assertThat(status(r0.pollQueued())).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    RelayedSocket r1 = peer(1);
    assertThat(
            fences.enter(r1, 5, fence(5, true, Info.of(JdvmProtocol.FENCE_FOR, Value.string("0")))))
        .isTrue();
    assertThat(status(r1.pollQueued())).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(up).isEmpty();
  }

  @Test
  void aLocalTimeoutBeforeTheNodesEntryWentUpIsAnsweredHere() throws Exception {
    nodeRuns("0,1");
    RelayedSocket r0 = peer(0);
    fences.enter(r0, 11, fence(11, true, Info.of(PmixKeys.TIMEOUT, Value.int32(1))));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    byte[] answer;
    while ((answer = r0.pollQueued()) == null && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(answer).as("an answer within the bound").isNotNull();
    assertThat(status(answer)).isEqualTo(PmixStatus.ERR_TIMEOUT);
    assertThat(up).isEmpty();
  }

  @Test
  void theOthersAreToldWhenTheControllerClosesTheConnectionThatCarriedTheirEntry() {
    nodeRuns("0,1");
    RelayedSocket r0 = peer(0);
    RelayedSocket r1 = peer(1);
    fences.enter(r0, 11, fence(11, true));
    fences.enter(r1, 22, fence(22, true));
    fences.carrierLost(r1);
    assertThat(status(r0.pollQueued())).isEqualTo(PmixStatus.ERR_LOST_CONNECTION);
    assertThat(r1.pollQueued()).isNull();
    assertThat(fences.carries(r1)).isFalse();
  }
}
