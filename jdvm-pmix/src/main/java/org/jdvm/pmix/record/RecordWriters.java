package org.jdvm.pmix.record;

import static java.lang.constant.ConstantDescs.CD_Class;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessFlag;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import org.jdvm.pmix.Value;

/**
 * Writers generated per root type, byte for byte what {@link RecordCodec}'s generic writer writes
 * in the layout with presence bytes (docs/journal.md "Encoding"). The generic writer walks a tree
 * of codecs: every component costs a getter call, a presence wrapper and the component's codec,
 * each an interface call that sees many receivers, and boxes every {@code int} or {@code long} it
 * reads through a getter. The journal encodes on the controller's path, and that dispatch was most
 * of the journal's cost there. A generated writer is one hidden class per root type with one static
 * method per record, sealed interface and collection shape reachable from it: accessors are called
 * directly, presence bytes, numbers, enums and strings are written inline, and nested shapes are
 * static calls the JIT can inline.
 *
 * <p>A root the generator cannot serve (a record this package may not see, a map anywhere in its
 * shapes, a shape the codec does not know) keeps the generic writer, which then behaves as before,
 * errors included.
 */
final class RecordWriters {
  private RecordWriters() {}

  /** Writes one value of a root type, its presence byte first. */
  interface Writer {
    void write(Bytes.Out out, Object value);
  }

  private static final ClassDesc CD_OUT = ClassDesc.of(Bytes.Out.class.getName());
  private static final ClassDesc CD_WRITER = ClassDesc.of(Writer.class.getName());
  private static final ClassDesc CD_SELF = ClassDesc.of(RecordWriters.class.getName());
  private static final MethodTypeDesc MTD_WRITE = MethodTypeDesc.of(CD_void, CD_OUT, CD_Object);
  private static final MethodTypeDesc MTD_OUT_INT = MethodTypeDesc.of(CD_OUT, CD_int);
  private static final MethodTypeDesc MTD_OUT_LONG = MethodTypeDesc.of(CD_OUT, CD_long);
  private static final MethodTypeDesc MTD_OUT_BOOL = MethodTypeDesc.of(CD_OUT, CD_boolean);

  /**
   * The generated writer of {@code root}.
   *
   * @throws IllegalArgumentException if no writer can be generated for it (the caller keeps the
   *     generic one)
   */
  static Writer generate(Class<?> root) {
    if (root.isPrimitive()) {
      throw new IllegalArgumentException("a primitive root has no presence byte");
    }
    // The JVM names a hidden class after this name; the class calls its own methods by it.
    ClassDesc name = ClassDesc.of(RecordWriters.class.getName() + "$" + root.getSimpleName());
    Generator g = new Generator(name);
    byte[] bytes;
    try {
      bytes =
          ClassFile.of(
                  ClassFile.ClassHierarchyResolverOption.of(
                      ClassHierarchyResolver.defaultResolver()
                          .orElse(
                              ClassHierarchyResolver.ofClassLoading(
                                  RecordWriters.class.getClassLoader()))))
              .build(name, clb -> g.build(clb, root));
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("cannot generate a writer of " + root.getName(), e);
    }
    try {
      MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
      return (Writer)
          hidden
              .findConstructor(
                  hidden.lookupClass(), java.lang.invoke.MethodType.methodType(void.class))
              .invoke();
    } catch (Throwable t) {
      throw new IllegalArgumentException("cannot load the writer of " + root.getName(), t);
    }
  }

  /** Packs a present PMIx value as the generic writer does (called by generated code). */
  static void value(Bytes.Out out, Object v) {
    RecordCodec.packValue(out, (Value) v);
  }

  /** The refusal of a value that is none of a sealed type's kinds (called by generated code). */
  static RuntimeException notPermitted(String sealed, Object v) {
    return new IllegalArgumentException("not a permitted " + sealed + ": " + v);
  }

