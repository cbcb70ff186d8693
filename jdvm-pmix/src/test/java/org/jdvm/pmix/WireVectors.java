package org.jdvm.pmix;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.json.Json;

/**
 * The golden vectors of pmix-wire.md §12.2 ({@code wire/vectors.json}) (libpmix 4.2.2, one {@code
 * PMIx_Data_pack} call each, count unit included), copied into the test resources so that a clean
 * clone can run the tests.
 */
public final class WireVectors {
  private WireVectors() {}

  /** One vector. {@code hex} and {@code hexFullyDescribed} are null where packing failed. */
  public record Vector(
      String name,
      String type,
      int numVals,
      Object value,
      String hex,
      String hexFullyDescribed,
      int packRc,
      String roundtrip,
      String repackHex) {

    public byte[] bytes(BufferType mode) {
      String h = mode == BufferType.FULLY_DESCRIBED ? hexFullyDescribed : hex;
      return h == null ? null : HexFormat.of().parseHex(h);
    }

    public DataType dataType() {
      return DataType.fromName(type);
    }

    public boolean isComposite() {
      return "COMPOSITE".equals(type);
    }
  }

  public static String resource(String name) {
    try (InputStream in = WireVectors.class.getResourceAsStream("/org/jdvm/pmix/wire/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static List<Vector> all() {
    List<Vector> vectors = new ArrayList<>();
    for (Object o : (List<?>) Json.parse(resource("vectors.json"))) {
      Map<?, ?> m = (Map<?, ?>) o;
      Object numVals = m.get("num_vals");
      vectors.add(
          new Vector(
              (String) m.get("name"),
              (String) m.get("type"),
              numVals == null ? 0 : ((Long) numVals).intValue(),
              m.get("value"),
              (String) m.get("hex"),
              (String) m.get("hex_fully_described"),
              ((Long) m.get("pack_rc")).intValue(),
              (String) m.get("roundtrip"),
              (String) m.get("repack_hex_after_unpack")));
    }
    return vectors;
  }

  public static byte[] hex(String h) {
    return HexFormat.of().parseHex(h.replace(" ", ""));
  }

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
