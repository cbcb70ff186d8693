package org.jdvm.pmix.record;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * Encodes a vocabulary of records — records, the sealed interfaces over them, enums, lists, boxed
 * numbers, strings, byte arrays and PMIx values — by the shape of the types themselves, so every
 * value of the vocabulary (every {@code Change} and {@code Effect} the core can produce, for the
 * journal) is encoded without a hand-written case that could fall behind. A sealed interface's
 * record is tagged by its place among the permitted subclasses; {@link #fingerprint} renders every
 * shape reachable from a root, so bytes written by a build whose vocabulary differs (a journal of
 * another build) are recognised and refused rather than misread.
 *
 * <p>Every reference is preceded by a presence byte; a PMIx value travels in the PMIx v61 wire
 * encoding (pmix-wire.md) as a length-prefixed blob.
 */
public final class RecordCodec {
  private static final WireFormat VALUE_FORMAT = WireFormat.V61;

  private RecordCodec() {}

  /** How values of one type are written and read, built once per type. */
  private interface Codec {
    void write(Bytes.Out out, Object value);

    Object read(Bytes.In in);
  }

  private static final ClassValue<Codec> CODECS =
      new ClassValue<>() {
        @Override
        protected Codec computeValue(Class<?> type) {
          return build(type);
        }
      };

  /** The codec of a type, with the presence byte every reference carries. */
  private static Codec codec(Type type) {
    Class<?> raw = raw(type);
    if (raw.isPrimitive()) {
      return CODECS.get(raw);
    }
    Codec inner = type instanceof ParameterizedType p ? collection(raw, p) : CODECS.get(raw);
    return new Codec() {
      @Override
      public void write(Bytes.Out out, Object value) {
        if (value == null) {
          out.u8(0);
        } else {
          out.u8(1);
          inner.write(out, value);
        }
      }

      @Override
      public Object read(Bytes.In in) {
        return in.bool() ? inner.read(in) : null;
      }
    };
  }

  /** The codec of a present value of a class (no presence byte). */
  private static Codec build(Class<?> raw) {
    if (raw == int.class || raw == Integer.class) {
      return of((out, v) -> out.i32((Integer) v), Bytes.In::i32);
    } else if (raw == long.class || raw == Long.class) {
      return of((out, v) -> out.i64((Long) v), Bytes.In::i64);
    } else if (raw == boolean.class || raw == Boolean.class) {
      return of((out, v) -> out.bool((Boolean) v), Bytes.In::bool);
    } else if (raw == String.class) {
      return of(
          (out, v) -> out.str((String) v),
          in -> {
            String s = in.str();
            if (s == null) {
              throw new Bytes.Corrupt("a present string is null");
            }
            return s;
          });
    } else if (raw == byte[].class) {
      return of((out, v) -> out.blob((byte[]) v), Bytes.In::blob);
    } else if (raw.isEnum()) {
      Object[] constants = raw.getEnumConstants();
      return of(
          (out, v) -> out.i32(((Enum<?>) v).ordinal()),
          in -> {
            int i = in.i32();
            if (i < 0 || i >= constants.length) {
              throw new Bytes.Corrupt("no constant " + i + " of " + raw.getSimpleName());
            }
            return constants[i];
          });
    } else if (raw == Value.class) {
      return of(
          (out, v) -> packValue(out, (Value) v),
          in -> {
            byte[] b = in.blob();
            try {
              Unpacker u = new Unpacker(VALUE_FORMAT, b);
              Value v = u.unpackValue();
              u.expectEnd();
              return v;
            } catch (WireException | IllegalArgumentException e) {
              throw new Bytes.Corrupt("a PMIx value does not decode: " + e.getMessage());
            }
          });
    } else if (raw.isSealed()) {
      return sealed(raw);
    } else if (raw.isRecord()) {
      return record(raw);
    }
    throw new IllegalArgumentException("cannot encode a " + raw.getName());
  }

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

  private interface Writer {
    void write(Bytes.Out out, Object value);
  }

  private interface Reader {
    Object read(Bytes.In in);
  }

  private static Codec of(Writer w, Reader r) {
    return new Codec() {
      @Override
      public void write(Bytes.Out out, Object value) {
        w.write(out, value);
      }

      @Override
      public Object read(Bytes.In in) {
        return r.read(in);
      }
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Codec collection(Class<?> raw, ParameterizedType type) {
    if (raw != List.class && raw != Set.class) {
      throw new IllegalArgumentException("cannot encode a " + type);
    }
    Type itemType = type.getActualTypeArguments()[0];
    Codec item = codec(itemType);
    Class<?> itemClass = raw(itemType);
    return of(
        (out, v) -> {
          if (v instanceof List<?> list && v instanceof java.util.RandomAccess) {
            int n = list.size();
            out.i32(n);
            for (int i = 0; i < n; i++) {
              item.write(out, list.get(i));
            }
            return;
          }
          Collection<?> items = (Collection<?>) v;
          out.i32(items.size());
          for (Object o : items) {
            item.write(out, o);
          }
        },
        in -> {
          int n = in.count(1);
          List<Object> items = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            items.add(item.read(in));
          }
          if (raw == List.class) {
            return items;
          }
          if (itemClass.isEnum()) {
            EnumSet set = EnumSet.noneOf((Class<Enum>) itemClass);
            set.addAll(items);
            return set;
          }
          return new LinkedHashSet<>(items);
        });
  }

  private static Codec sealed(Class<?> raw) {
    Class<?>[] permitted = raw.getPermittedSubclasses();
    java.util.Map<Class<?>, Integer> tags = new java.util.IdentityHashMap<>();
    for (int i = 0; i < permitted.length; i++) {
      tags.put(permitted[i], i);
    }
    // Each kind's codec, resolved on first use (a kind may name the sealed type itself) and then
    // kept: the journal writes on the controller's path, and a ClassValue lookup per value showed.
    Codec[] kinds = new Codec[permitted.length];
    java.util.function.IntFunction<Codec> kind =
        tag -> {
          Codec c = kinds[tag];
          if (c == null) {
            c = CODECS.get(permitted[tag]);
            kinds[tag] = c;
          }
          return c;
        };
    return of(
        (out, v) -> {
          Integer tag = tags.get(v.getClass());
          if (tag == null) {
            throw new IllegalArgumentException("not a permitted " + raw.getSimpleName() + ": " + v);
          }
          out.u8(tag);
          kind.apply(tag).write(out, v);
        },
        in -> {
          int tag = in.u8();
          if (tag >= permitted.length) {
            throw new Bytes.Corrupt("no kind " + tag + " of " + raw.getSimpleName());
          }
          return kind.apply(tag).read(in);
        });
  }

  /**
   * A record component's accessor as a plain function: a class spun by {@link
   * java.lang.invoke.LambdaMetafactory} where this class may see the record, which costs an
   * interface call instead of a method-handle invocation chain (the controller's JVM runs C1 only,
   * which does not inline those); otherwise the method handle.
   */
  private static java.util.function.Function<Object, Object> getter(
      MethodHandles.Lookup lookup, Class<?> type, Method m, MethodHandle handle) {
    try {
      Class<?> ret = m.getReturnType();
      Class<?> boxed = ret.isPrimitive() ? MethodType.methodType(ret).wrap().returnType() : ret;
      @SuppressWarnings("unchecked")
      java.util.function.Function<Object, Object> f =
          (java.util.function.Function<Object, Object>)
              java.lang.invoke.LambdaMetafactory.metafactory(
                      lookup,
                      "apply",
                      MethodType.methodType(java.util.function.Function.class),
                      MethodType.methodType(Object.class, Object.class),
                      lookup.unreflect(m),
                      MethodType.methodType(boxed, type))
                  .getTarget()
                  .invokeExact();
      return f;
    } catch (Throwable notVisible) {
      return value -> {
        try {
          return handle.invokeExact(value);
        } catch (Throwable t) {
          throw new IllegalStateException("cannot read " + m, t);
        }
      };
    }
  }

  /**
   * A {@code long} or {@code int} component's accessor as a {@link
   * java.util.function.ToLongFunction} spun like {@link #getter}, so the value is written without
   * boxing it; null where the lookup may not see the record (the boxed getter is used then).
   */
  @SuppressWarnings("unchecked")
  private static java.util.function.ToLongFunction<Object> longGetter(
      MethodHandles.Lookup lookup, Class<?> type, Method m) {
    try {
      return (java.util.function.ToLongFunction<Object>)
          java.lang.invoke.LambdaMetafactory.metafactory(
                  lookup,
                  "applyAsLong",
                  MethodType.methodType(java.util.function.ToLongFunction.class),
                  MethodType.methodType(long.class, Object.class),
                  lookup.unreflect(m),
                  MethodType.methodType(long.class, type))
              .getTarget()
              .invokeExact();
    } catch (Throwable notVisible) {
      return null;
    }
  }

  private static Codec record(Class<?> type) {
    RecordComponent[] rc = type.getRecordComponents();
    MethodHandle[] accessors = new MethodHandle[rc.length];
    @SuppressWarnings("unchecked")
    java.util.function.Function<Object, Object>[] getters =
        new java.util.function.Function[rc.length];
    @SuppressWarnings("unchecked")
    java.util.function.ToLongFunction<Object>[] longs =
        new java.util.function.ToLongFunction[rc.length];
    Codec[] parts = new Codec[rc.length];
    Class<?>[] raw = new Class<?>[rc.length];
    MethodHandle constructor;
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      for (int i = 0; i < rc.length; i++) {
        Method m = rc[i].getAccessor();
        m.setAccessible(true);
        accessors[i] =
            lookup.unreflect(m).asType(MethodType.methodType(Object.class, Object.class));
        getters[i] = getter(lookup, type, m, accessors[i]);
        raw[i] = rc[i].getType();
        if (raw[i] == long.class || raw[i] == int.class) {
          longs[i] = longGetter(lookup, type, m);
        }
      }
      Constructor<?> c = type.getDeclaredConstructor(raw);
      c.setAccessible(true);
      constructor =
          lookup
              .unreflectConstructor(c)
              .asSpreader(Object[].class, rc.length)
              .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot encode a " + type.getName(), e);
    }
    return new Codec() {
      @Override
      public void write(Bytes.Out out, Object value) {
        for (int i = 0; i < getters.length; i++) {
          java.util.function.ToLongFunction<Object> n = longs[i];
          if (n == null) {
            part(i).write(out, getters[i].apply(value));
          } else if (raw[i] == long.class) {
            out.i64(n.applyAsLong(value));
          } else {
            out.i32((int) n.applyAsLong(value));
          }
        }
      }

      @Override
      public Object read(Bytes.In in) {
        Object[] args = new Object[accessors.length];
        for (int i = 0; i < args.length; i++) {
          args[i] = part(i).read(in);
        }
        try {
          return constructor.invokeExact(args);
        } catch (IllegalArgumentException | NullPointerException e) {
          // The record's own validation refused the values: the bytes are not what was written.
          throw new Bytes.Corrupt(type.getSimpleName() + ": " + e);
        } catch (Throwable t) {
          if (t instanceof RuntimeException r && !(r instanceof IllegalStateException)) {
            throw new Bytes.Corrupt(type.getSimpleName() + ": " + r);
          }
          throw new IllegalStateException("cannot build a " + type.getName(), t);
        }
      }

      /** Resolved on first use, so a type may name itself through a component. */
      private Codec part(int i) {
        Codec c = parts[i];
        if (c == null) {
          c = rc[i].getType().isPrimitive() ? CODECS.get(raw[i]) : codec(rc[i].getGenericType());
          parts[i] = c;
        }
        return c;
      }
    };
  }

  /** Each root class's writer: the generated one, or the generic one if none can be generated. */
  private static final ClassValue<RecordWriters.Writer> WRITERS =
      new ClassValue<>() {
        @Override
        protected RecordWriters.Writer computeValue(Class<?> type) {
          try {
            return RecordWriters.generate(type);
          } catch (IllegalArgumentException cannot) {
            return new GenericWriter(codec(type)); // throws for a type the codec does not know
          }
        }
      };

  /**
   * Writes {@code value} as {@code type}: by the writer generated for a class ({@link
   * RecordWriters}), else by the generic writer; the bytes are the same.
   */
  public static void write(Bytes.Out out, Type type, Object value) {
    if (type instanceof Class<?> c) {
      WRITERS.get(c).write(out, value);
    } else {
      codec(type).write(out, value);
    }
  }

  /**
   * Writes {@code value} as {@code type} by the generic writer, which walks the type's shape value
   * by value: the reference the generated writers are checked against (tests, benchmarks).
   */
  public static void writeGeneric(Bytes.Out out, Type type, Object value) {
    codec(type).write(out, value);
  }

  /** Whether values of {@code type} are written by a generated writer (tests, benchmarks). */
  public static boolean generated(Class<?> type) {
    return !(WRITERS.get(type) instanceof GenericWriter);
  }

  private record GenericWriter(Codec codec) implements RecordWriters.Writer {
    @Override
    public void write(Bytes.Out out, Object value) {
      codec.write(out, value);
    }
  }

  /**
   * Reads a value of {@code type}.
   *
   * @throws Bytes.Corrupt if the bytes are not a value of that type
   */
  public static Object read(Bytes.In in, Type type) {
    return codec(type).read(in);
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
    Class<?> raw = raw(type);
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

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    throw new IllegalArgumentException("cannot encode a " + type);
  }
}
