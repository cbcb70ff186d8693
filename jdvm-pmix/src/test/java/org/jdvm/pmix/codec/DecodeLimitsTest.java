package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jdvm.pmix.WireVectors.hex;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Deflater;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Pointer;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * The bounds of decoding untrusted bytes, one by one: counts and lengths against the bytes left,
 * varints against their type, pointers, nesting, compressed strings, and the tags of
 * fully-described units. Each failure carries the status, the offset and the message scope.
 */
class DecodeLimitsTest {
  private static final WireFormat V41 = WireFormat.V41;
  private static final WireFormat V41_DESCRIBED =
      WireFormat.V41.withBufferType(BufferType.FULLY_DESCRIBED);

  private static void assertRefused(ThrowingCallable decode, int status, int offset) {
    assertThatThrownBy(decode)
        .isInstanceOfSatisfying(
            WireException.class,
            e -> {
              assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
              assertThat(e.offset()).as(e.getMessage()).isEqualTo(offset);
              assertThat(e.poisonsConnection()).isFalse();
            });
  }

  private static List<Object> unpack(String hex, DataType type) {
    return new Unpacker(V41, hex(hex)).unpack(type);
  }

  @Test
  void aStringLongerThanTheBytesLeftIsRefusedAtItsLength() {
    // count 1, length 300 (zigzag 600 = d8 04), then only "ab"
    assertRefused(
        () -> unpack("02d8046162", DataType.STRING),
        PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER,
        3);
  }

  @Test
  void aCountLargerThanTheBytesLeftIsRefusedBeforeAnythingIsRead() {
    // count 1,000,000 of UINT32 with three bytes behind it
    assertRefused(
        () -> unpack("80897a010203", DataType.UINT32),
        PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER,
        3);
  }

  @Test
  void aNegativeCountIsRefused() {
    assertRefused(() -> unpack("0101", DataType.BYTE), PmixStatus.ERR_UNPACK_FAILURE, 1);
  }

  @Test
  void aByteObjectSizeBeyondLongMaxIsRefused() {
    assertRefused(
        () -> unpack("02ffffffffffffffffff", DataType.BYTE_OBJECT),
        PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER,
        10);
  }

  @Test
  void aVarintWiderThanItsTypeIsRefused() {
    // 2^32 as a UINT32 needs five full groups: 33 bits
    assertRefused(() -> unpack("028080808010", DataType.UINT32), PmixStatus.ERR_UNPACK_FAILURE, 1);
    // zero padded to six bytes is 35 bits of position for a 4-byte type
    assertRefused(
        () -> unpack("02808080808000", DataType.UINT32), PmixStatus.ERR_UNPACK_FAILURE, 1);
    // an INT16 of 17 significant bits
    assertRefused(() -> unpack("02808004", DataType.INT16), PmixStatus.ERR_UNPACK_FAILURE, 1);
  }

  @Test
  void aVarintCutShortIsAReadPastTheEnd() {
    assertRefused(
        () -> unpack("02ffff", DataType.UINT32), PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER, 3);
  }

  @Test
  void theNinthVarintByteCarriesEightRawBits() {
    assertThat(unpack("02ffffffffffffffffff", DataType.UINT64)).containsExactly(-1L);
    assertThat(unpack("02808080808080808080", DataType.SIZE)).containsExactly(Long.MIN_VALUE);
  }

  @Test
  void pointersCostOneByteWhateverTheirCountUpToABound() {
    assertThat(unpack("0a01", DataType.POINTER))
        .containsExactly(
            Pointer.INSTANCE,
            Pointer.INSTANCE,
            Pointer.INSTANCE,
            Pointer.INSTANCE,
            Pointer.INSTANCE);
    // 2^20 pointers in two bytes: more than any sender means
    assertRefused(() -> unpack("8080800101", DataType.POINTER), PmixStatus.ERR_UNPACK_FAILURE, 4);
    // an array of 2^40 pointers
    assertRefused(
        () -> unpack("021f808080808020" + "01", DataType.DATA_ARRAY),
        PmixStatus.ERR_UNPACK_FAILURE,
        8);
  }

  @Test
  void anUndefTypedArrayKeepsItsDeclaredSizeWithoutElements() {
    assertThat(unpack("020003", DataType.DATA_ARRAY))
        .containsExactly(new DataArray(DataType.UNDEF, 3, List.of()));
    assertRefused(
        () -> unpack("02008080808010", DataType.DATA_ARRAY), PmixStatus.ERR_UNPACK_FAILURE, 7);
  }

  @Test
  void arraysNestAtMostAHundredDeep() {
    // 99 arrays of one array each around an empty string array: 100 arrays deep
    assertThat(unpack("02" + "2701".repeat(99) + "0300", DataType.DATA_ARRAY)).hasSize(1);
    assertRefused(
        () -> unpack("02" + "2701".repeat(100) + "0300", DataType.DATA_ARRAY),
        PmixStatus.ERR_UNPACK_FAILURE,
        1 + 2 * 100);
  }

  @Test
  void packingRefusesToNestDeeperThanDecodingAccepts() {
    DataArray array = DataArray.ofStrings(List.of());
    for (int i = 0; i < 100; i++) {
      array = DataArray.of(DataType.DATA_ARRAY, List.of(array));
    }
    DataArray tooDeep = array;
    assertThatThrownBy(() -> new Packer(V41).pack(DataType.DATA_ARRAY, tooDeep))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
  }

  @Test
  void aValueMayNotCarryAnInfo() {
    assertRefused(() -> unpack("0218", DataType.VALUE), PmixStatus.ERR_BAD_PARAM, 1);
  }

