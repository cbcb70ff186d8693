package org.jdvm.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeSpecTest {

  @ParameterizedTest(name = "\"{0}\" is {1} s")
  @CsvSource({
    "30, 30",
    "1:30, 90",
    "2:0:0, 7200",
    "1:0:0:0, 86400",
    "1:0:0:0:0, 2592000",
    "0, 0",
    "1:2:3:4:5, 2775845"
  })
  void aTimeSpecIsReadFieldByFieldFromTheRight(String spec, long seconds) {
    assertThat(TimeSpec.parseSeconds(spec)).isEqualTo(seconds);
  }

  @ParameterizedTest(name = "\"{0}\" is refused")
  @CsvSource({
    "':30'",
    "'1:'",
    "'1::2'",
    "''",
    "'1:2:3:4:5:6'",
    "'x'",
    "'-1'",
    "'1.5'",
    "'99999999999999'"
  })
  void emptyFieldsExtraFieldsAndNonDigitsAreRefused(String spec) {
    assertThat(TimeSpec.parseSeconds(spec)).isEqualTo(-1);
  }
}
