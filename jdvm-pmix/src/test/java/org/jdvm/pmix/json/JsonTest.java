package org.jdvm.pmix.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void numbersKeepTheirExactValue() {
    assertThat(Json.parse("42")).isEqualTo(42L);
    assertThat(Json.parse("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    assertThat(Json.parse("18446744073709551615"))
        .isEqualTo(new BigInteger("18446744073709551615"));
    assertThat(Json.parse("3.14159")).isEqualTo(new BigDecimal("3.14159"));
    assertThat(Json.parse("1e-09")).isEqualTo(new BigDecimal("1e-09"));
    assertThat(Json.write(new BigInteger("18446744073709551615")))
        .isEqualTo("18446744073709551615");
  }

  @Test
  void objectsKeepTheirOrderAndWriteCompactly() {
    Object tree = Json.parse(" { \"b\" : [1, true, null, \"x\"], \"a\": {} } ");
    assertThat(tree).isInstanceOf(Map.class);
    assertThat(List.copyOf(((Map<?, ?>) tree).keySet())).isEqualTo(List.of("b", "a"));
    assertThat(Json.write(tree)).isEqualTo("{\"b\":[1,true,null,\"x\"],\"a\":{}}");
  }

  @Test
  void stringsEscapeBothWays() {
    String text = "q\" b\\ n\n t\t c\u0001 é \uD83D\uDE00";
    String json = Json.write(text);
    assertThat(json).isEqualTo("\"q\\\" b\\\\ n\\n t\\t c\\u0001 é \uD83D\uDE00\"");
    assertThat(Json.parse(json)).isEqualTo(text);
    assertThat(Json.parse("\"\\u00e9\\/\"")).isEqualTo("é/");
  }

  @Test
  void malformedTextNamesTheOffset() {
    assertThatThrownBy(() -> Json.parse("[1, 2")).hasMessageContaining("offset 5");
    assertThatThrownBy(() -> Json.parse("{\"a\":1,\"a\":2}")).hasMessageContaining("duplicate");
    assertThatThrownBy(() -> Json.parse("01")).isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> Json.parse("1.")).isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> Json.parse("\"a\nb\"")).isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> Json.parse("tru")).isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> Json.parse("1 2")).hasMessageContaining("after the JSON value");
    assertThatThrownBy(() -> Json.parse("1e99999999999")).isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> Json.parse("")).isInstanceOf(JsonException.class);
  }

  @Test
  void nestingAndSizeAreBounded() {
    String deep = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);
    assertThatThrownBy(() -> Json.parse(deep)).hasMessageContaining("nested deeper");
    String ok = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
    assertThat(Json.parse(ok)).isInstanceOf(List.class);
    assertThatThrownBy(() -> Json.parse("9".repeat(1000))).hasMessageContaining("characters");
  }

  @Test
  void theWriterRefusesWhatJsonCannotSay() {
    assertThatThrownBy(() -> Json.write(Double.NaN)).isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> Json.write(new Object())).isInstanceOf(JsonException.class);
    Map<Object, Object> badKey = new LinkedHashMap<>();
    badKey.put(1, 2);
    assertThatThrownBy(() -> Json.write(badKey)).isInstanceOf(JsonException.class);
    assertThat(Json.write(List.of(1, 2.5, 1.5f, (short) 3))).isEqualTo("[1,2.5,1.5,3]");
  }
}
