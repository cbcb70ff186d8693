package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jdvm.pmix.WireVectors.hex;

import java.util.List;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The typed helpers the server and client write messages with, against the bodies libpmix 4.2.2
 * exchanged in the capture {@code wire/handshake_capture.json} of the test resources (pmix-wire.md
 * §9.3, §9.5).
 */
class MessageBodyTest {
  private static final WireFormat V41 = WireFormat.V41;

  /** Tag 102, tool to server: PMIx_Allocation_request(NEW, {pmix.alloc.nnodes: UINT64 2}). */
  private static final String ALLOC_REQUEST =
      "0211" + "0201" + "0201" + "0224706d69782e616c6c6f632e6e6e6f64657300000f02";

  /** Tag 102, server to tool: STATUS 0, SIZE 1, INFO {pmix.alloc.id: "42"}. */
  private static final String ALLOC_REPLY =
      "0200" + "0201" + "021c706d69782e616c6c6f632e696400000306343200";

  /** Tag 101, server to tool: the job-info reply of 4.2.2's hash gds. */
  private static final String REQ_REPLY =
      "020e746f6f6c6e7300" + "0220706d69782e6266726f70732e6d6f64000312342e322e3272633200";

  @Test
  void anAllocationRequestPacksToTheCapturedBytes() {
    byte[] body =
        new Packer(V41)
            .packCommand(Commands.ALLOC_CMD)
            .packInteger(DataType.ALLOC_DIRECTIVE, AllocDirective.NEW.code())
            .packInfos(List.of(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2))))
            .toByteArray();

    assertThat(hex(body)).isEqualTo(ALLOC_REQUEST);
  }

  @Test
  void anAllocationRequestUnpacksFromTheCapturedBytes() {
    Unpacker body = new Unpacker(V41, hex(ALLOC_REQUEST));

    assertThat(body.unpackCommand()).isEqualTo(Commands.ALLOC_CMD);
    assertThat(body.unpackInteger(DataType.ALLOC_DIRECTIVE)).isEqualTo(AllocDirective.NEW.code());
    assertThat(body.unpackInfos())
        .containsExactly(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2)));
    body.expectEnd();
  }

  @Test
  void anAllocationReplyRoundTripsThroughTheHelpers() {
    List<Info> results = List.of(Info.of(PmixKeys.ALLOC_ID, Value.string("42")));
    byte[] body = new Packer(V41).packStatus(PmixStatus.SUCCESS).packInfos(results).toByteArray();
    assertThat(hex(body)).isEqualTo(ALLOC_REPLY);

    Unpacker reply = new Unpacker(V41, body);
    assertThat(reply.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
    assertThat(reply.unpackInfos()).isEqualTo(results);
    reply.expectEnd();
  }

  @Test
  void theJobInfoReplyIsAStringThenAKval() {
    KVal bfrops = new KVal("pmix.bfrops.mod", Value.string("4.2.2rc2"));
    byte[] body = new Packer(V41).packString("toolns").pack(DataType.KVAL, bfrops).toByteArray();
    assertThat(hex(body)).isEqualTo(REQ_REPLY);

    Unpacker reply = new Unpacker(V41, body);
    assertThat(reply.unpackString()).isEqualTo("toolns");
    assertThat(reply.unpackOne(DataType.KVAL)).isEqualTo(bfrops);
  }

  @Test
  void finalizeAndItsReplyAreOneUnitEach() {
    assertThat(hex(new Packer(V41).packCommand(Commands.FINALIZE_CMD).toByteArray()))
        .isEqualTo("0205");
    assertThat(hex(new Packer(V41).packStatus(0).toByteArray())).isEqualTo("0200");
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void zeroInfosAreASizeUnitAlone(BufferType mode) {
    WireFormat format = V41.withBufferType(mode);
    byte[] body = new Packer(format).packInfos(List.of()).toByteArray();

    assertThat(hex(body)).isEqualTo(mode == BufferType.FULLY_DESCRIBED ? "09020400" : "0200");
    Unpacker unpacker = new Unpacker(format, body);
    assertThat(unpacker.unpackInfos()).isEmpty();
    unpacker.expectEnd();
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void appsQueriesProcsAndValuesRoundTripThroughTheHelpers(BufferType mode) {
    WireFormat format = V41.withBufferType(mode);
    List<App> apps =
        List.of(
            new App(
                "/bin/hostname", List.of("hostname", "-s"), List.of("A=1"), "/tmp", 4, List.of()),
            new App(
                null,
                List.of(),
                List.of(),
                null,
                1,
                List.of(Info.required("pmix.mapby", Value.string("node")))));
    List<Query> queries =
        List.of(
            new Query(List.of("pmix.qry.ns"), List.of()), new Query(List.of("a", "b"), List.of()));
    Proc proc = new Proc("job-1", Proc.RANK_WILDCARD);
    Value value = Value.rank(7);

    byte[] body =
        new Packer(format)
            .packApps(apps)
            .packQueries(queries)
            .packProc(proc)
            .packValue(value)
            .packSize(-1L)
            .toByteArray();

    Unpacker unpacker = new Unpacker(format, body);
    assertThat(unpacker.unpackApps()).isEqualTo(apps);
    assertThat(unpacker.unpackQueries()).isEqualTo(queries);
    assertThat(unpacker.unpackProc()).isEqualTo(proc);
    assertThat(unpacker.unpackValue()).isEqualTo(value);
    assertThat(Long.toUnsignedString(unpacker.unpackSize())).isEqualTo("18446744073709551615");
    unpacker.expectEnd();
  }

  @Test
  void aSizeThatAnnouncesMoreInfosThanTheUnitHoldsIsRefused() {
    // SIZE 2, then an INFO unit of one
    byte[] body = hex("0204" + "021c706d69782e616c6c6f632e696400000306343200");
    assertThatThrownBy(() -> new Unpacker(V41, body).unpackInfos())
        .isInstanceOfSatisfying(
            WireException.class,
            e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNPACK_FAILURE));
  }

  @Test
  void aFailedPackLeavesTheBodyAsItWas() {
    Packer packer = new Packer(V41).packCommand(Commands.ALLOC_CMD);
    List<Info> infos =
        List.of(
            Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2)),
            Info.of("x".repeat(Info.MAX_KEYLEN + 1), Value.bool(true)));

    assertThatThrownBy(() -> packer.packInfos(infos))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
    assertThat(hex(packer.toByteArray())).isEqualTo("0211");
  }

  @Test
  void whatCWouldNotRepresentIsABadParam() {
    Packer packer = new Packer(V41);
    assertThatThrownBy(() -> packer.packString("a\0b"))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
    assertThatThrownBy(() -> packer.packInteger(DataType.UINT8, 256))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
    assertThatThrownBy(() -> packer.pack(DataType.PROC, "not a proc"))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
    assertThat(packer.size()).isZero();
  }

  @Test
  void nonAsciiStringsTravelAsUtf8AndCountTheirNul() {
    byte[] body = new Packer(V41).packString("né").toByteArray();
    assertThat(hex(body)).isEqualTo("02086ec3a900");
    assertThat(new Unpacker(V41, body).unpackString()).isEqualTo("né");
  }

  @Test
  void aPackerCanBeResetAndReused() {
    Packer packer = new Packer(V41, 1).packCommand(5);
    assertThat(packer.reset().size()).isZero();
    assertThat(hex(packer.packStatus(-46).toByteArray())).isEqualTo("025b");
  }

  /**
   * libpmix's {@code pack_pid} writes its UINT32 tag once per call, then every pid: the interop
   * test caught jdvm tagging each pid (pmix-wire.md §2.3 reads as if it were per pid).
   */
  @Test
  void aPackCallOfSeveralPidsWritesTheTagOnceAsLibpmixDoes() {
    byte[] unit = new Packer(V41).pack(DataType.PID, 12345L, 7L).toByteArray();
    assertThat(hex(unit)).isEqualTo("04" + "0e" + "b960" + "07");
    assertThat(new Unpacker(V41, unit).unpack(DataType.PID)).containsExactly(12345L, 7L);

    Value pids = Value.array(org.jdvm.pmix.DataArray.of(DataType.PID, List.of(1L, 2L, 3L)));
    byte[] value = new Packer(V41).packValue(pids).toByteArray();
    assertThat(hex(value)).isEqualTo("02" + "27" + "05" + "03" + "0e" + "010203");
    assertThat(new Unpacker(V41, value).unpackValue()).isEqualTo(pids);

    assertThat(hex(new Packer(V41).pack(DataType.PID, List.of()).toByteArray())).isEqualTo("000e");
  }

  /**
   * A commit of one LOCAL key, as libpmix 4.2.2's PMIx_Commit lays it out (docs/wireup.md §c.1):
   * CMD 2, SCOPE 1, then a BUFFER unit: buffer type 1 (non-described), byte count, KVAL units.
   */
  @Test
  void aCommitBufferPacksAsTheWireUpContractSaysAndUnpacksBack() {
    byte[] kvals =
        new Packer(V41).pack(DataType.KVAL, new KVal("k", Value.string("v"))).toByteArray();
    assertThat(hex(kvals)).isEqualTo("02" + "046b00" + "03" + "047600");
    byte[] body =
        new Packer(V41)
            .packCommand(Commands.COMMIT_CMD)
            .packInteger(DataType.SCOPE, 1)
            .packBuffer(new PackedBuffer(BufferType.NON_DESCRIBED, ByteObject.of(kvals)))
            .toByteArray();
    assertThat(hex(body)).isEqualTo("0202" + "0201" + "0201" + "08" + hex(kvals));

    Unpacker in = new Unpacker(V41, body);
    assertThat(in.unpackCommand()).isEqualTo(Commands.COMMIT_CMD);
    assertThat(in.unpackInteger(DataType.SCOPE)).isEqualTo(1);
    PackedBuffer buffer = in.unpackBuffer();
    in.expectEnd();
    assertThat(buffer.bufferType()).isEqualTo(BufferType.NON_DESCRIBED);
    Unpacker inner = new Unpacker(V41, buffer.bytes().toByteArray());
    assertThat(inner.unpackOne(DataType.KVAL)).isEqualTo(new KVal("k", Value.string("v")));
    inner.expectEnd();
  }

  @Test
  void aBufferOfAnUnknownBufferTypeIsRefused() {
    byte[] body = hex("02" + "07" + "00");
    assertThatThrownBy(() -> new Unpacker(V41, body).unpackBuffer())
        .isInstanceOf(WireException.class)
        .hasMessageContaining("unknown buffer type");
  }
}
