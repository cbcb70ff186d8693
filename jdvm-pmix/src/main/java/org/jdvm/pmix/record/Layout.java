package org.jdvm.pmix.record;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * The generic codecs of one of {@link RecordCodec}'s layouts, built once per type: with a presence
 * byte before every reference (the journal's), or with none, every reference required (the agent
 * link's). Only references differ between the two; numbers, strings, enums, tags and counts are
 * written alike.
 */
final class Layout {
  /** How values of one type are written and read. */
  interface Codec {
    void write(Bytes.Out out, Object value);

    Object read(Bytes.In in);
  }

  /** Every reference preceded by a presence byte, {@code null} allowed (the journal). */
  static final Layout OPTIONAL = new Layout(true);

  /** No presence byte: a null anywhere is refused when written and never read (the agent link). */
  static final Layout REQUIRED = new Layout(false);

  /** A list's initial room, whatever count it declares: it grows with the items actually read. */
  private static final int FIRST_ROOM = 64;

  private final boolean presence;

  /** The codec of a present value of each class (no presence byte). */
  private final ClassValue<Codec> present =
      new ClassValue<>() {
        @Override
        protected Codec computeValue(Class<?> type) {
          return build(type);
        }
      };

  /** The codec of each class as a root (with its presence byte, or refusing null). */
  private final ClassValue<Codec> roots =
      new ClassValue<>() {
        @Override
        protected Codec computeValue(Class<?> type) {
          return codec(type);
        }
      };

  private Layout(boolean presence) {
    this.presence = presence;
  }

  /** The codec of a value of {@code type} as a root. */
  Codec root(Type type) {
    return type instanceof Class<?> c ? roots.get(c) : codec(type);
  }

  /** The codec of a value of {@code type} as a root, a component or an item. */
  Codec codec(Type type) {
    Class<?> raw = raw(type);
    if (raw.isPrimitive()) {
      return present.get(raw);
    }
    Codec inner = type instanceof ParameterizedType p ? container(raw, p) : present.get(raw);
    return presence ? optional(inner) : required(inner, type);
  }

  private static Codec optional(Codec inner) {
    return of(
        (out, v) -> {
          if (v == null) {
            out.u8(0);
          } else {
            out.u8(1);
            inner.write(out, v);
          }
        },
        in -> in.bool() ? inner.read(in) : null);
  }

  private static Codec required(Codec inner, Type type) {
    return of(
        (out, v) -> {
          if (v == null) {
            throw new IllegalArgumentException("a null " + type.getTypeName() + " is not allowed");
          }
          inner.write(out, v);
        },
        inner::read); // a present value's codec never reads a null
  }

  /** The codec of a present value of a class (no presence byte). */
  private Codec build(Class<?> raw) {
    Codec leaf = leaf(raw);
    if (leaf != null) {
      return leaf;
    } else if (raw.isSealed()) {
      return sealed(raw);
    } else if (raw.isRecord()) {
      return record(raw);
    }
    throw new IllegalArgumentException("cannot encode a " + raw.getName());
  }

  /** The codec of a present number, string, byte array, enum or PMIx value; null for others. */
  private static Codec leaf(Class<?> raw) {
    if (raw == int.class || raw == Integer.class) {
      return of((out, v) -> out.i32((Integer) v), Bytes.In::i32);
    } else if (raw == long.class || raw == Long.class) {
      return of((out, v) -> out.i64((Long) v), Bytes.In::i64);
    } else if (raw == boolean.class || raw == Boolean.class) {
      return of((out, v) -> out.bool((Boolean) v), Bytes.In::bool);
    } else if (raw == String.class) {
      return of((out, v) -> out.str((String) v), Layout::presentString);
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
      return of((out, v) -> RecordCodec.packValue(out, (Value) v), Layout::value);
    }
    return null;
  }

  private static String presentString(Bytes.In in) {
    String s = in.str();
    if (s == null) {
      throw new Bytes.Corrupt("a present string is null");
    }
    return s;
  }

  private static Value value(Bytes.In in) {
    byte[] b = in.blob();
    try {
      Unpacker u = new Unpacker(RecordCodec.VALUE_FORMAT, b);
      Value v = u.unpackValue();
      u.expectEnd();
      return v;
    } catch (WireException | IllegalArgumentException e) {
      throw new Bytes.Corrupt("a PMIx value does not decode: " + e.getMessage());
    }
  }

  private Codec container(Class<?> raw, ParameterizedType type) {
    Type[] args = type.getActualTypeArguments();
    if (raw == List.class || raw == Set.class) {
      return collection(raw, args[0], itemBytes(type, args));
    } else if (raw == Map.class) {
      return map(args[0], args[1], itemBytes(type, args));
    }
    throw new IllegalArgumentException("cannot encode a " + type);
  }

  /**
   * The fewest bytes one item of a container takes (a map's key and value together): a declared
   * count is checked against it before anything is read. An item that may take none is refused,
   * since a count of them could not be bounded by the bytes left.
   */
  private int itemBytes(ParameterizedType type, Type[] args) {
    int n = 0;
    for (Type a : args) {
      n += minBytes(a, new HashSet<>());
    }
    if (n == 0) {
      throw new IllegalArgumentException("cannot encode a " + type + ": its items take no bytes");
    }
    return n;
  }

  /** The fewest bytes a value of {@code type} takes in this layout. */
  private int minBytes(Type type, Set<Class<?>> visiting) {
    Class<?> raw = raw(type);
    if (presence && !raw.isPrimitive()) {
      return 1; // the presence byte
    } else if (raw == long.class || raw == Long.class) {
      return 8;
    } else if (raw == boolean.class || raw == Boolean.class) {
      return 1;
    } else if (raw.isEnum() || raw == Value.class || !(raw.isSealed() || raw.isRecord())) {
      return 4; // an int, or the length or count before a string, a blob or a container
    } else if (raw.isSealed()) {
      return 1; // the tag
    } else if (!visiting.add(raw)) {
      return 0;
    }
    int n = 0;
    for (RecordComponent c : raw.getRecordComponents()) {
      n = Math.min(1 << 20, n + minBytes(c.getGenericType(), visiting));
    }
    visiting.remove(raw);
    return n;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Codec collection(Class<?> raw, Type itemType, int itemBytes) {
    Codec item = codec(itemType);
    Class<?> itemClass = raw(itemType);
    return of(
        (out, v) -> {
          if (v instanceof List<?> list && v instanceof RandomAccess) {
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
          int n = in.count(itemBytes);
          List<Object> items = new ArrayList<>(Math.min(n, FIRST_ROOM));
          for (int i = 0; i < n; i++) {
            items.add(item.read(in));
          }
          if (raw == List.class) {
            return items;
          }
          if (itemClass.isEnum()) {
            if (items.contains(null)) {
              throw new Bytes.Corrupt("a null in a set of " + itemClass.getSimpleName());
            }
            EnumSet set = EnumSet.noneOf((Class<Enum>) itemClass);
            set.addAll(items);
            return set;
          }
          return new LinkedHashSet<>(items);
        });
  }

  /** A map as its count, then each key and its value; a key twice is corrupt. */
  private Codec map(Type keyType, Type valueType, int entryBytes) {
    Codec key = codec(keyType);
    Codec value = codec(valueType);
    return of(
        (out, v) -> {
          Map<?, ?> map = (Map<?, ?>) v;
          out.i32(map.size());
          for (Map.Entry<?, ?> e : map.entrySet()) {
            key.write(out, e.getKey());
            value.write(out, e.getValue());
          }
        },
        in -> {
          int n = in.count(entryBytes);
          Map<Object, Object> map = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            Object k = key.read(in);
            if (map.containsKey(k)) {
              throw new Bytes.Corrupt("the key " + k + " twice in one map");
            }
            map.put(k, value.read(in));
          }
          return map;
        });
  }

  private Codec sealed(Class<?> raw) {
    Class<?>[] permitted = raw.getPermittedSubclasses();
    Map<Class<?>, Integer> tags = new IdentityHashMap<>();
    for (int i = 0; i < permitted.length; i++) {
      tags.put(permitted[i], i);
    }
    // Each kind's codec, resolved on first use (a kind may name the sealed type itself) and then
    // kept: the journal writes on the controller's path, and a ClassValue lookup per value showed.
    Codec[] kinds = new Codec[permitted.length];
    IntFunction<Codec> kind =
        tag -> {
          Codec c = kinds[tag];
          if (c == null) {
            c = present.get(permitted[tag]);
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

  /** A record as its components in order; {@code int} and {@code long} ones written unboxed. */
  private Codec record(Class<?> type) {
    RecordShape shape = RecordShape.of(type);
    Codec[] parts = new Codec[shape.size()];
    return new Codec() {
      @Override
      public void write(Bytes.Out out, Object value) {
        for (int i = 0; i < parts.length; i++) {
          ToLongFunction<Object> n = shape.number(i);
          if (n == null) {
            part(i).write(out, shape.get(i, value));
          } else if (shape.raw(i) == long.class) {
            out.i64(n.applyAsLong(value));
          } else {
            out.i32((int) n.applyAsLong(value));
          }
        }
      }

      @Override
      public Object read(Bytes.In in) {
        Object[] args = new Object[parts.length];
        for (int i = 0; i < args.length; i++) {
          args[i] = part(i).read(in);
        }
        return shape.construct(args);
      }

      /** Resolved on first use, so a type may name itself through a component. */
      private Codec part(int i) {
        Codec c = parts[i];
        if (c == null) {
          c = shape.raw(i).isPrimitive() ? present.get(shape.raw(i)) : codec(shape.type(i));
          parts[i] = c;
        }
        return c;
      }
    };
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

  static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    throw new IllegalArgumentException("cannot encode a " + type);
  }
}
