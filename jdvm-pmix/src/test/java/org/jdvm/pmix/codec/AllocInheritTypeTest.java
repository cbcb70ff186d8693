package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jdvm.pmix.WireVectors.hex;

import java.util.List;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.WireVectors.Vector;
import org.jdvm.pmix.json.ValueJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PMIX_ALLOC_INHERIT (type 75) per pmix-wire.md §7 and the two vectors libpmix 4.2.2 refused to
 * pack: {@code v41} fails exactly as 4.2.2 does (a direct pack with {@code
 * PMIX_ERR_UNKNOWN_DATA_TYPE}, a value or info carrying it with {@code PMIX_ERROR}) and refuses to
 * unpack it; {@code v61} carries it as one raw byte.
 */
class AllocInheritTypeTest {
  private static final String INHERIT_KEY =
      "22706d69782e616c6c6f632e696e68727400"; // "pmix.alloc.inhrt"

  private static Vector vector(String name) {
    return WireVectors.all().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }

  private static List<Object> valuesOf(Vector v) {
    return ValueJson.unitFromJson(v.dataType(), v.value());
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void v41RefusesADirectPackWithUnknownDataTypeAsTheVectorSays(BufferType mode) {
    Vector v = vector("alloc_inherit_child_type75");
    assertThat(v.packRc()).isEqualTo(PmixStatus.ERR_UNKNOWN_DATA_TYPE);
    Packer packer = new Packer(new WireFormat(WireComponent.V41, mode)).packCommand(17);
    byte[] before = packer.toByteArray();

    assertThatThrownBy(() -> packer.pack(DataType.ALLOC_INHERIT, valuesOf(v)))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> {
              assertThat(e.status()).isEqualTo(v.packRc());
              assertThat(e.scope()).isEqualTo(WireException.Scope.MESSAGE);
            });
    assertThat(packer.toByteArray()).isEqualTo(before);
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void v41RefusesAnInfoCarryingTheTypeWithPmixErrorAsTheVectorSays(BufferType mode) {
    Vector v = vector("info_alloc_inheritance_type75");
    assertThat(v.packRc()).isEqualTo(PmixStatus.ERROR);
    Packer packer = new Packer(new WireFormat(WireComponent.V41, mode));

    assertThatThrownBy(() -> packer.pack(DataType.INFO, valuesOf(v)))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERROR));
    assertThatThrownBy(() -> packer.packValue(Value.inheritance(AllocInheritance.CHILD)))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERROR));
    assertThat(packer.size()).isZero();
  }

  @Test
  void v41RefusesAnArrayOfTheTypeAsAnUnknownDataType() {
    DataArray array = DataArray.of(DataType.ALLOC_INHERIT, List.of(2L, 3L));
    assertThatThrownBy(() -> new Packer(WireFormat.V41).pack(DataType.DATA_ARRAY, array))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNKNOWN_DATA_TYPE));
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void v61CarriesTheDirectVectorAsOneRawByte(BufferType mode) {
    WireFormat v61 = new WireFormat(WireComponent.V61, mode);
    String expected = mode == BufferType.FULLY_DESCRIBED ? "09024b02" : "0202";

    assertRoundTrip(
        v61, DataType.ALLOC_INHERIT, valuesOf(vector("alloc_inherit_child_type75")), expected);
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void v61CarriesTheInfoVectorWithTag4b(BufferType mode) {
    WireFormat v61 = new WireFormat(WireComponent.V61, mode);
    String body = INHERIT_KEY + "00" + "4b" + "02"; // key, flags 0, type 75, CHILD
    String expected = (mode == BufferType.FULLY_DESCRIBED ? "090218" : "02") + body;

    assertRoundTrip(
        v61, DataType.INFO, valuesOf(vector("info_alloc_inheritance_type75")), expected);
  }

  private static void assertRoundTrip(
      WireFormat format, DataType type, List<Object> values, String expectedHex) {
    byte[] packed = new Packer(format).pack(type, values).toByteArray();
    assertThat(hex(packed)).isEqualTo(expectedHex);
    List<Object> decoded = new Unpacker(format, packed).unpack(type);
    assertThat(decoded).isEqualTo(values);
    assertThat(hex(new Packer(format).pack(type, decoded).toByteArray())).isEqualTo(expectedHex);
  }

  @Test
  void v41RefusesToUnpackTheTypeDirectlyOrInsideAnInfo() {
    assertThatThrownBy(
            () -> new Unpacker(WireFormat.V41, hex("0202")).unpack(DataType.ALLOC_INHERIT))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNKNOWN_DATA_TYPE));

    byte[] info = hex("02" + INHERIT_KEY + "004b02");
    assertThatThrownBy(() -> new Unpacker(WireFormat.V41, info).unpack(DataType.INFO))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> {
              assertThat(e.status()).isEqualTo(PmixStatus.ERR_UNKNOWN_DATA_TYPE);
              assertThat(e.offset()).as("at the value's tag").isEqualTo(1 + 18 + 1);
            });
  }

  @Test
  void theUint8FallbackForOldPeersPacksOnV41AndCarriesTheSameByte() {
    Info inheritance =
        Info.of(PmixKeys.ALLOC_INHERITANCE, Value.uint8(AllocInheritance.CHILD.code()));

    byte[] packed = new Packer(WireFormat.V41).pack(DataType.INFO, inheritance).toByteArray();

    assertThat(hex(packed)).isEqualTo("02" + INHERIT_KEY + "000c02");
  }
}
