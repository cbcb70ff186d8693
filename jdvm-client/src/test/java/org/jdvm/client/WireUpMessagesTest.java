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
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.CommitRequest;
import org.jdvm.pmix.body.ConnectNbRequest;
import org.jdvm.pmix.body.FenceRequest;
import org.jdvm.pmix.body.GetRequest;
import org.jdvm.pmix.body.IofPushRequest;
import org.jdvm.pmix.body.KeysRequest;
import org.jdvm.pmix.body.LogRequest;
import org.jdvm.pmix.body.PublishRequest;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;

/**
 * The Java client's wire-up messages (docs/wireup.md §c; bfrops v41, non-described buffers, as
 * libpmix 4.2.2 sends them): what its puts become, what it makes of the replies, and every request
 * it sends through {@code tools/wirecap.py}'s decoder, which was written from §c alone and checked
 * on real libpmix traffic. The requests' byte layouts are their codecs' test (jdvm-pmix's {@code
 * org.jdvm.pmix.body.WireupLayoutTest}).
 */
class WireUpMessagesTest {
  private static final WireFormat V41 = WireFormat.V41;
  private static final HexFormat HEX = HexFormat.of();

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
    Map<Proc, List<KVal>> got = WireUpReplies.blobs(new Unpacker(V41, reply), false);
    assertThat(got).containsOnlyKeys(new Proc("ab", 1));
    assertThat(WireUpReplies.find(got.get(new Proc("ab", 1)), "n")).isEqualTo(Value.uint32(5));

    byte[] refused = new Packer(V41).packStatus(PmixStatus.ERR_TIMEOUT).toByteArray();
    assertThat(PmixStatus.ERR_TIMEOUT).isEqualTo(-24);
    assertThat(HEX.formatHex(refused)).as("a lone STATUS, zigzag -24").isEqualTo("022f");
    assertThatThrownBy(() -> WireUpReplies.blobs(new Unpacker(V41, refused), false))
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
    Map<Proc, List<KVal>> got = WireUpReplies.blobs(new Unpacker(V41, reply), true);
    assertThat(got).containsOnlyKeys(Proc.wildcard("child"));
    assertThat(WireUpReplies.find(got.get(Proc.wildcard("child")), PmixKeys.JOB_SIZE))
        .isEqualTo(Value.uint32(2));
  }

  @Test
  void aLookupReplyIsReadOnlyOnSuccess() throws Exception {
    PData d = new PData(new Proc("pub", 0), "port:accept", Value.string("uri"));
    byte[] reply = new Packer(V41).packStatus(0).packSize(1).pack(DataType.PDATA, d).toByteArray();
    assertThat(WireUpReplies.lookupReply(new Unpacker(V41, reply))).containsExactly(d);
    byte[] none = new Packer(V41).packStatus(PmixStatus.ERR_NOT_FOUND).toByteArray();
    assertThatThrownBy(() -> WireUpReplies.lookupReply(new Unpacker(V41, none)))
        .isInstanceOf(PmixException.class);
  }

  /**
   * Every request the client makes, through the decoder of {@code tools/wirecap.py}: it consumes
   * each exactly and reads back what was sent.
   */
  @Test
  void wirecapsDecoderReadsEveryRequestExactly() throws Exception {
    List<byte[]> bodies = new ArrayList<>();
    bodies.add(
        CommitRequest.of(List.of(new KVal("btl.tcp.4.1", Value.string("x"))), null).write(V41));
    bodies.add(
        new FenceRequest(
                List.of(Proc.wildcard("ns")),
                List.of(
                    Info.of(PmixKeys.COLLECT_DATA, Value.bool(true)),
                    Info.of(PmixKeys.TIMEOUT, Value.integer(5))))
            .write(V41));
    bodies.add(
        new GetRequest(new Proc("ns", 1), "k", List.of(Info.of(PmixKeys.TIMEOUT, Value.integer(1))))
            .write(V41));
    bodies.add(
        new PublishRequest(
                7,
                List.of(
                    Info.of("k", Value.string("v")),
                    Info.of(PmixKeys.RANGE, Value.of(DataType.DATA_RANGE, 4)),
                    Info.of(PmixKeys.PERSISTENCE, Value.of(DataType.PERSIST, 1))))
            .write(V41));
    bodies.add(
        new KeysRequest(
                Commands.LOOKUPNB_CMD,
                7,
                List.of("a", "b"),
                List.of(Info.of(PmixKeys.WAIT, Value.bool(true))))
            .write(V41));
    bodies.add(new KeysRequest(Commands.UNPUBLISHNB_CMD, 7, List.of("a"), List.of()).write(V41));
    bodies.add(
        new ConnectNbRequest(
                Commands.CONNECTNB_CMD, List.of(new Proc("p", 0), new Proc("c", 0)), List.of())
            .write(V41));
    bodies.add(
        new ConnectNbRequest(Commands.DISCONNECTNB_CMD, List.of(new Proc("p", 0)), List.of())
            .write(V41));
    bodies.add(
        new LogRequest(0, List.of(Info.of("pmix.log.stderr", Value.string("x"))), List.of())
            .write(V41));
    bodies.add(
        new IofPushRequest(List.of(new Proc("ns", 0)), List.of(), "data".getBytes()).write(V41));
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
