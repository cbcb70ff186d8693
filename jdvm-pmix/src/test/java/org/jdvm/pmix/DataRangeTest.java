package org.jdvm.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code pmix_data_range_t} table row by row, as pmix_common.h (4.2.2 and master) has it. */
class DataRangeTest {

  static Stream<Arguments> header() {
    return Stream.of(
        Arguments.of("PMIX_RANGE_UNDEF", 0),
        Arguments.of("PMIX_RANGE_RM", 1),
        Arguments.of("PMIX_RANGE_LOCAL", 2),
        Arguments.of("PMIX_RANGE_NAMESPACE", 3),
        Arguments.of("PMIX_RANGE_SESSION", 4),
        Arguments.of("PMIX_RANGE_GLOBAL", 5),
        Arguments.of("PMIX_RANGE_CUSTOM", 6),
        Arguments.of("PMIX_RANGE_PROC_LOCAL", 7),
        Arguments.of("PMIX_RANGE_INVALID", 255));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("header")
  void eachRangeHasItsHeaderCodeAndNameBothWays(String pmixName, int code) {
    DataRange r = DataRange.fromName(pmixName);
    assertThat(r).isNotNull();
    assertThat(r.code()).isEqualTo(code);
    assertThat(r.pmixName()).isEqualTo(pmixName);
    assertThat(DataRange.fromCode(code)).isSameAs(r);
    assertThat(DataRange.fromName(r.name())).isSameAs(r);
  }

  @Test
  void theTableHasExactlyTheRowsAboveAndEachCodeFitsTheWiresByte() {
    assertThat(Arrays.stream(DataRange.values()).map(DataRange::pmixName))
        .containsExactlyElementsOf(header().map(a -> (String) a.get()[0]).toList());
    for (DataRange r : DataRange.values()) {
      assertThat(Value.fits(DataType.DATA_RANGE, r.code())).as(r.name()).isTrue();
    }
  }

  @Test
  void codesAndNamesPmixDoesNotDefineHaveNoRange() {
    for (int code : new int[] {8, 100, 254, 256, -1}) {
      assertThat(DataRange.fromCode(code)).as("%d", code).isNull();
    }
    assertThat(DataRange.fromName("PMIX_RANGE_EVERYONE")).isNull();
    assertThat(DataRange.fromName("pmix_range_custom")).isNull();
  }
}
