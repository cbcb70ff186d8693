package org.jdvm.core.journal;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
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
 * Encodes the core's vocabulary — records, the sealed interfaces over them, enums, lists, boxed
 * numbers, strings, and PMIx values — by the shape of the types themselves, so every {@code Change}
 * and {@code Effect} the core can produce is journaled without a hand-written case that could fall
 * behind. A sealed interface's record is tagged by its place among the permitted subclasses; {@link
 * #fingerprint} renders every shape reachable from a root, so a journal written by a build whose
 * vocabulary differs is recognised and refused rather than misread.
 *
 * <p>Every reference is preceded by a presence byte; a PMIx value travels in the PMIx v61 wire
 * encoding (pmix-wire.md) as a length-prefixed blob.
 */
public final class RecordCodec {
  private static final WireFormat VALUE_FORMAT = WireFormat.V61;

  private RecordCodec() {}

  private record Shape(Method[] accessors, Type[] types, Constructor<?> constructor) {}

  private static final ClassValue<Shape> SHAPES =
      new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
          RecordComponent[] rc = type.getRecordComponents();
          Method[] accessors = new Method[rc.length];
          Type[] types = new Type[rc.length];
          Class<?>[] raw = new Class<?>[rc.length];
          for (int i = 0; i < rc.length; i++) {
            accessors[i] = rc[i].getAccessor();
            accessors[i].setAccessible(true);
            types[i] = rc[i].getGenericType();
            raw[i] = rc[i].getType();
          }
          try {
            Constructor<?> c = type.getDeclaredConstructor(raw);
            c.setAccessible(true);
            return new Shape(accessors, types, c);
          } catch (NoSuchMethodException e) {
            throw new IllegalStateException("no canonical constructor: " + type, e);
          }
        }
      };

  /** Writes {@code value} as {@code type}. */
  public static void write(Bytes.Out out, Type type, Object value) {
    Class<?> raw = raw(type);
    if (raw == int.class) {
      out.i32((Integer) value);
    } else if (raw == long.class) {
      out.i64((Long) value);
    } else if (raw == boolean.class) {
      out.bool((Boolean) value);
    } else if (value == null) {
      out.u8(0);
    } else {
      out.u8(1);
      writePresent(out, type, raw, value);
    }
  }

  private static void writePresent(Bytes.Out out, Type type, Class<?> raw, Object value) {
    if (raw == String.class) {
      out.str((String) value);
    } else if (raw == byte[].class) {
      out.blob((byte[]) value);
    } else if (raw == Integer.class) {
      out.i32((Integer) value);
    } else if (raw == Long.class) {
      out.i64((Long) value);
    } else if (raw == Boolean.class) {
      out.bool((Boolean) value);
    } else if (raw.isEnum()) {
      out.i32(((Enum<?>) value).ordinal());
    } else if (raw == List.class || raw == Set.class) {
      Collection<?> items = (Collection<?>) value;
      Type item = ((ParameterizedType) type).getActualTypeArguments()[0];
      out.i32(items.size());
      for (Object o : items) {
        write(out, item, o);
      }
    } else if (raw == Value.class) {
      out.blob(new Packer(VALUE_FORMAT).packValue((Value) value).toByteArray());
    } else if (raw.isSealed()) {
      Class<?>[] permitted = raw.getPermittedSubclasses();
      for (int i = 0; i < permitted.length; i++) {
        if (permitted[i] == value.getClass()) {
          out.u8(i);
          writeRecord(out, value);
          return;
        }
      }
      throw new IllegalArgumentException("not a permitted " + raw.getSimpleName() + ": " + value);
    } else if (raw.isRecord()) {
      writeRecord(out, value);
    } else {
      throw new IllegalArgumentException("cannot journal a " + raw.getName());
    }
  }

  private static void writeRecord(Bytes.Out out, Object record) {
    Shape shape = SHAPES.get(record.getClass());
    for (int i = 0; i < shape.accessors.length; i++) {
      Object v;
      try {
        v = shape.accessors[i].invoke(record);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read " + shape.accessors[i], e);
      }
      write(out, shape.types[i], v);
    }
  }

  /**
   * Reads a value of {@code type}.
   *
   * @throws Bytes.Corrupt if the bytes are not a value of that type
   */
  public static Object read(Bytes.In in, Type type) {
    Class<?> raw = raw(type);
    if (raw == int.class) {
      return in.i32();
    } else if (raw == long.class) {
      return in.i64();
    } else if (raw == boolean.class) {
      return in.bool();
    }
    return in.bool() ? readPresent(in, type, raw) : null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object readPresent(Bytes.In in, Type type, Class<?> raw) {
    if (raw == String.class) {
      String s = in.str();
      if (s == null) {
        throw new Bytes.Corrupt("a present string is null");
      }
      return s;
    } else if (raw == byte[].class) {
      return in.blob();
    } else if (raw == Integer.class) {
      return in.i32();
    } else if (raw == Long.class) {
      return in.i64();
    } else if (raw == Boolean.class) {
      return in.bool();
    } else if (raw.isEnum()) {
      Object[] constants = raw.getEnumConstants();
      int i = in.i32();
      if (i < 0 || i >= constants.length) {
        throw new Bytes.Corrupt("no constant " + i + " of " + raw.getSimpleName());
      }
      return constants[i];
    } else if (raw == List.class || raw == Set.class) {
      Type item = ((ParameterizedType) type).getActualTypeArguments()[0];
      int n = in.count(1);
      List<Object> items = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        items.add(read(in, item));
      }
      if (raw == List.class) {
        return items;
      }
      Class<?> itemClass = raw(item);
      if (itemClass.isEnum()) {
        EnumSet set = EnumSet.noneOf((Class<Enum>) itemClass);
        set.addAll(items);
        return set;
      }
      return new LinkedHashSet<>(items);
    } else if (raw == Value.class) {
      byte[] b = in.blob();
      try {
        Unpacker u = new Unpacker(VALUE_FORMAT, b);
        Value v = u.unpackValue();
        u.expectEnd();
        return v;
      } catch (WireException | IllegalArgumentException e) {
        throw new Bytes.Corrupt("a PMIx value does not decode: " + e.getMessage());
      }
    } else if (raw.isSealed()) {
      Class<?>[] permitted = raw.getPermittedSubclasses();
      int tag = in.u8();
      if (tag >= permitted.length) {
        throw new Bytes.Corrupt("no kind " + tag + " of " + raw.getSimpleName());
      }
      return readRecord(in, permitted[tag]);
    } else if (raw.isRecord()) {
      return readRecord(in, raw);
    }
    throw new IllegalArgumentException("cannot journal a " + raw.getName());
  }

  private static Object readRecord(Bytes.In in, Class<?> type) {
    Shape shape = SHAPES.get(type);
    Object[] args = new Object[shape.types.length];
    for (int i = 0; i < args.length; i++) {
      args[i] = read(in, shape.types[i]);
    }
    try {
      return shape.constructor.newInstance(args);
    } catch (InvocationTargetException e) {
      // The record's own validation refused the values: the bytes are not what was written.
      throw new Bytes.Corrupt(type.getSimpleName() + ": " + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build a " + type.getName(), e);
    }
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
    throw new IllegalArgumentException("cannot journal a " + type);
  }
}