  /** One class being generated: the static method of each shape, generated once each. */
  private static final class Generator {
    private final Map<Type, String> methods = new HashMap<>();
    private final ArrayDeque<Type> pending = new ArrayDeque<>();
    private final MethodHandles.Lookup lookup = MethodHandles.lookup();
    private final ClassDesc self;

    Generator(ClassDesc self) {
      this.self = self;
    }

    void build(ClassBuilder clb, Class<?> root) {
      clb.withFlags(AccessFlag.FINAL, AccessFlag.SYNTHETIC)
          .withInterfaceSymbols(CD_WRITER)
          .withMethodBody(
              INIT_NAME,
              MTD_void,
              ClassFile.ACC_PUBLIC,
              cb -> cb.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_())
          .withMethodBody(
              "write",
              MTD_WRITE,
              ClassFile.ACC_PUBLIC,
              cb -> {
                reference(cb, root, 2, 1); // an instance method: out is local 1, the value 2
                cb.return_();
              });
      while (!pending.isEmpty()) {
        Type t = pending.poll();
        clb.withMethodBody(
            methods.get(t),
            MTD_WRITE,
            ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC,
            cb -> body(cb, t));
      }
    }

    /** The static method that writes a present value of a compound shape. */
    private String method(Type t) {
      String name = methods.get(t);
      if (name == null) {
        name = "w" + methods.size();
        methods.put(t, name);
        pending.add(t);
      }
      return name;
    }

    /** A class the generated code names: it must be visible from this package. */
    private ClassDesc desc(Class<?> c) {
      try {
        lookup.accessClass(c);
        // Resolved by name from this package's loader when it first runs: it must be this class.
        if (Class.forName(c.getName(), false, RecordWriters.class.getClassLoader()) != c) {
          throw new IllegalArgumentException("another " + c.getName() + " by that name");
        }
      } catch (IllegalAccessException | ClassNotFoundException e) {
        throw new IllegalArgumentException("cannot see " + c.getName(), e);
      }
      return c.describeConstable()
          .orElseThrow(() -> new IllegalArgumentException("cannot name " + c.getName()));
    }

    /** A reference value in local {@code value}: its presence byte, then the value if present. */
    private void reference(CodeBuilder cb, Type type, int value, int out) {
      Label present = cb.newLabel();
      Label done = cb.newLabel();
      cb.aload(value).ifnonnull(present);
      cb.aload(out).iconst_0().invokevirtual(CD_OUT, "u8", MTD_OUT_INT).pop().goto_(done);
      cb.labelBinding(present);
      cb.aload(out).iconst_1().invokevirtual(CD_OUT, "u8", MTD_OUT_INT).pop();
      leaf(cb, type, value, out);
      cb.labelBinding(done);
    }

