package org.jdvm.agent.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.body.GetReply;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.FrameHeader;
import org.junit.jupiter.api.Test;

/**
 * The agent's cache of other ranks' data (docs/protocol.md "Node agents"): the blob a get brought
 * from the controller answers the node's later gets of keys in it, and nothing the controller must
 * decide; a fence of the namespace forgets it.
 */
class GetCacheTest {
  private static final String NS = "jdvm-4@2";
  private static final WireFormat F = WireFormat.V41;

  private final GetCache cache = new GetCache();
  private final RelayedSocket r0 = peer(0);
  private final RelayedSocket r1 = peer(1);

  private static RelayedSocket peer(int rank) {
    return new RelayedSocket(
        rank,
        null,
        new PeerIdentity(PeerIdentity.Kind.CLIENT, new Proc(NS, rank), 1, -1, 0, F),
        null);
  }

  private static byte[] getFrame(int tag, String nspace, int rank, String key) {
    Packer body =
        new Packer(F)
            .packCommand(Commands.GETNB_CMD)
            .packString(nspace)
            .packInteger(DataType.PROC_RANK, Integer.toUnsignedLong(rank))
            .packInfos(List.<Info>of());
    if (key != null) {
      body.packString(key);
    }
    return Frames.of(tag, body.toByteArray());
  }

  private byte[] get(RelayedSocket requester, int tag, int rank, String key) {
    return cache.answer(requester, tag, getFrame(tag, NS, rank, key));
  }

  /** The controller answers {@code requester}'s get on {@code tag} with rank 7's blob. */
  private void controllerAnswers(RelayedSocket requester, int tag, String... keys) {
    List<KVal> blob = new ArrayList<>();
    for (String k : keys) {
      blob.add(new KVal(k, Value.string("v-" + k)));
    }
    GetReply reply =
        new GetReply(PmixStatus.SUCCESS, List.of(new GetReply.Blob(new Proc(NS, 7), blob)));
    cache.reply(requester, Frames.of(tag, reply.write(F)));
  }

  private static List<String> keys(byte[] answer, int tag) {
    assertThat(FrameHeader.decode(answer, 0).tag()).isEqualTo(tag);
    Unpacker in = new Unpacker(F, answer, FrameHeader.BYTES, answer.length - FrameHeader.BYTES);
    List<String> out = new ArrayList<>(List.of(PmixStatus.name(in.unpackStatus())));
    ByteObject blob = (ByteObject) in.unpack(DataType.BYTE_OBJECT).getFirst();
    Unpacker b = new Unpacker(F, blob.toByteArray());
    out.add(String.valueOf(b.unpack(DataType.PROC).getFirst()));
    while (b.hasRemaining()) {
      for (Object o : b.unpack(DataType.KVAL)) {
        out.add(((KVal) o).key());
      }
    }
    return out;
  }

  @Test
  void aBlobAGetBroughtAnswersTheNodesNextGetOfAKeyInIt() {
    assertThat(get(r0, 5, 7, "k.a")).as("nothing kept yet: the controller answers").isNull();
    controllerAnswers(r0, 5, "k.a", "k.b");
    byte[] answer = get(r1, 9, 7, "k.b");
    assertThat(keys(answer, 9))
        .containsExactly("PMIX_SUCCESS", new Proc(NS, 7).toString(), "k.a", "k.b");
    assertThat(cache.answered()).isEqualTo(1);
  }

  @Test
  void whatTheControllerMustDecideStillGoesToIt() {
    get(r0, 5, 7, "k.a");
    controllerAnswers(r0, 5, "k.a");
    assertThat(get(r1, 6, 7, "k.later")).as("a key the blob lacks: it may come later").isNull();
    assertThat(get(r1, 6, 7, null)).as("every key").isNull();
    assertThat(get(r1, 6, 7, "pmix.hname")).as("job data").isNull();
    assertThat(get(r1, 6, Proc.RANK_WILDCARD, "k.a")).as("WILDCARD").isNull();
    assertThat(cache.answer(r1, 6, getFrame(6, "other@1", 7, "k.a"))).as("another nspace").isNull();
    RelayedSocket seven = peer(7);
    assertThat(get(seven, 6, 7, "k.a")).as("the target itself sees more").isNull();
    assertThat(cache.answered()).isZero();
  }

  @Test
  void aFenceOfTheNamespaceForgetsWhatWasKept() {
    get(r0, 5, 7, "k.a");
    controllerAnswers(r0, 5, "k.a");
    assertThat(get(r1, 6, 7, "k.a")).isNotNull();
    cache.fenceEntered(r1, 11, true);
    assertThat(get(r1, 12, 7, "k.a")).as("forgotten at the entry").isNull();
    controllerAnswers(r1, 12, "k.a");
    assertThat(get(r0, 13, 7, "k.a")).as("kept again during the fence").isNotNull();
    byte[] fenceAnswer = Frames.of(11, new Packer(F).packStatus(PmixStatus.SUCCESS).toByteArray());
    cache.reply(r1, fenceAnswer);
    assertThat(get(r0, 14, 7, "k.a")).as("forgotten when the fence's answer passed").isNull();
    assertThat(cache.bytes()).isZero();
  }

  @Test
  void anErrorAnswerKeepsNothingAndAClosedPeersGetsAreDropped() {
    get(r0, 5, 7, "k.a");
    cache.reply(r0, Frames.of(5, new Packer(F).packStatus(PmixStatus.ERR_NOT_FOUND).toByteArray()));
    assertThat(get(r1, 6, 7, "k.a")).isNull();
    cache.closed(r1);
    controllerAnswers(r1, 6, "k.a");
    assertThat(get(r0, 8, 7, "k.a")).as("the answer came for a peer that had gone").isNull();
  }
}
