package org.jdvm.pmix.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Coord;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Device;
import org.jdvm.pmix.DeviceDistance;
import org.jdvm.pmix.Endpoint;
import org.jdvm.pmix.Geometry;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.NodePid;
import org.jdvm.pmix.Regex2;
import org.jdvm.pmix.ResourceUnit;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.WireVectors.Vector;
import org.junit.jupiter.api.Test;

/** The JSON form of every type: the vectors' own values round-trip, and the rest follow suit. */
class ValueJsonTest {
  /** Same tree, numbers compared by value (1e+20 is 1.0E20). */
  static boolean sameJson(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      return x.keySet().equals(y.keySet())
          && x.keySet().stream().allMatch(k -> sameJson(x.get(k), y.get(k)));
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!sameJson(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a == null ? b == null : a.equals(b);
  }

  @Test
  void everyVectorValueMapsToTheModelAndBackToTheSameJson() {
    int mapped = 0;
    for (Vector v : WireVectors.all()) {
      if (v.isComposite() || v.dataType() == DataType.DATA_BUFFER) {
        continue; // its value is a description in words
      }
      List<Object> data = ValueJson.unitFromJson(v.dataType(), v.value());
      Object back = ValueJson.unitToJson(v.dataType(), data);
      assertThat(sameJson(back, v.value())).as(v.name() + ": " + Json.write(back)).isTrue();
      mapped++;
    }
    assertThat(mapped).isEqualTo(121);
  }

  @Test
  void typesTheVectorsDoNotShowRoundTripToo() {
    List<Object[]> samples =
        List.of(
            new Object[] {DataType.KVAL, new KVal("k", Value.uint32(7))},
            new Object[] {
              DataType.GEOMETRY, new Geometry(-1L, "u", "eth0", List.of(new Coord(1, List.of(4L))))
            },
            new Object[] {DataType.DEVICE_DIST, new DeviceDistance("u", "mlx5_0", 4, 1, 65535)},
            new Object[] {
              DataType.ENDPOINT, new Endpoint("u", null, ByteObject.of(new byte[] {1, 2}))
            },
            new Object[] {DataType.DEVICE, new Device("u", "gpu0", 2)},
            new Object[] {DataType.RESOURCE_UNIT, new ResourceUnit(0x400, 3)},
            new Object[] {DataType.NODE_PID, new NodePid("n1", 7, 4242)},
            new Object[] {DataType.REGEX2, new Regex2("pmix", ByteObject.of(new byte[] {0x61}))},
            new Object[] {DataType.FLOAT, Float.NaN},
            new Object[] {DataType.DOUBLE, Double.NEGATIVE_INFINITY});
    for (Object[] s : samples) {
      DataType type = (DataType) s[0];
      Object json = Json.parse(Json.write(ValueJson.toJson(type, s[1])));
      assertThat(ValueJson.fromJson(type, json)).as(type.pmixName()).isEqualTo(s[1]);
    }
  }

  @Test
  void shapeErrorsNameThePath() {
    Object json = Json.parse("{\"key\":\"k\",\"value\":{\"type\":\"PMIX_UINT8\",\"data\":256}}");
    assertThatThrownBy(() -> ValueJson.infoFromJson(json))
        .isInstanceOf(JsonException.class)
        .hasMessageContaining("$.value.data");
    assertThatThrownBy(
            () -> ValueJson.valueFromJson(Json.parse("{\"type\":\"PMIX_NOPE\",\"data\":1}")))
        .hasMessageContaining("$.type");
    assertThatThrownBy(() -> ValueJson.fromJson(DataType.UINT64, -1L))
        .isInstanceOf(JsonException.class);
    assertThatThrownBy(() -> ValueJson.fromJson(DataType.PROC, Json.parse("{\"nspace\":\"a\"}")))
        .hasMessageContaining("missing \"rank\"");
  }

  @Test
  void typeNamesMayBeFullBareOrNumeric() {
    assertThat(ValueJson.parseType("PMIX_ALLOC_INHERIT")).isEqualTo(DataType.ALLOC_INHERIT);
    assertThat(ValueJson.parseType("INFO")).isEqualTo(DataType.INFO);
    assertThat(ValueJson.parseType("75")).isEqualTo(DataType.ALLOC_INHERIT);
    assertThatThrownBy(() -> ValueJson.parseType("29")).isInstanceOf(JsonException.class);
    assertThat(ValueJson.valueFromJson(Json.parse("{\"type\":14,\"data\":300}")))
        .isEqualTo(Value.uint32(300));
  }
}
