package org.jdvm.agent.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * The identity a node agent vouches for (docs/protocol.md "Node agents"): every identity survives
 * its encoding, and nothing but exactly one well-formed identity decodes. Seeded: a failure prints
 * the seed that reproduces it.
 */
class PeerIdentityTest {
  private static final long SEED = 20261124L;

  private static PeerIdentity random(Random r) {
    PeerIdentity.Kind kind = r.nextBoolean() ? PeerIdentity.Kind.CLIENT : PeerIdentity.Kind.TOOL;
    Proc proc = null;
    if (kind == PeerIdentity.Kind.CLIENT || r.nextBoolean()) {
      StringBuilder ns = new StringBuilder("jdvm-" + r.nextInt(100_000) + "@");
      int extra = r.nextInt(100);
      for (int i = 0; i < extra; i++) {
        ns.append(r.nextInt(10) == 0 ? 'é' : (char) ('a' + r.nextInt(26)));
      }
      proc = new Proc(ns.toString(), r.nextInt(4) == 0 ? Proc.RANK_WILDCARD : r.nextInt(1 << 20));
    }
    WireFormat format =
        new WireFormat(WireComponent.values()[r.nextInt(2)], BufferType.values()[r.nextInt(2)]);
    long uid = r.nextInt(3) == 0 ? -1 : r.nextLong(0xFFFF_FFFFL);
    long gid = r.nextInt(3) == 0 ? -1 : r.nextLong(0xFFFF_FFFFL);
    long pid = r.nextInt(3) == 0 ? 0 : r.nextLong(Long.MAX_VALUE);
    return new PeerIdentity(kind, proc, uid, gid, pid, format);
  }

  @Test
  void everyIdentityDecodesToItselfAndNoTruncationOrExtensionOfItDecodes() {
    Random r = new Random(SEED);
    for (int i = 0; i < 500; i++) {
      PeerIdentity id = random(r);
      byte[] bytes = id.encode();
      assertThat(PeerIdentity.decode(bytes)).as("seed " + SEED + " #" + i).isEqualTo(id);
      for (int n = 0; n < bytes.length; n++) {
        byte[] cut = Arrays.copyOf(bytes, n);
        assertThatThrownBy(() -> PeerIdentity.decode(cut))
            .as("seed " + SEED + " #" + i + " cut at " + n)
            .isInstanceOf(IllegalArgumentException.class);
      }
      byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
      assertThatThrownBy(() -> PeerIdentity.decode(longer))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("after the identity");
    }
  }

  @Test
  void anUnknownVersionKindOrWireFormatIsRefused() {
    byte[] good =
        new PeerIdentity(
                PeerIdentity.Kind.CLIENT, new Proc("ns", 1), 1000, 1000, 42, WireFormat.V41)
            .encode();
    for (int[] edit : new int[][] {{0, 2}, {1, 3}, {2, 3}, {good.length - 1, 9}}) {
      byte[] bad = good.clone();
      bad[edit[0]] = (byte) edit[1];
      assertThatThrownBy(() -> PeerIdentity.decode(bad))
          .as("byte " + edit[0] + " = " + edit[1])
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aSimplePmiPeerRoundTripsAndNeedsItsProcess() {
    PeerIdentity pmi =
        new PeerIdentity(PeerIdentity.Kind.PMI, new Proc("ns", 3), 1000, -1, 42, WireFormat.V41);
    assertThat(PeerIdentity.decode(pmi.encode())).isEqualTo(pmi);
    assertThatThrownBy(() -> new PeerIdentity(PeerIdentity.Kind.PMI, null, 0, 0, 0, WireFormat.V41))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void aClientWithoutAProcessOrANamespaceLongerThanPmixAllowsIsNoIdentity() {
    assertThatThrownBy(
            () -> new PeerIdentity(PeerIdentity.Kind.CLIENT, null, 0, 0, 0, WireFormat.V41))
        .isInstanceOf(NullPointerException.class);
    String tooLong = "n".repeat(Proc.MAX_NSLEN + 1);
    assertThatThrownBy(
            () ->
                new PeerIdentity(
                    PeerIdentity.Kind.TOOL, new Proc(tooLong, 0), 0, 0, 0, WireFormat.V41))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
