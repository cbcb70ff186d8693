package org.jdvm.pmix.record;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;

/**
 * Encodes a vocabulary of records — records, the sealed interfaces over them, enums, lists, sets,
 * maps, boxed numbers, strings, byte arrays and PMIx values — by the shape of the types themselves,
 * so every value of the vocabulary is encoded without a hand-written case that could fall behind:
 * every {@code Change} and {@code Effect} the core can produce (the journal), every message of the
 * agent link. A record is its components in order; a sealed interface's record is tagged by its
 * place among the permitted subclasses (one byte); an enum is its ordinal, a list, set or map its
 * count and its items (a map's key then value); numbers, strings and byte arrays are {@link Bytes}'
 * encoding; a PMIx value travels in the PMIx v61 wire encoding (pmix-wire.md) as a length-prefixed
 * blob. {@link #fingerprint} renders every shape reachable from a root, so bytes written by a build
 * whose vocabulary differs (a journal of another build) are recognised and refused rather than
 * misread.
 *
 * <p>Two layouts of the same shapes, which differ only in references:
 *
 * <ul>
 *   <li>{@link #write}/{@link #read}: every reference is preceded by a presence byte, and may be
 *       {@code null} (the journal, docs/journal.md "Encoding"). Written by writers generated per
 *       root class ({@link RecordWriters}) where they can be.
 *   <li>{@link #writeRequired}/{@link #readRequired}: no presence byte; every reference is
 *       required, a {@code null} anywhere is refused when written and never read (the agent link,
 *       docs/protocol.md "Agent link"). Written by the generic writer.
 * </ul>
 *
 * <p>Reading is bounded by the bytes present: every count is checked against the fewest bytes its
 * items take before anything is allocated, and a list grows only with the items actually read.
 */
public final class RecordCodec {
  static final WireFormat VALUE_FORMAT = WireFormat.V61;

  private RecordCodec() {}

  /**
   * A present PMIx value as a length-prefixed blob: the output's packer, packed straight into the
   * record (a reply's infos are many values, and a new packer and two copies for each showed in the
   * encode time).
   */
  static void packValue(Bytes.Out out, Value v) {
    Packer p = out.packer(VALUE_FORMAT).packValue(v);
    out.i32(p.size());
    int at = out.skip(p.size()); // may grow the array: take it after
    p.copyTo(out.array(), at);
  }

  /** Each root class's writer: the generated one, or the generic one if none can be generated. */
  private static final ClassValue<RecordWriters.Writer> WRITERS =
      new ClassValue<>() {
        @Override
        protected RecordWriters.Writer computeValue(Class<?> type) {
          try {
            return RecordWriters.generate(type);
          } catch (IllegalArgumentException cannot) {
            // Throws for a type the codec does not know.
            return new GenericWriter(Layout.OPTIONAL.root(type));
          }
        }
      };

  /**
   * Writes {@code value} as {@code type}, each reference after a presence byte: by the writer
   * generated for a class ({@link RecordWriters}), else by the generic writer; the bytes are the
   * same.
   */
  public static void write(Bytes.Out out, Type type, Object value) {
    if (type instanceof Class<?> c) {
      WRITERS.get(c).write(out, value);
    } else {
      Layout.OPTIONAL.root(type).write(out, value);
    }
  }

  /**
   * Writes {@code value} as {@code type} by the generic writer, which walks the type's shape value
   * by value: the reference the generated writers are checked against (tests, benchmarks).
   */
  public static void writeGeneric(Bytes.Out out, Type type, Object value) {
    Layout.OPTIONAL.root(type).write(out, value);
  }

  /** Whether values of {@code type} are written by a generated writer (tests, benchmarks). */
  public static boolean generated(Class<?> type) {
    return !(WRITERS.get(type) instanceof GenericWriter);
  }

  private record GenericWriter(Layout.Codec codec) implements RecordWriters.Writer {
    @Override
    public void write(Bytes.Out out, Object value) {
      codec.write(out, value);
    }
  }

  /**
   * Reads a value of {@code type} that {@link #write} wrote.
   *
   * @throws Bytes.Corrupt if the bytes are not a value of that type
   */
  public static Object read(Bytes.In in, Type type) {
    return Layout.OPTIONAL.root(type).read(in);
  }

  /**
   * Writes {@code value} as {@code type} without any presence byte: every reference it holds, at
   * any depth, is required.
   *
   * @throws IllegalArgumentException if {@code value} or a reference it holds is {@code null}, or
   *     {@code type} is not a shape this codec knows
   */
  public static void writeRequired(Bytes.Out out, Type type, Object value) {
    Layout.REQUIRED.root(type).write(out, value);
  }

  /**
   * Reads a value of {@code type} that {@link #writeRequired} wrote; it holds no {@code null}.
   *
   * @throws Bytes.Corrupt if the bytes are not a value of that type
   */
  public static Object readRequired(Bytes.In in, Type type) {
    return Layout.REQUIRED.root(type).read(in);
  }

  /**
   * A rendering of every shape reachable from {@code roots}: the type names, the order of their
   * components and of the permitted subclasses, the enum constants. Two builds read each other's
   * journals exactly when their fingerprints are equal.
   */
  public static String fingerprint(Type... roots) {
    StringBuilder out = new StringBuilder(4096);
    Set<Class<?>> seen = new LinkedHashSet<>();
    for (Type t : roots) {
      describe(t, out, seen);
    }
    return out.toString();
  }

  private static void describe(Type type, StringBuilder out, Set<Class<?>> seen) {
    Class<?> raw = Layout.raw(type);
    if (type instanceof ParameterizedType p) {
      for (Type a : p.getActualTypeArguments()) {
        describe(a, out, seen);
      }
    }
    if (!seen.add(raw) || raw.isPrimitive() || raw.getName().startsWith("java.")) {
      return;
    }
    out.append(raw.getName()).append('{');
    if (raw.isEnum()) {
      for (Object c : raw.getEnumConstants()) {
        out.append(((Enum<?>) c).name()).append(',');
      }
      out.append("}\n");
    } else if (raw.isSealed()) {
      Class<?>[] permitted = raw.getPermittedSubclasses();
      for (Class<?> c : permitted) {
        out.append(c.getSimpleName()).append(',');
      }
      out.append("}\n");
      for (Class<?> c : permitted) {
        describe(c, out, seen);
      }
    } else if (raw.isRecord()) {
      for (RecordComponent rc : raw.getRecordComponents()) {
        out.append(rc.getGenericType().getTypeName()).append(' ').append(rc.getName()).append(',');
      }
      out.append("}\n");
      for (RecordComponent rc : raw.getRecordComponents()) {
        describe(rc.getGenericType(), out, seen);
      }
    } else {
      out.append("}\n");
    }
  }
}
