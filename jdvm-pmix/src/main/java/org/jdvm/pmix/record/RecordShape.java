package org.jdvm.pmix.record;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A record class as {@link RecordCodec}'s generic codec reaches it, by reflection once per class:
 * its components in order, a plain function per accessor, and its canonical constructor.
 */
final class RecordShape {
  private final Class<?> type;
  private final RecordComponent[] components;
  private final Class<?>[] raw;
  private final Function<Object, Object>[] getters;
  private final ToLongFunction<Object>[] longs;
  private final MethodHandle constructor;

  @SuppressWarnings("unchecked")
  private RecordShape(Class<?> type) {
    this.type = type;
    this.components = type.getRecordComponents();
    int n = components.length;
    this.raw = new Class<?>[n];
    this.getters = new Function[n];
    this.longs = new ToLongFunction[n];
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      for (int i = 0; i < n; i++) {
        Method m = components[i].getAccessor();
        m.setAccessible(true);
        MethodHandle accessor =
            lookup.unreflect(m).asType(MethodType.methodType(Object.class, Object.class));
        getters[i] = getter(lookup, type, m, accessor);
        raw[i] = components[i].getType();
        if (raw[i] == long.class || raw[i] == int.class) {
          longs[i] = longGetter(lookup, type, m);
        }
      }
      Constructor<?> c = type.getDeclaredConstructor(raw);
      c.setAccessible(true);
      constructor =
          lookup
              .unreflectConstructor(c)
              .asSpreader(Object[].class, n)
              .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot encode a " + type.getName(), e);
    }
  }

  static RecordShape of(Class<?> type) {
    return new RecordShape(type);
  }

  int size() {
    return components.length;
  }

  /** The class of component {@code i}. */
  Class<?> raw(int i) {
    return raw[i];
  }

  /** The generic type of component {@code i}. */
  Type type(int i) {
    return components[i].getGenericType();
  }

  /** Component {@code i} of {@code value}, boxed. */
  Object get(int i, Object value) {
    return getters[i].apply(value);
  }

  /** The unboxing accessor of an {@code int} or {@code long} component {@code i}, else null. */
  ToLongFunction<Object> number(int i) {
    return longs[i];
  }

  /**
   * The record of these component values.
   *
   * @throws Bytes.Corrupt if the record's own validation refuses them: the bytes are not what was
   *     written
   */
  Object construct(Object[] args) {
    try {
      return constructor.invokeExact(args);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new Bytes.Corrupt(type.getSimpleName() + ": " + e);
    } catch (Throwable t) {
      if (t instanceof RuntimeException r && !(r instanceof IllegalStateException)) {
        throw new Bytes.Corrupt(type.getSimpleName() + ": " + r);
      }
      throw new IllegalStateException("cannot build a " + type.getName(), t);
    }
  }

  /**
   * A record component's accessor as a plain function: a class spun by {@link LambdaMetafactory}
   * where this class may see the record, which costs an interface call instead of a method-handle
   * invocation chain (the controller's JVM runs C1 only, which does not inline those); otherwise
   * the method handle.
   */
  private static Function<Object, Object> getter(
      MethodHandles.Lookup lookup, Class<?> type, Method m, MethodHandle handle) {
    try {
      Class<?> ret = m.getReturnType();
      Class<?> boxed = ret.isPrimitive() ? MethodType.methodType(ret).wrap().returnType() : ret;
      @SuppressWarnings("unchecked")
      Function<Object, Object> f =
          (Function<Object, Object>)
              LambdaMetafactory.metafactory(
                      lookup,
                      "apply",
                      MethodType.methodType(Function.class),
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
   * A {@code long} or {@code int} component's accessor as a {@link ToLongFunction} spun like {@link
   * #getter}, so the value is written without boxing it; null where the lookup may not see the
   * record (the boxed getter is used then).
   */
  @SuppressWarnings("unchecked")
  private static ToLongFunction<Object> longGetter(
      MethodHandles.Lookup lookup, Class<?> type, Method m) {
    try {
      return (ToLongFunction<Object>)
          LambdaMetafactory.metafactory(
                  lookup,
                  "applyAsLong",
                  MethodType.methodType(ToLongFunction.class),
                  MethodType.methodType(long.class, Object.class),
                  lookup.unreflect(m),
                  MethodType.methodType(long.class, type))
              .getTarget()
              .invokeExact();
    } catch (Throwable notVisible) {
      return null;
    }
  }
}
