package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Coord;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Pointer;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.WireVectors.Vector;
import org.jdvm.pmix.json.ValueJson;
import org.junit.jupiter.api.Test;

/** Copy, compare and print for every type, beyond the inheritance cases of the unit test. */
class ValueOpsTest {
  private static ValueComparison cmp(Value a, Value b) {
    return ValueOps.compare(a, b);
  }

  @Test
  void aCopyIsEqualAndTheBytesItHoldsCannotBeChangedThroughEitherSide() {
    byte[] raw = {1, 2, 3};
    Value original = new Value(DataType.BYTE_OBJECT, ByteObject.of(raw));
    raw[0] = 9; // the caller's array is not the value's

    Value copy = ValueOps.copy(original);
    copy.as(ByteObject.class).toByteArray()[1] = 9; // nor is what it hands out

    assertThat(copy).isEqualTo(original);
    assertThat(original.as(ByteObject.class).toByteArray()).containsExactly(1, 2, 3);
  }

  @Test
  void numbersCompareByValueAndUnsigned64BitTypesUnsigned() {
    assertThat(cmp(Value.int32(-1), Value.int32(1))).isEqualTo(ValueComparison.VALUE2_GREATER);
    assertThat(cmp(Value.uint64(-1L), Value.uint64(1))).isEqualTo(ValueComparison.VALUE1_GREATER);
    assertThat(cmp(Value.size(5), Value.size(5))).isEqualTo(ValueComparison.EQUAL);
    assertThat(cmp(Value.int32(1), Value.uint32(1))).isEqualTo(ValueComparison.TYPE_DIFFERENT);
    assertThat(cmp(new Value(DataType.DOUBLE, Double.NaN), new Value(DataType.DOUBLE, 1.0)))
        .isEqualTo(ValueComparison.COMPARISON_NOT_AVAIL);
  }

  @Test
  void stringsCompareByTheirBytesWithNullLowest() {
    assertThat(cmp(Value.string("b"), Value.string("a"))).isEqualTo(ValueComparison.VALUE1_GREATER);
    assertThat(cmp(Value.string(null), Value.string(""))).isEqualTo(ValueComparison.VALUE2_GREATER);
    assertThat(cmp(Value.string("ab"), Value.string("abc")))
        .isEqualTo(ValueComparison.VALUE2_GREATER);
    // U+1F600 is above U+FFFD in UTF-8 order, though its first UTF-16 unit is lower
    assertThat(cmp(Value.string("\uD83D\uDE00"), Value.string("\uFFFD")))
        .isEqualTo(ValueComparison.VALUE1_GREATER);
  }

  @Test
  void structuresCompareFieldByFieldAndDifferentKindsAreIncompatible() {
    assertThat(cmp(Value.proc(new Proc("a", 2)), Value.proc(new Proc("a", 1))))
        .isEqualTo(ValueComparison.VALUE1_GREATER);
    Value logical = new Value(DataType.COORD, new Coord(1, List.of(1L, 2L)));
    Value physical = new Value(DataType.COORD, new Coord(2, List.of(1L, 2L)));
    assertThat(cmp(logical, physical)).isEqualTo(ValueComparison.INCOMPATIBLE_OBJECTS);
    Value strings = Value.array(DataArray.ofStrings(List.of("a")));
    Value procs = Value.array(DataArray.of(DataType.PROC, List.of(new Proc("a", 0))));
    assertThat(cmp(strings, procs)).isEqualTo(ValueComparison.TYPE_DIFFERENT);
    assertThat(
            cmp(
                new Value(DataType.POINTER, Pointer.INSTANCE),
                new Value(DataType.POINTER, Pointer.INSTANCE)))
        .isEqualTo(ValueComparison.COMPARISON_NOT_AVAIL);
  }

  @Test
  void everyVectorValueComparesEqualToItselfAndPrintsOnOneLine() {
    int compared = 0;
    for (Vector v : WireVectors.all()) {
      DataType type = v.dataType();
      if (type == null
          || v.packRc() != 0
          || type == DataType.POINTER
          || type == DataType.DATA_BUFFER) {
        continue;
      }
      for (Object datum : ValueJson.unitFromJson(type, v.value())) {
        String printed = DataPrinter.print(type, datum);
        assertThat(printed).startsWith("Data type: " + type.pmixName()).doesNotContain("\n");
        assertThat(ValueComparison.data(type, datum, datum)).isEqualTo(ValueComparison.EQUAL);
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(100);
  }

  @Test
  void printUsesTheNamesOfEnumerations() {
    assertThat(DataPrinter.print(Value.status(PmixStatus.ERR_NOT_FOUND)))
        .isEqualTo("Data type: PMIX_STATUS\tValue: PMIX_ERR_NOT_FOUND (-46)");
    assertThat(DataPrinter.print(Value.rank(Proc.RANK_WILDCARD))).endsWith("Value: WILDCARD");
    assertThat(DataPrinter.print(DataType.INFO, Info.required("k", Value.uint32(300))))
        .isEqualTo("Data type: PMIX_INFO\tValue: {key=k, flags=REQD, value=PMIX_UINT32 300}");
    assertThat(DataPrinter.print(Value.string("two\nlines"))).endsWith("two\\nlines");
  }
}
