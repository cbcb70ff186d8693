package org.jdvm.agent.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.FrameHeader;
import org.junit.jupiter.api.Test;

/**
 * Gets of this node's committed data answered at the relay (docs/protocol.md "Node agents"): what
 * the controller accepted, with its scope rules, and nothing the controller must decide.
 */
class LocalModexTest {
  private static final String NS = "jdvm-3@2";
  private static final WireFormat F = WireFormat.V41;
  private static final List<Integer> HERE = List.of(0, 1);

  private final LocalModex modex = new LocalModex();
  private final RelayedSocket r0 = peer(0);
  private final RelayedSocket r1 = peer(1);

  private static RelayedSocket peer(int rank) {
    return new RelayedSocket(
        rank,
        null,
        new PeerIdentity(PeerIdentity.Kind.CLIENT, new Proc(NS, rank), 1, -1, 0, F),
        null);
  }

  private static byte[] commit(int scope, String key, String value) {
    byte[] units =
        new Packer(F).pack(DataType.KVAL, new KVal(key, Value.string(value))).toByteArray();
    return Frames.of(
        3,
        new Packer(F)
            .packCommand(Commands.COMMIT_CMD)
            .packInteger(DataType.SCOPE, scope)
            .packBuffer(new PackedBuffer(BufferType.NON_DESCRIBED, ByteObject.of(units)))
            .toByteArray());
  }

  private void committed(RelayedSocket p, int scope, String key, String value, int status) {
    modex.commitSent(p, 3, commit(scope, key, value));
    modex.reply(p, Frames.of(3, new Packer(F).packStatus(status).toByteArray()));
  }

  private byte[] get(RelayedSocket requester, int rank, String key) {
    Packer body =
        new Packer(F)
            .packCommand(Commands.GETNB_CMD)
            .packString(NS)
            .packInteger(DataType.PROC_RANK, rank)
            .packInfos(List.<Info>of());
    if (key != null) {
      body.packString(key);
    }
    return modex.answer(requester, 8, Frames.of(8, body.toByteArray()), HERE);
  }

  /** The status of an answer and the keys of its blob. */
  private static List<String> keys(byte[] answer) {
    assertThat(FrameHeader.decode(answer, 0).tag()).isEqualTo(8);
    Unpacker in = new Unpacker(F, answer, FrameHeader.BYTES, answer.length - FrameHeader.BYTES);
    List<String> out = new ArrayList<>(List.of(PmixStatus.name(in.unpackStatus())));
    if (in.hasRemaining()) {
      ByteObject blob = (ByteObject) in.unpack(DataType.BYTE_OBJECT).getFirst();
      Unpacker b = new Unpacker(F, blob.toByteArray());
      out.add(String.valueOf(b.unpack(DataType.PROC).getFirst()));
      while (b.hasRemaining()) {
        for (Object o : b.unpack(DataType.KVAL)) {
          out.add(((KVal) o).key());
        }
      }
    }
    return out;
  }

  @Test
  void aSameNodePeerSeesTheLocalBufferAndTheRankItselfSeesBoth() {
    committed(r1, 1, "k.local", "a", PmixStatus.SUCCESS);
    committed(r1, 2, "k.remote", "b", PmixStatus.SUCCESS);
    committed(r1, 3, "k.global", "c", PmixStatus.SUCCESS);
    String name = new Proc(NS, 1).toString();
    assertThat(keys(get(r0, 1, "k.local")))
        .containsExactly("PMIX_SUCCESS", name, "k.local", "k.global");
    assertThat(keys(get(r0, 1, null))).containsExactly("PMIX_SUCCESS", name, "k.local", "k.global");
    assertThat(keys(get(r0, 1, "k.remote")))
        .as("only in REMOTE")
        .containsExactly("PMIX_ERR_NOT_FOUND");
    assertThat(keys(get(r1, 1, "k.remote")))
        .containsExactly("PMIX_SUCCESS", name, "k.local", "k.global", "k.remote");
    assertThat(modex.answered()).isEqualTo(4);
  }

  @Test
  void whatTheControllerMustDecideGoesToIt() {
    committed(r1, 1, "k.local", "a", PmixStatus.SUCCESS);
    assertThat(get(r0, 1, "k.later")).as("not committed yet: the controller waits").isNull();
    assertThat(get(r0, 1, "pmix.hname")).as("job data").isNull();
    assertThat(get(r0, 2, "k.local")).as("a rank of another node").isNull();
    assertThat(get(r0, 0, null)).as("a rank that committed nothing").isNull();
    assertThat(modex.answer(r0, 8, Frames.of(8, new byte[] {1}), null)).isNull();
  }

  @Test
  void aCommitTheControllerRefusedIsNotKept() {
    committed(r1, 1, "k.big", "a", PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(get(r0, 1, "k.big")).isNull();
    modex.forget(NS);
    committed(r1, 1, "k.local", "a", PmixStatus.SUCCESS);
    modex.forget(NS);
    assertThat(get(r0, 1, "k.local")).as("forgotten with its job").isNull();
  }
}