    /**
     * A present value in local {@code value}, without a presence byte (the generic layout's present
     * codec).
     */
    private void leaf(CodeBuilder cb, Type type, int value, int out) {
      if (type instanceof ParameterizedType p) {
        Class<?> raw = (Class<?>) p.getRawType();
        if (raw != List.class && raw != Set.class) {
          throw new IllegalArgumentException("cannot encode a " + type);
        }
        cb.aload(out).aload(value).invokestatic(self, method(p), MTD_WRITE);
        return;
      }
      if (!(type instanceof Class<?> raw)) {
        throw new IllegalArgumentException("cannot encode a " + type);
      }
      if (raw == Integer.class) {
        cb.aload(out).aload(value).checkcast(ClassDesc.of("java.lang.Integer"));
        cb.invokevirtual(ClassDesc.of("java.lang.Integer"), "intValue", MethodTypeDesc.of(CD_int));
        cb.invokevirtual(CD_OUT, "i32", MTD_OUT_INT).pop();
      } else if (raw == Long.class) {
        cb.aload(out).aload(value).checkcast(ClassDesc.of("java.lang.Long"));
        cb.invokevirtual(ClassDesc.of("java.lang.Long"), "longValue", MethodTypeDesc.of(CD_long));
        cb.invokevirtual(CD_OUT, "i64", MTD_OUT_LONG).pop();
      } else if (raw == Boolean.class) {
        cb.aload(out).aload(value).checkcast(ClassDesc.of("java.lang.Boolean"));
        cb.invokevirtual(
            ClassDesc.of("java.lang.Boolean"), "booleanValue", MethodTypeDesc.of(CD_boolean));
        cb.invokevirtual(CD_OUT, "bool", MTD_OUT_BOOL).pop();
      } else if (raw == String.class) {
        cb.aload(out).aload(value).checkcast(CD_String);
        cb.invokevirtual(CD_OUT, "str", MethodTypeDesc.of(CD_OUT, CD_String)).pop();
      } else if (raw == byte[].class) {
        ClassDesc bytes = ClassDesc.ofDescriptor("[B");
        cb.aload(out).aload(value).checkcast(bytes);
        cb.invokevirtual(CD_OUT, "blob", MethodTypeDesc.of(CD_OUT, bytes)).pop();
      } else if (raw.isEnum()) {
        ClassDesc e = ClassDesc.of("java.lang.Enum");
        cb.aload(out).aload(value).checkcast(e);
        cb.invokevirtual(e, "ordinal", MethodTypeDesc.of(CD_int));
        cb.invokevirtual(CD_OUT, "i32", MTD_OUT_INT).pop();
      } else if (raw == Value.class) {
        cb.aload(out).aload(value).invokestatic(CD_SELF, "value", MTD_WRITE);
      } else if (raw.isSealed() || raw.isRecord()) {
        cb.aload(out).aload(value).invokestatic(self, method(raw), MTD_WRITE);
      } else {
        throw new IllegalArgumentException("cannot encode a " + raw.getName());
      }
    }

    /** The body of a shape's static method: out is local 0, the present value local 1. */
    private void body(CodeBuilder cb, Type t) {
      if (t instanceof ParameterizedType p) {
        collection(cb, p);
      } else if (((Class<?>) t).isSealed()) {
        sealed(cb, (Class<?>) t);
      } else {
        record(cb, (Class<?>) t);
      }
      cb.return_();
    }

    private void record(CodeBuilder cb, Class<?> type) {
      ClassDesc rec = desc(type);
      int r = cb.allocateLocal(TypeKind.REFERENCE);
      cb.aload(1).checkcast(rec).astore(r);
      for (RecordComponent rc : type.getRecordComponents()) {
        Class<?> c = rc.getType();
        String name = rc.getAccessor().getName();
        if (c == int.class) {
          cb.aload(0).aload(r).invokevirtual(rec, name, MethodTypeDesc.of(CD_int));
          cb.invokevirtual(CD_OUT, "i32", MTD_OUT_INT).pop();
        } else if (c == long.class) {
          cb.aload(0).aload(r).invokevirtual(rec, name, MethodTypeDesc.of(CD_long));
          cb.invokevirtual(CD_OUT, "i64", MTD_OUT_LONG).pop();
        } else if (c == boolean.class) {
          cb.aload(0).aload(r).invokevirtual(rec, name, MethodTypeDesc.of(CD_boolean));
          cb.invokevirtual(CD_OUT, "bool", MTD_OUT_BOOL).pop();
        } else if (c.isPrimitive()) {
          throw new IllegalArgumentException("cannot encode a " + c.getName());
        } else {
          int v = cb.allocateLocal(TypeKind.REFERENCE);
          ClassDesc ret =
              c.describeConstable()
                  .orElseThrow(() -> new IllegalArgumentException("cannot name " + c.getName()));
          cb.aload(r).invokevirtual(rec, name, MethodTypeDesc.of(ret));
          cb.astore(v);
          reference(cb, rc.getGenericType(), v, 0);
        }
      }
    }

