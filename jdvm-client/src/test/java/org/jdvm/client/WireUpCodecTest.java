package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;

/**
 * The Java client's wire-up messages against the byte layouts of docs/wireup.md §c (bfrops v41,
 * non-described buffers, as libpmix 4.2.2 sends them): byte for byte where the bytes are short
 * enough to write down, and every message through {@code tools/wirecap.py}'s decoder, which was
 * written from §c alone and checked on real libpmix traffic.
 */
class WireUpCodecTest {
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
    assertThat(HEX.formatHex(WireUpCodec.commit(V41, null, null))).isEqualTo("0202");
  }

  @Test
  void aCommitCarriesALocalAndARemoteBufferOfKvals() {
    byte[] body =
        WireUpCodec.commit(
            V41,
            List.of(new KVal("a", Value.string("x"))),
            List.of(new KVal("b", Value.uint32(7))));
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
  void putsGoToTheirScopesGlobalToBothAndPmixKeysNowhere() throws Exception {
    WireUp w = new WireUp(null);
    w.put(WireUp.Scope.LOCAL, "l", Value.string("1"));
    w.put(WireUp.Scope.REMOTE, "r", Value.string("2"));
    w.put(WireUp.Scope.GLOBAL, "g", Value.string("3"));
    w.put(WireUp.Scope.GLOBAL, "pmix.hname", Value.string("dropped"));
    assertThatThrownBy(() -> w.put(WireUp.Scope.LOCAL, "", Value.string("x")))
        .isInstanceOf(PmixException.class);
    List<List<KVal>> sections = w.takePending();
    assertThat(sections.get(0)).extracting(KVal::key).containsExactly("l", "g");
    assertThat(sections.get(1)).extracting(KVal::key).containsExactly("r", "g");
    assertThat(w.takePending()).as("nothing put since").containsExactly(null, null);
    w.put(WireUp.Scope.LOCAL, "l2", Value.string("4"));
    assertThat(w.takePending().get(0))
        .as("every key of the scope is sent again")
        .extracting(KVal::key)
        .containsExactly("l", "g", "l2");
  }

  @Test
  void aFenceListsItsProcsAndItsDirectives() {
    byte[] body =
        WireUpCodec.fence(
            V41,
            List.of(Proc.wildcard("ab")),
            List.of(Info.of(PmixKeys.COLLECT_DATA, Value.bool(true))));
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
    assertThat(HEX.formatHex(WireUpCodec.fence(V41, List.of(new Proc("ab", 3)), List.of())))
        .as("no INFO unit for no directives")
        .isEqualTo("0203" + "0201" + "02" + bare("ab") + "03" + "0200");
  }

  @Test
  void aGetNamesTheProcItsDirectivesAndTheKey() {
    byte[] body =
        WireUpCodec.get(
            V41, new Proc("ab", 1), "k", List.of(Info.of(PmixKeys.IMMEDIATE, Value.bool(true))));
    assertThat(HEX.formatHex(body))
        .isEqualTo(
            "0204"
                + str("ab")
                + "0201"
                + "0201"
                + "02"
                + info("pmix.immediate", "0101")
                + str("k"));
    assertThat(HEX.formatHex(WireUpCodec.get(V41, Proc.wildcard("ab"), null, List.of())))
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
    assertThat(HEX.formatHex(WireUpCodec.publish(V41, 1000, data)))
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
        WireUpCodec.keys(
            V41,
            Commands.LOOKUPNB_CMD,
            1000,
            List.of("port:connect", "q"),
            List.of(Info.of(PmixKeys.WAIT, Value.bool(true))));
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
            HEX.formatHex(WireUpCodec.keys(V41, Commands.UNPUBLISHNB_CMD, 0, List.of(), List.of())))
        .isEqualTo("0208" + "0200" + "0200" + "0200");
  }

  @Test
  void connectLogAndStdinPushAreLaidOutAsTheContractSays() {
    assertThat(
            HEX.formatHex(
                WireUpCodec.connect(
                    V41,
                    Commands.CONNECTNB_CMD,
                    List.of(new Proc("p", 0), new Proc("c", 1)),
                    List.of())))
        .as("one PROC unit of two values: its count is 2, zigzag 04")
        .isEqualTo("020a" + "0202" + "04" + bare("p") + "00" + bare("c") + "01" + "0200");
    assertThat(
            HEX.formatHex(
                WireUpCodec.log(
                    V41, 0, List.of(Info.of("pmix.log.stderr", Value.string("hi\n"))), List.of())))
        .isEqualTo(
            "0210"
                + "0200"
                + "0201"
                + "02"
                + info("pmix.log.stderr", "03" + bare("hi\n"))
                + "0200");
    assertThat(
            HEX.formatHex(WireUpCodec.push(V41, List.of(new Proc("j", 0)), List.of(), new byte[0])))
        .as("the end of file is an empty BYTE_OBJECT")
        .isEqualTo("0217" + "0201" + "02" + bare("j") + "00" + "0200" + "0200");
    assertThat(
            HEX.formatHex(
                WireUpCodec.push(V41, List.of(new Proc("j", 0)), List.of(), "hi".getBytes())))
        .endsWith("0200" + "02" + "02" + "6869");
  }

  @Test
  void aGetReplysBlobsAreReadAndAnErrorStatusAloneIsThrown() throws Exception {
    byte[] blob =
        new Packer(V41)
            .packProc(new Proc("ab", 1))
            .pack(DataType.KVAL, new KVal("k", Value.string("v")))
            .pack(DataType.KVAL, new KVal("n", Value.uint32(5)))
            .toByteArray();
    byte[] reply =
        new Packer(V41)
            .packStatus(PmixStatus.SUCCESS)
            .pack(DataType.BYTE_OBJECT, ByteObject.of(blob))
            .toByteArray();
    Map<Proc, List<KVal>> got = WireUpCodec.blobs(new Unpacker(V41, reply), false);
    assertThat(got).containsOnlyKeys(new Proc("ab", 1));
    assertThat(WireUpCodec.find(got.get(new Proc("ab", 1)), "n")).isEqualTo(Value.uint32(5));

    byte[] refused = new Packer(V41).packStatus(PmixStatus.ERR_TIMEOUT).toByteArray();
    assertThat(PmixStatus.ERR_TIMEOUT).isEqualTo(-24);
    assertThat(HEX.formatHex(refused)).as("a lone STATUS, zigzag -24").isEqualTo("022f");
    assertThatThrownBy(() -> WireUpCodec.blobs(new Unpacker(V41, refused), false))
        .isInstanceOf(PmixException.class)
        .extracting(e -> ((PmixException) e).status())
        .isEqualTo(PmixStatus.ERR_TIMEOUT);
  }

  @Test
  void aConnectReplyCarriesEachOtherNamespacesJobData() throws Exception {
    byte[] blob =
        new Packer(V41)
            .packString("child")
            .pack(DataType.KVAL, new KVal(PmixKeys.JOB_SIZE, Value.uint32(2)))
            .toByteArray();
    byte[] reply =
        new Packer(V41).packStatus(0).pack(DataType.BYTE_OBJECT, ByteObject.of(blob)).toByteArray();
    Map<Proc, List<KVal>> got = WireUpCodec.blobs(new Unpacker(V41, reply), true);
    assertThat(got).containsOnlyKeys(Proc.wildcard("child"));
    assertThat(WireUpCodec.find(got.get(Proc.wildcard("child")), PmixKeys.JOB_SIZE))
        .isEqualTo(Value.uint32(2));
  }

  @Test
  void aLookupReplyIsReadOnlyOnSuccess() throws Exception {
    PData d = new PData(new Proc("pub", 0), "port:accept", Value.string("uri"));
    byte[] reply = new Packer(V41).packStatus(0).packSize(1).pack(DataType.PDATA, d).toByteArray();
    assertThat(WireUpCodec.lookupReply(new Unpacker(V41, reply))).containsExactly(d);
    byte[] none = new Packer(V41).packStatus(PmixStatus.ERR_NOT_FOUND).toByteArray();
    assertThatThrownBy(() -> WireUpCodec.lookupReply(new Unpacker(V41, none)))
        .isInstanceOf(PmixException.class);
  }

  /**
   * Every request the client makes, through the decoder of {@code tools/wirecap.py}: it consumes
   * each exactly and reads back what was sent.
   */
  @Test
  void wirecapsDecoderReadsEveryRequestExactly() throws Exception {
    List<byte[]> bodies = new ArrayList<>();
    bodies.add(WireUpCodec.commit(V41, List.of(new KVal("btl.tcp.4.1", Value.string("x"))), null));
    bodies.add(
        WireUpCodec.fence(
            V41,
            List.of(Proc.wildcard("ns")),
            List.of(
                Info.of(PmixKeys.COLLECT_DATA, Value.bool(true)),
                Info.of(PmixKeys.TIMEOUT, Value.integer(5)))));
    bodies.add(
        WireUpCodec.get(
            V41, new Proc("ns", 1), "k", List.of(Info.of(PmixKeys.TIMEOUT, Value.integer(1)))));
    bodies.add(
        WireUpCodec.publish(
            V41,
            7,
            List.of(
                Info.of("k", Value.string("v")),
                Info.of(PmixKeys.RANGE, Value.of(DataType.DATA_RANGE, 4)),
                Info.of(PmixKeys.PERSISTENCE, Value.of(DataType.PERSIST, 1)))));
    bodies.add(
        WireUpCodec.keys(
            V41,
            Commands.LOOKUPNB_CMD,
            7,
            List.of("a", "b"),
            List.of(Info.of(PmixKeys.WAIT, Value.bool(true)))));
    bodies.add(WireUpCodec.keys(V41, Commands.UNPUBLISHNB_CMD, 7, List.of("a"), List.of()));
    bodies.add(
        WireUpCodec.connect(
            V41, Commands.CONNECTNB_CMD, List.of(new Proc("p", 0), new Proc("c", 0)), List.of()));
    bodies.add(
        WireUpCodec.connect(V41, Commands.DISCONNECTNB_CMD, List.of(new Proc("p", 0)), List.of()));
    bodies.add(
        WireUpCodec.log(V41, 0, List.of(Info.of("pmix.log.stderr", Value.string("x"))), List.of()));
    bodies.add(WireUpCodec.push(V41, List.of(new Proc("ns", 0)), List.of(), "data".getBytes()));
    List<String> decoded = wirecap(bodies);
    assertThat(decoded).hasSize(bodies.size()).allMatch(l -> l.endsWith(" OK"), "consumed exactly");
    assertThat(decoded.get(0)).contains("'LOCAL'", "'btl.tcp.4.1'");
    assertThat(decoded.get(1))
        .contains("('ns', 4294967294)", "('pmix.collect', True)", "('pmix.timeout', 5)");
    assertThat(decoded.get(2)).contains("('ns', 1)", "'k'");
    assertThat(decoded.get(3)).contains("uid=7", "('pmix.range', 4)", "('pmix.persist', 1)");
    assertThat(decoded.get(4)).contains("['a', 'b']", "('pmix.wait', True)");
    assertThat(decoded.get(6)).contains("[('p', 0), ('c', 0)]");
    assertThat(decoded.get(8)).contains("('pmix.log.stderr', 'x')");
    assertThat(decoded.get(9)).contains("bytes[4]");
  }

  /** Decodes each body with wirecap.py's request decoder; one line per body. */
  private static List<String> wirecap(List<byte[]> bodies) throws Exception {
    Path tools = Path.of("src/test/resources/wireup/tools").toAbsolutePath();
    String driver =
        "import sys\n"
            + "sys.path.insert(0, sys.argv[1])\n"
            + "import wirecap\n"
            + "for line in sys.stdin:\n"
            + "    b = wirecap.Buf(bytes.fromhex(line.strip()))\n"
            + "    cmd = b.one(wirecap.Buf.byte)\n"
            + "    out = wirecap.request(cmd, b)\n"
            + "    print(wirecap.CMDS.get(cmd), out, 'OK' if b.left() == 0 else 'LEFT %d' % b.left())\n";
    Process p;
    try {
      p = new ProcessBuilder("python3", "-c", driver, tools.toString()).start();
    } catch (IOException e) {
      assumeTrue(false, "python3 is not installed");
      return List.of();
    }
    try {
      try (var in = p.getOutputStream()) {
        for (byte[] b : bodies) {
          in.write((HEX.formatHex(b) + "\n").getBytes(StandardCharsets.US_ASCII));
        }
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(err).isZero();
      return out.lines().toList();
    } finally {
      p.destroyForcibly();
    }
  }
}
