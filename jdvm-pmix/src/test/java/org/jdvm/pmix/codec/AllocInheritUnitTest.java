package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * OpenPMIx's own unit test for the new type ({@code test/unit/bfrops_alloc_inherit.c}), case by
 * case, as behaviours of jdvm's {@code v61} codec: pack/unpack of one value and of several in one
 * call, through a value, value transfer, compare (equal and different), print, and the string
 * converter.
 */
class AllocInheritUnitTest {
  private static WireFormat v61(BufferType mode) {
    return new WireFormat(WireComponent.V61, mode);
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void oneValuePackedAndUnpackedComesBackUnchanged(BufferType mode) {
    long child = AllocInheritance.CHILD.code();
    byte[] bytes = new Packer(v61(mode)).packInteger(DataType.ALLOC_INHERIT, child).toByteArray();

    long unpacked = new Unpacker(v61(mode), bytes).unpackInteger(DataType.ALLOC_INHERIT);

    assertThat(unpacked).isEqualTo(child);
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void severalValuesInOnePackCallComeBackInOrder(BufferType mode) {
    List<Object> values =
        List.of(
            (long) AllocInheritance.NONE.code(),
            (long) AllocInheritance.CHILD.code(),
            (long) AllocInheritance.DEFAULT.code());
    byte[] bytes = new Packer(v61(mode)).pack(DataType.ALLOC_INHERIT, values).toByteArray();

    Unpacker unpacker = new Unpacker(v61(mode), bytes);
    List<Object> unpacked = unpacker.unpack(DataType.ALLOC_INHERIT);

    assertThat(unpacked).containsExactlyElementsOf(values);
    unpacker.expectEnd();
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void aValueOfTheTypeKeepsItsTypeAndDatumThroughPackAndUnpack(BufferType mode) {
    Value value = Value.inheritance(AllocInheritance.DEFAULT);
    byte[] bytes = new Packer(v61(mode)).packValue(value).toByteArray();

    Value unpacked = new Unpacker(v61(mode), bytes).unpackValue();

    assertThat(unpacked.type()).isEqualTo(DataType.ALLOC_INHERIT);
    assertThat(unpacked.asLong()).isEqualTo(AllocInheritance.DEFAULT.code());
  }

  @Test
  void valueTransferCopiesTheTypeAndDatum() {
    Value source = Value.inheritance(AllocInheritance.CHILD);

    Value copy = ValueOps.copy(source);

    assertThat(copy.type()).isEqualTo(DataType.ALLOC_INHERIT);
    assertThat(copy.asLong()).isEqualTo(source.asLong());
  }

  @Test
  void identicalValuesCompareEqual() {
    Value v1 = Value.inheritance(AllocInheritance.DEFAULT);
    Value v2 = Value.inheritance(AllocInheritance.DEFAULT);

    assertThat(ValueOps.compare(v1, v2)).isEqualTo(ValueComparison.EQUAL);
  }

  @Test
  void differentValuesDoNotCompareEqual() {
    Value none = Value.inheritance(AllocInheritance.NONE);
    Value child = Value.inheritance(AllocInheritance.CHILD);

    assertThat(ValueOps.compare(none, child))
        .isNotEqualTo(ValueComparison.EQUAL)
        .isEqualTo(ValueComparison.VALUE2_GREATER);
    assertThat(ValueOps.compare(child, none)).isEqualTo(ValueComparison.VALUE1_GREATER);
    assertThat(ValueOps.compare(none, Value.uint8(1))).isEqualTo(ValueComparison.TYPE_DIFFERENT);
  }

  @Test
  void printNamesTheTypeAndTheConvertedValue() {
    String printed = ValueOps.print(Value.inheritance(AllocInheritance.CHILD));

    assertThat(printed).contains("PMIX_ALLOC_INHERIT").contains("CHILD").doesNotContain("\n");
    assertThat(DataPrinter.print(DataType.VALUE, Value.inheritance(AllocInheritance.CHILD)))
        .contains("PMIX_ALLOC_INHERIT")
        .contains("CHILD");
  }

  @Test
  void theStringConverterNamesEachValueAndCallsTheRestUnspecified() {
    assertThat(AllocInheritance.toString(AllocInheritance.NONE.code())).isEqualTo("NONE");
    assertThat(AllocInheritance.toString(AllocInheritance.CHILD.code())).isEqualTo("CHILD");
    assertThat(AllocInheritance.toString(AllocInheritance.DEFAULT.code())).isEqualTo("DEFAULT");
    assertThat(AllocInheritance.toString(AllocInheritance.CHILD_DEFAULT.code()))
        .isEqualTo("CHILD_DEFAULT");
    assertThat(AllocInheritance.toString(0)).isEqualTo("UNSPECIFIED");
    assertThat(AllocInheritance.toString(5)).isEqualTo("UNSPECIFIED");
    assertThat(AllocInheritance.toString(255)).isEqualTo("UNSPECIFIED");
  }
}