  @Test
  void anUnknownTypeTagIsAnUnknownDataType() {
    assertRefused(() -> unpack("021d", DataType.VALUE), PmixStatus.ERR_UNKNOWN_DATA_TYPE, 1);
    assertRefused(() -> unpack("02bf03", DataType.VALUE), PmixStatus.ERR_UNKNOWN_DATA_TYPE, 1);
    // DEVICE (70) exists only from v51 on
    assertRefused(() -> unpack("02460000", DataType.VALUE), PmixStatus.ERR_UNKNOWN_DATA_TYPE, 1);
  }

  @Test
  void aPidWithoutItsUint32TagIsRefused() {
    assertRefused(() -> unpack("020db960", DataType.PID), PmixStatus.ERR_UNPACK_FAILURE, 1);
  }

  @Test
  void aFloatsTextMustBeANumber() {
    // "abc" as a FLOAT
    assertRefused(() -> unpack("020861626300", DataType.FLOAT), PmixStatus.ERR_UNPACK_FAILURE, 1);
    assertThat(unpack("02086e616e00", DataType.DOUBLE).get(0)).isEqualTo(Double.NaN);
  }

  @Test
  void aDescribedUnitMustStartWithTheInt32TagAndDeclareTheRequestedType() {
    Unpacker wrongFirst = new Unpacker(V41_DESCRIBED, hex("0e020e05"));
    assertRefused(() -> wrongFirst.unpack(DataType.UINT32), PmixStatus.ERR_UNPACK_FAILURE, 0);
    Unpacker wrongType = new Unpacker(V41_DESCRIBED, hex("09020e05"));
    assertRefused(() -> wrongType.unpack(DataType.UINT16), PmixStatus.ERR_PACK_MISMATCH, 2);
  }

  @Test
  void theSingleValueHelpersWantExactlyOneValue() {
    Unpacker two = new Unpacker(V41, hex("04010203"));
    assertRefused(two::unpackStatus, PmixStatus.ERR_UNPACK_INADEQUATE_SPACE, 0);
    Unpacker none = new Unpacker(V41, hex("00"));
    assertRefused(none::unpackString, PmixStatus.ERR_UNPACK_FAILURE, 0);
  }

  @Test
  void bytesLeftOverAfterTheLastUnitAreRefusedByExpectEnd() {
    Unpacker unpacker = new Unpacker(V41, hex("021100"));
    assertThat(unpacker.unpackCommand()).isEqualTo(17);
    assertRefused(unpacker::expectEnd, PmixStatus.ERR_UNPACK_FAILURE, 2);
  }

  @Test
  void aNullArgvEntryIsRefused() {
    // cmd "a", argc 1, argv[0] NULL
    assertRefused(() -> unpack("020461000200", DataType.APP), PmixStatus.ERR_UNPACK_FAILURE, 5);
  }

  @Test
  void anUnpackerReadsOnlyItsSlice() {
    byte[] frame = hex("ffff0211ffff");
    Unpacker unpacker = new Unpacker(V41, frame, 2, 2);
    assertThat(unpacker.unpackCommand()).isEqualTo(17);
    assertThat(unpacker.hasRemaining()).isFalse();
  }

  // ---- COMPRESSED_STRING ----------------------------------------------------------------------

  /** A 4.2.2-style compressed string: little-endian length without NUL, then zlib output. */
  static byte[] compressed(String text, int claimedLength, boolean truncate) {
    byte[] input = text.getBytes(StandardCharsets.UTF_8);
    Deflater deflater = new Deflater(9);
    deflater.setInput(input);
    deflater.finish();
    byte[] z = new byte[input.length + 64];
    int n = deflater.deflate(z);
    deflater.end();
    if (truncate) {
      n = n / 2;
    }
    byte[] blob = new byte[4 + n];
    blob[0] = (byte) claimedLength;
    blob[1] = (byte) (claimedLength >> 8);
    blob[2] = (byte) (claimedLength >> 16);
    blob[3] = (byte) (claimedLength >> 24);
    System.arraycopy(z, 0, blob, 4, n);
    return blob;
  }

  private static byte[] valueOfCompressed(byte[] blob) {
    Packer p = new Packer(V41).pack(DataType.BYTE_OBJECT, ByteObject.of(blob));
    byte[] bo = p.toByteArray(); // 02, size, bytes: make it a VALUE of type 42
    byte[] value = new byte[bo.length + 1];
    value[0] = 0x02;
    value[1] = 0x2a;
    System.arraycopy(bo, 1, value, 2, bo.length - 1);
    return value;
  }

  @Test
  void aCompressedStringValueArrivesAsTheStringItHolds() {
    String text = "node001,node002,".repeat(40);
    byte[] bytes = valueOfCompressed(compressed(text, text.length(), false));

    Value value = new Unpacker(V41, bytes).unpackValue();

    assertThat(value).isEqualTo(Value.string(text));
  }

  @Test
  void aCompressedStringThatInflatesPastItsClaimIsRefused() {
    String text = "x".repeat(100_000);
    byte[] bytes = valueOfCompressed(compressed(text, 1000, false));

    assertThatThrownBy(() -> new Unpacker(V41, bytes).unpackValue())
        .isInstanceOfSatisfying(
            WireException.class,
            e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNPACK_FAILURE));
  }

  @Test
  void aCompressedStringThatIsCutShortOrClaimsTooMuchIsRefused() {
    String text = "abcdefgh".repeat(100);
    for (byte[] blob :
        List.of(
            compressed(text, text.length(), true),
            compressed(text, text.length() + 1, false),
            compressed(text, Integer.MAX_VALUE, false),
            new byte[] {1, 0})) {
      byte[] bytes = valueOfCompressed(blob);
      assertThatThrownBy(() -> new Unpacker(V41, bytes).unpackValue())
          .isInstanceOfSatisfying(
              WireException.class,
              e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNPACK_FAILURE));
    }
  }
}
