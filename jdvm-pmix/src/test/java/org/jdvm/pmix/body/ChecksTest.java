package org.jdvm.pmix.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;

/**
 * A reader's checks run field by field, as the body is read: a field is judged before anything
 * after it is read, so a request refused early is refused for that field whatever follows it.
 */
class ChecksTest {
  private static final WireFormat F = WireFormat.V41;

  /** A refusal. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String what) {
      super(what, null, false, false);
    }
  }

  /** Records every check; refuses the one named. */
  private static final class Recording implements Checks<Refused> {
    final List<String> seen = new ArrayList<>();
    private final String refuse;

    Recording(String refuse) {
      this.refuse = refuse;
    }

    private void saw(String what) throws Refused {
      seen.add(what);
      if (what.equals(refuse)) {
        throw new Refused(what);
      }
    }

    @Override
    public void procs(int count) throws Refused {
      saw("procs " + count);
    }

    @Override
    public void infos(int count) throws Refused {
      saw("infos " + count);
    }

    @Override
    public void keys(long count) throws Refused {
      saw("keys " + count);
    }

    @Override
    public void key(String key) throws Refused {
      saw("key " + key);
    }

    @Override
    public void entry(KVal kval) throws Refused {
      saw("entry " + kval.key());
    }

    @Override
    public void scope(int scope) throws Refused {
      saw("scope " + scope);
    }
  }

  /** The body after its command, with {@code cut} bytes of garbage in place of its last ones. */
  private static Unpacker after(byte[] body, int cut) {
    byte[] spoiled = Arrays.copyOf(body, body.length);
    Arrays.fill(spoiled, Math.max(2, body.length - cut), body.length, (byte) 0xFF);
    Unpacker in = new Unpacker(F, spoiled);
    in.unpackCommand();
    return in;
  }

  @Test
  void aFencesListsAreCheckedInOrder() throws Refused {
    byte[] body =
        new FenceRequest(
                List.of(new Proc("ns", 0), new Proc("ns", 1)),
                List.of(Info.of("pmix.collect", Value.bool(true))))
            .write(F);
    Recording all = new Recording("");
    FenceRequest.read(after(body, 0), all);
    assertThat(all.seen).containsExactly("procs 2", "infos 1");

    Recording early = new Recording("procs 2");
    Throwable t = catchThrowable(() -> FenceRequest.read(after(body, 6), early));
    assertThat(t).as("refused for the procs, before the spoiled infos").isInstanceOf(Refused.class);
    assertThat(catchThrowable(() -> FenceRequest.read(after(body, 6), Checks.NONE)))
        .isInstanceOf(WireException.class);
  }

  @Test
  void aKeyCountIsJudgedBeforeAnyKeyIsRead() {
    byte[] announced =
        new Packer(F)
            .packCommand(Commands.LOOKUPNB_CMD)
            .packInteger(org.jdvm.pmix.DataType.UINT32, 0)
            .packSize(1L << 40)
            .toByteArray();
    Recording r = new Recording("keys " + (1L << 40));
    assertThat(catchThrowable(() -> KeysRequest.read(after(announced, 0), 7, r)))
        .isInstanceOf(Refused.class);

    byte[] body =
        new KeysRequest(Commands.UNPUBLISHNB_CMD, 0, List.of("a", "", "c"), List.of()).write(F);
    Recording keys = new Recording("key ");
    assertThat(catchThrowable(() -> KeysRequest.read(after(body, 3), 8, keys)))
        .isInstanceOf(Refused.class);
    assertThat(keys.seen).containsExactly("keys 3", "key a", "key ");
  }

  @Test
  void aCommitsEntriesAreJudgedAsReadAndItsScopeAfterThem() throws Refused {
    byte[] body =
        CommitRequest.of(
                List.of(new KVal("a", Value.bool(true)), new KVal("b", Value.bool(true))),
                List.of(new KVal("c", Value.bool(true))))
            .write(F);
    Recording all = new Recording("");
    CommitRequest.read(after(body, 0), all);
    assertThat(all.seen).containsExactly("entry a", "entry b", "scope 1", "entry c", "scope 2");

    Recording first = new Recording("entry a");
    assertThat(catchThrowable(() -> CommitRequest.read(after(body, 4), first)))
        .as("the first section's entry, before the spoiled second section")
        .isInstanceOf(Refused.class);
  }

  @Test
  void aSizeThatDisagreesWithItsUnitIsAnUnpackFailure() {
    byte[] body =
        new Packer(F)
            .packCommand(Commands.FENCENB_CMD)
            .packSize(3)
            .pack(org.jdvm.pmix.DataType.PROC, new Proc("ns", 0))
            .packInfos(List.of())
            .toByteArray();
    Throwable t = catchThrowable(() -> FenceRequest.read(after(body, 0), Checks.NONE));
    assertThat(t).isInstanceOf(WireException.class);
    assertThat(((WireException) t).status()).isEqualTo(PmixStatus.ERR_UNPACK_FAILURE);
  }
}
