package org.jdvm.pmix.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;

/**
 * The generic record codec's two layouts (docs/journal.md "Encoding" for the journal's; the agent
 * link's in docs/protocol.md): what each writes, that values come back equal, and that bytes which
 * are not a value are {@link Bytes.Corrupt} — bounded, never an allocation a count asked for.
 */
class RecordCodecTest {
  enum Colour {
    RED,
    GREEN
  }

  sealed interface Shape {}

  record Dot(int x) implements Shape {}

  record Line(Dot from, Dot to) implements Shape {}

  record Pair(int a, String s) {}

  record Item(String name, long size) {}

  record Everything(
      int i,
      long l,
      boolean b,
      Integer boxed,
      String s,
      byte[] bytes,
      Colour colour,
      Shape shape,
      List<String> strings,
      Set<Colour> colours,
      List<Item> items,
      Map<String, String> env,
      Map<String, List<Item>> groups,
      Value value) {}

  record Empty() {}

  record Empties(List<Empty> empties) {}

  record WithMap(Map<String, String> m) {}

  record Names(List<String> names) {}

  private static Everything everything() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("K", "v");
    env.put("grüße", "日本\uD83D\uDE00\uD800");
    return new Everything(
        -7,
        Long.MIN_VALUE,
        true,
        42,
        "",
        new byte[] {0, -1, 2},
        Colour.GREEN,
        new Line(new Dot(1), new Dot(2)),
        List.of("a", "b c"),
        Set.of(Colour.RED),
        List.of(new Item("x", 3), new Item("y", 4)),
        env,
        Map.of("g", List.of(new Item("z", 5))),
        Value.string("v"));
  }

  private static byte[] required(Type type, Object v) {
    Bytes.Out out = new Bytes.Out(16);
    RecordCodec.writeRequired(out, type, v);
    return out.toByteArray();
  }

  private static Object readRequired(byte[] bytes, Type type) {
    Bytes.In in = new Bytes.In(bytes);
    Object v = RecordCodec.readRequired(in, type);
    in.expectEnd();
    return v;
  }

  private static byte[] optional(Type type, Object v) {
    Bytes.Out out = new Bytes.Out(16);
    RecordCodec.write(out, type, v);
    return out.toByteArray();
  }

  @Test
  void theRequiredLayoutHasNoPresenceBytes() {
    assertThat(HexFormat.of().formatHex(required(Pair.class, new Pair(1, "x"))))
        .isEqualTo("00000001" + "00000001" + "78");
    assertThat(HexFormat.of().formatHex(required(WithMap.class, new WithMap(Map.of("k", "v")))))
        .isEqualTo("00000001" + "000000016b" + "0000000176");
    // The shape's tag, then the kind's components.
    assertThat(HexFormat.of().formatHex(required(Shape.class, new Dot(5))))
        .isEqualTo("00" + "00000005");
  }

  @Test
  void theOptionalLayoutPrecedesEveryReferenceWithAPresenceByte() {
    assertThat(HexFormat.of().formatHex(optional(Pair.class, new Pair(1, "x"))))
        .isEqualTo("01" + "00000001" + "01" + "00000001" + "78");
    assertThat(HexFormat.of().formatHex(optional(Pair.class, new Pair(1, null))))
        .isEqualTo("01" + "00000001" + "00");
  }

  @Test
  void everyShapeComesBackEqualInBothLayouts() {
    Everything e = everything();
    byte[] req = required(Everything.class, e);
    Everything back = (Everything) readRequired(req, Everything.class);
    assertThat(Arrays.equals(required(Everything.class, back), req)).isTrue();
    assertThat(back.env()).isEqualTo(e.env());
    assertThat(back.env().keySet()).containsExactlyElementsOf(e.env().keySet());
    assertThat(back.items()).isEqualTo(e.items());
    assertThat(back.shape()).isEqualTo(e.shape());
    assertThat(back.bytes()).isEqualTo(e.bytes());

    byte[] opt = optional(Everything.class, e);
    Bytes.In in = new Bytes.In(opt);
    Everything back2 = (Everything) RecordCodec.read(in, Everything.class);
    in.expectEnd();
    assertThat(Arrays.equals(optional(Everything.class, back2), opt)).isTrue();
    assertThat(back2.groups()).isEqualTo(e.groups());
  }

  @Test
  void aRootWithAMapKeepsTheGenericWriterAndItsBytes() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("a", null); // the journal's layout allows a null anywhere
    m.put("b", "c");
    WithMap v = new WithMap(m);
    assertThat(RecordCodec.generated(WithMap.class)).isFalse();
    assertThat(RecordCodec.generated(Pair.class)).isTrue();
    Bytes.Out generic = new Bytes.Out(16);
    RecordCodec.writeGeneric(generic, WithMap.class, v);
    assertThat(optional(WithMap.class, v)).isEqualTo(generic.toByteArray());
    assertThat(((WithMap) RecordCodec.read(new Bytes.In(generic.toByteArray()), WithMap.class)).m())
        .containsExactlyEntriesOf(m);
  }

  @Test
  void theRequiredLayoutRefusesANullAnywhere() {
    assertThatThrownBy(() -> required(Pair.class, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> required(Pair.class, new Pair(1, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null");
    Map<String, String> nullValue = new LinkedHashMap<>();
    nullValue.put("k", null);
    assertThatThrownBy(() -> required(WithMap.class, new WithMap(nullValue)))
        .isInstanceOf(IllegalArgumentException.class);
    // A string written as null (length -1) does not read as one.
    Bytes.Out out = new Bytes.Out(16);
    out.i32(1).str(null);
    assertThatThrownBy(() -> readRequired(out.toByteArray(), Pair.class))
        .isInstanceOf(Bytes.Corrupt.class);
  }

  @Test
  void aContainerOfItemsThatTakeNoBytesIsRefusedInTheRequiredLayout() {
    // Its count could not be checked against the bytes left.
    assertThatThrownBy(() -> required(Empties.class, new Empties(List.of(new Empty()))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no bytes");
    Empties e = new Empties(List.of(new Empty(), new Empty()));
    assertThat(RecordCodec.read(new Bytes.In(optional(Empties.class, e)), Empties.class))
        .isEqualTo(e);
  }

  @Test
  void aHugeCountOrLengthIsRefusedBeforeAnythingIsAllocated() {
    // Each count is checked against the fewest bytes its items take: four per required string.
    Bytes.Out names = new Bytes.Out(16);
    names.i32(3).i32(0).i32(0); // three names declared, eight bytes left
    assertThatThrownBy(() -> readRequired(names.toByteArray(), Names.class))
        .isInstanceOf(Bytes.Corrupt.class)
        .hasMessageContaining("count");
    names.reset();
    names.i32(Integer.MAX_VALUE);
    assertThatThrownBy(() -> readRequired(names.toByteArray(), Names.class))
        .isInstanceOf(Bytes.Corrupt.class)
        .hasMessageContaining("count");
    Bytes.Out map = new Bytes.Out(16);
    map.i32(3).i32(1).u8('k').i32(1).u8('v'); // three entries declared, one present
    assertThatThrownBy(() -> readRequired(map.toByteArray(), WithMap.class))
        .isInstanceOf(Bytes.Corrupt.class)
        .hasMessageContaining("count");
    Bytes.Out string = new Bytes.Out(16);
    string.i32(1).i32(Integer.MAX_VALUE);
    assertThatThrownBy(() -> readRequired(string.toByteArray(), Pair.class))
        .isInstanceOf(Bytes.Corrupt.class)
        .hasMessageContaining("count");
  }

  @Test
  void aKeyTwiceInOneMapIsCorrupt() {
    Bytes.Out out = new Bytes.Out(16);
    out.i32(2).str("k").str("a").str("k").str("b");
    assertThatThrownBy(() -> readRequired(out.toByteArray(), WithMap.class))
        .isInstanceOf(Bytes.Corrupt.class)
        .hasMessageContaining("twice");
  }

  @Test
  void bytesCutShortOrDamagedAreAValueOrCorruptNeverAnotherException() {
    Random random = new Random(20261128);
    for (boolean req : new boolean[] {true, false}) {
      byte[] wire =
          req ? required(Everything.class, everything()) : optional(Everything.class, everything());
      for (int cut = 0; cut < wire.length; cut++) {
        byte[] part = Arrays.copyOf(wire, cut);
        assertThatThrownBy(() -> read(req, part)).isInstanceOf(Bytes.Corrupt.class);
      }
      for (int i = 0; i < 2000; i++) {
        byte[] damaged = wire.clone();
        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
        try {
          read(req, damaged);
        } catch (Bytes.Corrupt expected) {
          // most
        }
      }
    }
  }

  private static Object read(boolean required, byte[] bytes) {
    Bytes.In in = new Bytes.In(bytes);
    Object v =
        required
            ? RecordCodec.readRequired(in, Everything.class)
            : RecordCodec.read(in, Everything.class);
    in.expectEnd();
    return v;
  }
}
