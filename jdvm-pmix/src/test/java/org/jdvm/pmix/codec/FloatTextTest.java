package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * FLOAT and DOUBLE text as glibc's {@code printf("%f")} writes it (pmix-wire.md §3, §6 #3). The
 * expected strings are glibc's; the libpmix interop test checks many more against the real {@code
 * printf}.
 */
class FloatTextTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "3.14159, 3.141590",
    "2.718281828, 2.718282",
    "-0.5, -0.500000",
    "1e20, 100000000000000000000.000000",
    "1e-9, 0.000000",
    "-1e-9, -0.000000",
    "-0.0, -0.000000",
    "0.0, 0.000000",
    // exact binary ties round to even, as glibc does in the default rounding mode
    "0.0078125, 0.007812",
    "0.0234375, 0.023438",
    "2.5e-7, 0.000000",
    "7.5e-7, 0.000001",
    "123456789012345678, 123456789012345680.000000",
  })
  void doublesPrintAsGlibcPrintsThem(double value, String text) {
    assertThat(FloatText.format(value)).isEqualTo(text);
  }

  @Test
  void floatsArePromotedToDoubleBeforePrinting() {
    assertThat(FloatText.format(3.14159f)).isEqualTo("3.141590");
    assertThat(FloatText.format(0.1f)).isEqualTo("0.100000");
    assertThat(FloatText.format(16777217f)).isEqualTo("16777216.000000");
  }

  @Test
  void theSpecialsPrintAsGlibcSpellsThem() {
    assertThat(FloatText.format(Double.NaN)).isEqualTo("nan");
    assertThat(FloatText.format(Double.longBitsToDouble(0xFFF8000000000000L))).isEqualTo("-nan");
    assertThat(FloatText.format(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    assertThat(FloatText.format(Float.NEGATIVE_INFINITY)).isEqualTo("-inf");
    assertThat(FloatText.format(Double.MAX_VALUE)).hasSize(309 + 7).endsWith(".000000");
  }

  @Test
  void textParsesBackAsStrtodWouldAndSpecialsKeepTheirSign() {
    assertThat(FloatText.parseFloat("3.141590")).isEqualTo(3.14159f);
    assertThat(FloatText.parseDouble("100000000000000000000.000000")).isEqualTo(1e20);
    assertThat(FloatText.format(FloatText.parseDouble("-nan"))).isEqualTo("-nan");
    assertThat(FloatText.parseDouble("INF")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(FloatText.parseDouble("-infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(FloatText.parseDouble("1e-3")).isEqualTo(0.001);
  }

  @Test
  void textThatIsNotADecimalNumberIsRefused() {
    assertThat(FloatText.parseDouble("abc")).isNull();
    assertThat(FloatText.parseDouble("0x1p3")).isNull();
    assertThat(FloatText.parseDouble("1.5f")).isNull();
    assertThat(FloatText.parseDouble(" 1.5")).isNull();
    assertThat(FloatText.parseDouble("")).isNull();
    assertThat(FloatText.parseDouble(null)).isNull();
    assertThat(FloatText.parseFloat("1..2")).isNull();
  }
}
