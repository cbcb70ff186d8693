package org.jdvm.pmix.body;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;

/**
 * The wire-up requests against the byte layouts of docs/wireup.md §c (bfrops v41, non-described
 * buffers, as libpmix 4.2.2 sends them), byte for byte. (The Java client's {@code
 * WireUpMessagesTest} also runs every request it sends through {@code tools/wirecap.py}'s decoder,
 * which was written from §c alone and checked on real libpmix traffic.)
 */
class WireupLayoutTest {
  private static final WireFormat V41 = WireFormat.V41;
  private static final HexFormat HEX = HexFormat.of();

  /** A unit of one STRING: count 1, zigzag length with the NUL, bytes, NUL. */
  private static String str(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return "02" + zigzag(b.length + 1) + HEX.formatHex(b) + "00";
  }

  /** A STRING inside a unit (no count). */
  private static String bare(String s) {
    return str(s).substring(2);
  }

  private static String zigzag(long n) {
    return varint(n << 1);
  }

  private static String varint(long v) {
    StringBuilder sb = new StringBuilder();
    while ((v & ~0x7FL) != 0) {
      sb.append(String.format("%02x", (v & 0x7F) | 0x80));
      v >>>= 7;
    }
    return sb.append(String.format("%02x", v)).toString();
  }

  /** An INFO inside a unit: key, flags 0, type tag, value. */
  private static String info(String key, String typeAndValue) {
    return bare(key) + "00" + typeAndValue;
  }

  private static final String WILDCARD = varint(0xFFFFFFFEL);

  @Test
  void aCommitWithNothingPutIsTheCommandAlone() {
    assertThat(HEX.formatHex(CommitRequest.of(null, null).write(V41))).isEqualTo("0202");
  }

  @Test
  void aCommitCarriesALocalAndARemoteBufferOfKvals() {
    byte[] body =
        CommitRequest.of(
                List.of(new KVal("a", Value.string("x"))), List.of(new KVal("b", Value.uint32(7))))
            .write(V41);
    // §c.1: 02 02 | 02 01 | 02 01 <n> <KVAL units> | 02 02 | 02 01 <n> <KVAL units>
    String localKval = "02" + bare("a") + "03" + bare("x");
    String remoteKval = "02" + bare("b") + "0e" + "07";
    assertThat(HEX.formatHex(body))
        .isEqualTo(
            "0202"
                + "0201"
                + "0201"
                + varint(localKval.length() / 2)
                + localKval
                + "0202"
                + "0201"
                + varint(remoteKval.length() / 2)
                + remoteKval);
  }

  @Test
  void aFenceListsItsProcsAndItsDirectives() {
    byte[] body =
        new FenceRequest(
                List.of(Proc.wildcard("ab")),
                List.of(Info.of(PmixKeys.COLLECT_DATA, Value.bool(true))))
            .write(V41);
    assertThat(HEX.formatHex(body))
        .isEqualTo(
            "0203"
                + "0201"
                + "02"
                + bare("ab")
                + WILDCARD
                + "0201"
                + "02"
                + info("pmix.collect", "0101"));
    assertThat(HEX.formatHex(new FenceRequest(List.of(new Proc("ab", 3)), List.of()).write(V41)))
        .as("no INFO unit for no directives")
        .isEqualTo("0203" + "0201" + "02" + bare("ab") + "03" + "0200");
  }

  @Test
  void aGetNamesTheProcItsDirectivesAndTheKey() {
    byte[] body =
        new GetRequest(
                new Proc("ab", 1), "k", List.of(Info.of(PmixKeys.IMMEDIATE, Value.bool(true))))
            .write(V41);
    assertThat(HEX.formatHex(body))
        .isEqualTo(
            "0204"
                + str("ab")
                + "0201"
                + "0201"
                + "02"
                + info("pmix.immediate", "0101")
                + str("k"));
    assertThat(HEX.formatHex(new GetRequest(Proc.wildcard("ab"), null, List.of()).write(V41)))
        .as("a NULL key is left out")
        .isEqualTo("0204" + str("ab") + "02" + WILDCARD + "0200");
  }

  @Test
  void publishLookupAndUnpublishCarryTheUidAndOneUnitPerKey() {
    List<Info> data =
        List.of(
            Info.of("port:accept", Value.string("uri")),
            Info.of(PmixKeys.RANGE, Value.of(DataType.DATA_RANGE, DataRange.SESSION.code())),
            Info.of(PmixKeys.PERSISTENCE, Value.of(DataType.PERSIST, 1)));
    assertThat(HEX.formatHex(new PublishRequest(1000, data).write(V41)))
        .isEqualTo(
            "0206"
                + "02"
                + varint(1000)
                + "0203"
                + "06"
                + info("port:accept", "03" + bare("uri"))
                + info("pmix.range", "2104")
                + info("pmix.persist", "1e01"));
    byte[] lookup =
        new KeysRequest(
                Commands.LOOKUPNB_CMD,
                1000,
                List.of("port:connect", "q"),
                List.of(Info.of(PmixKeys.WAIT, Value.bool(true))))
            .write(V41);
    assertThat(HEX.formatHex(lookup))
        .isEqualTo(
            "0207"
                + "02"
                + varint(1000)
                + "0202"
                + str("port:connect")
                + str("q")
                + "0201"
                + "02"
                + info("pmix.wait", "0101"));
    assertThat(
            HEX.formatHex(
                new KeysRequest(Commands.UNPUBLISHNB_CMD, 0, List.of(), List.of()).write(V41)))
        .isEqualTo("0208" + "0200" + "0200" + "0200");
  }

  @Test
  void connectLogAndStdinPushAreLaidOutAsTheContractSays() {
    assertThat(
            HEX.formatHex(
                new ConnectNbRequest(
                        Commands.CONNECTNB_CMD,
                        List.of(new Proc("p", 0), new Proc("c", 1)),
                        List.of())
                    .write(V41)))
        .as("one PROC unit of two values: its count is 2, zigzag 04")
        .isEqualTo("020a" + "0202" + "04" + bare("p") + "00" + bare("c") + "01" + "0200");
    assertThat(
            HEX.formatHex(
                new LogRequest(
                        0, List.of(Info.of("pmix.log.stderr", Value.string("hi\n"))), List.of())
                    .write(V41)))
        .isEqualTo(
            "0210"
                + "0200"
                + "0201"
                + "02"
                + info("pmix.log.stderr", "03" + bare("hi\n"))
                + "0200");
    assertThat(
            HEX.formatHex(
                new IofPushRequest(List.of(new Proc("j", 0)), List.of(), new byte[0]).write(V41)))
        .as("the end of file is an empty BYTE_OBJECT")
        .isEqualTo("0217" + "0201" + "02" + bare("j") + "00" + "0200" + "0200");
    assertThat(
            HEX.formatHex(
                new IofPushRequest(List.of(new Proc("j", 0)), List.of(), "hi".getBytes())
                    .write(V41)))
        .endsWith("0200" + "02" + "02" + "6869");
  }
}