    private void sealed(CodeBuilder cb, Class<?> type) {
      Class<?>[] permitted = type.getPermittedSubclasses();
      int k = cb.allocateLocal(TypeKind.REFERENCE);
      cb.aload(1).invokevirtual(CD_Object, "getClass", MethodTypeDesc.of(CD_Class)).astore(k);
      for (int i = 0; i < permitted.length; i++) {
        Label next = cb.newLabel();
        cb.aload(k).ldc(desc(permitted[i])).if_acmpne(next);
        cb.aload(0).loadConstant(i).invokevirtual(CD_OUT, "u8", MTD_OUT_INT).pop();
        leaf(cb, permitted[i], 1, 0);
        cb.return_();
        cb.labelBinding(next);
      }
      cb.ldc(type.getSimpleName()).aload(1);
      cb.invokestatic(
          CD_SELF,
          "notPermitted",
          MethodTypeDesc.of(ClassDesc.of("java.lang.RuntimeException"), CD_String, CD_Object));
      cb.athrow();
    }

    private void collection(CodeBuilder cb, ParameterizedType type) {
      Type item = type.getActualTypeArguments()[0];
      ClassDesc list = ClassDesc.of(List.class.getName());
      ClassDesc coll = ClassDesc.of(Collection.class.getName());
      ClassDesc iter = ClassDesc.of(Iterator.class.getName());
      Label iterate = cb.newLabel();
      // A random-access list by index, anything else by its iterator: the same bytes either way.
      cb.aload(1).instanceOf(list).ifeq(iterate);
      cb.aload(1).instanceOf(ClassDesc.of(RandomAccess.class.getName())).ifeq(iterate);
      int l = cb.allocateLocal(TypeKind.REFERENCE);
      int n = cb.allocateLocal(TypeKind.INT);
      int i = cb.allocateLocal(TypeKind.INT);
      int x = cb.allocateLocal(TypeKind.REFERENCE);
      cb.aload(1).checkcast(list).astore(l);
      cb.aload(l).invokeinterface(list, "size", MethodTypeDesc.of(CD_int)).istore(n);
      cb.aload(0).iload(n).invokevirtual(CD_OUT, "i32", MTD_OUT_INT).pop();
      cb.iconst_0().istore(i);
      Label loop = cb.newLabel();
      Label end = cb.newLabel();
      cb.labelBinding(loop);
      cb.iload(i).iload(n).if_icmpge(end);
      cb.aload(l).iload(i).invokeinterface(list, "get", MethodTypeDesc.of(CD_Object, CD_int));
      cb.astore(x);
      reference(cb, item, x, 0);
      cb.iinc(i, 1).goto_(loop);
      cb.labelBinding(end);
      cb.return_();
      cb.labelBinding(iterate);
      int c = cb.allocateLocal(TypeKind.REFERENCE);
      int it = cb.allocateLocal(TypeKind.REFERENCE);
      int y = cb.allocateLocal(TypeKind.REFERENCE);
      cb.aload(1).checkcast(coll).astore(c);
      cb.aload(0).aload(c).invokeinterface(coll, "size", MethodTypeDesc.of(CD_int));
      cb.invokevirtual(CD_OUT, "i32", MTD_OUT_INT).pop();
      cb.aload(c).invokeinterface(coll, "iterator", MethodTypeDesc.of(iter)).astore(it);
      Label loop2 = cb.newLabel();
      Label end2 = cb.newLabel();
      cb.labelBinding(loop2);
      cb.aload(it).invokeinterface(iter, "hasNext", MethodTypeDesc.of(CD_boolean)).ifeq(end2);
      cb.aload(it).invokeinterface(iter, "next", MethodTypeDesc.of(CD_Object)).astore(y);
      reference(cb, item, y, 0);
      cb.goto_(loop2);
      cb.labelBinding(end2);
    }
  }
}
