package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.jdvm.core.AskTerms;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;
import org.jdvm.scheduler.EmbeddedScheduler;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.slurm.SlurmRecovery;
import org.junit.jupiter.api.Test;

/**
 * docs/journal.md "Encoding": the writers generated per type write exactly the bytes of the generic
 * writer, for random values of every shape the journal and the snapshot write (seeded, plain
 * JUnit), and the bytes of a few fixed entries are those the generic writer wrote before the
 * generated ones existed.
 */
class RecordCodecEquivalenceTest {
  /** Every type the journal, the snapshot and the schedulers' notes write as a root. */
  private static final List<Class<?>> ROOTS =
      List.of(
          Entry.class,
          Change.class,
          Effect.class,
          EmbeddedScheduler.Saved.class,
          SchedulerEvent.class,
          SlurmRecovery.Saved.class,
          Proc.class,
          AskTerms.class,
          App.class,
          Info.class,
          ProcEnd.class,
          AllocInheritance.class,
          Integer.class,
          Long.class);

  @Test
  void everyRootTheJournalWritesHasAGeneratedWriter() {
    for (Class<?> root : ROOTS) {
      assertThat(RecordCodec.generated(root)).as(root.getName()).isTrue();
    }
  }

  @Test
  void generatedWritersWriteTheGenericWritersBytesForRandomValuesOfEveryShape() {
    Map<String, Integer> built = new TreeMap<>();
    int values = 0;
    for (long seed = 0; seed < 400; seed++) {
      Values gen = new Values(new Random(seed), built);
      for (Class<?> root : ROOTS) {
        Object v = gen.random.nextInt(20) == 0 ? null : gen.of(root, 0);
        byte[] fast = bytes(root, v, false);
        byte[] generic = bytes(root, v, true);
        assertThat(fast).as("seed %d, %s", seed, v).isEqualTo(generic);
        // And the bytes read back into a value that writes them again.
        Object back = RecordCodec.read(new Bytes.In(fast), root);
        assertThat(bytes(root, back, false)).as("seed %d, %s", seed, v).isEqualTo(fast);
        values++;
      }
    }
    assertThat(values).isEqualTo(400 * ROOTS.size());
    // Every kind of change, effect and entry was among them, and the schedulers' records.
    for (Class<?> sealed : List.of(Entry.class, Change.class, Effect.class, SchedulerEvent.class)) {
      for (Class<?> kind : sealed.getPermittedSubclasses()) {
        assertThat(built.getOrDefault(kind.getName(), 0)).as(kind.getName()).isGreaterThan(5);
      }
    }
    for (Class<?> r :
        List.of(
            EmbeddedScheduler.SavedNode.class,
            EmbeddedScheduler.SavedAllocation.class,
            NodeGrant.class)) {
      assertThat(built.getOrDefault(r.getName(), 0)).as(r.getName()).isGreaterThan(5);
    }
  }

  @Test
  void aFramedBatchHasTheBytesTheGenericWriterWroteBeforeWritersWereGenerated() {
    // Computed with the generic writer and the copying framing of commit 8ead487.
    Entry.Batch batch =
        new Entry.Batch(
            7,
            1_000,
            42,
            9,
            List.of(new Change.OwnerAdded("a.1", "j@7"), new Change.JobLaunched("j@7")),
            List.of(new Effect.CancelAsk(3)),
            List.of(new Entry.Note("warned", "s\u00e9", new byte[] {1, 2})));
    assertThat(HexFormat.of().formatHex(JournalCodec.framed(batch))).isEqualTo(GOLDEN_BATCH);
    Entry.Header header =
        new Entry.Header(
            JournalCodec.VOCABULARY, CoreConfig.of("j", List.of(new NodeSpec("n0", 2))), 5);
    byte[] framed = JournalCodec.framed(header);
    // The header's first field is this build's vocabulary: compare what follows it.
    assertThat(HexFormat.of().formatHex(framed, 14, framed.length)).isEqualTo(GOLDEN_HEADER_TAIL);
  }

  private static final String GOLDEN_BATCH =
      "00000072074bc0c50101000000000000000700000000000003e8000000000000002a00000000000000090100"
          + "00000201020100000003612e3101000000036a4037010601000000036a40370100000001010200000000"
          + "0000000301000000010101000000067761726e6564010000000373c3a901000000020102";
  private static final String GOLDEN_HEADER_TAIL =
      "0101000000016a01000000010101000000026e30000000020100000000000027100100100000001000000000"
          + "1000000400000004000000040000000004000000000000000005";

  private static byte[] bytes(Class<?> root, Object v, boolean generic) {
    Bytes.Out out = new Bytes.Out(16);
    if (generic) {
      RecordCodec.writeGeneric(out, root, v);
    } else {
      RecordCodec.write(out, root, v);
    }
    return out.toByteArray();
  }

  /** Random values of a type, built through the records' own constructors. */
  private static final class Values {
    private static final String CHARS = "abcxyz019.-_@ \u00e9\u00df\u65e5\u0000\uD800\uDE00";
    final Random random;
    private final Map<String, Integer> built;

    /**
     * Small positive numbers and plain names only: for a record whose constructor refused the
     * wilder values many times (limits must be positive, names well-formed).
     */
    private boolean tame;

    Values(Random random, Map<String, Integer> built) {
      this.random = random;
      this.built = built;
    }

    Object of(Type type, int depth) {
      if (type instanceof ParameterizedType p) {
        Class<?> raw = (Class<?>) p.getRawType();
        int n = depth > 6 ? 0 : random.nextInt(4);
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          items.add(nullable(p.getActualTypeArguments()[0], depth + 1));
        }
        // A linked list too: the writers walk a list that is not random-access by its iterator.
        return raw == Set.class
            ? new LinkedHashSet<>(items)
            : random.nextBoolean() ? items : new LinkedList<>(items);
      }
      Class<?> c = (Class<?>) type;
      if (tame && (c == int.class || c == Integer.class)) {
        return 1 + random.nextInt(9);
      } else if (tame && (c == long.class || c == Long.class)) {
        return 1L + random.nextInt(1000);
      } else if (tame && c == String.class) {
        return "n" + random.nextInt(9);
      } else if (c == int.class || c == Integer.class) {
        return switch (random.nextInt(5)) {
          case 0 -> 0;
          case 1 -> random.nextInt(10);
          case 2 -> Integer.MAX_VALUE;
          case 3 -> -1 - random.nextInt(5);
          default -> random.nextInt();
        };
      } else if (c == long.class || c == Long.class) {
        return switch (random.nextInt(5)) {
          case 0 -> 0L;
          case 1 -> (long) random.nextInt(10);
          case 2 -> Long.MIN_VALUE;
          case 3 -> 1L << 40;
          default -> random.nextLong();
        };
      } else if (c == boolean.class || c == Boolean.class) {
        return random.nextBoolean();
      } else if (c == String.class) {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(8);
        for (int i = 0; i < n; i++) {
          s.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return s.toString();
      } else if (c == byte[].class) {
        byte[] b = new byte[random.nextInt(6)];
        random.nextBytes(b);
        return b;
      } else if (c.isEnum()) {
        Object[] k = c.getEnumConstants();
        return k[random.nextInt(k.length)];
      } else if (c == Value.class) {
        return switch (random.nextInt(4)) {
          case 0 -> Value.string("v\u00e9" + random.nextInt(100)); // PMIx strings hold no NUL
          case 1 -> Value.int32(random.nextInt());
          case 2 -> Value.bool(random.nextBoolean());
          default -> Value.uint64(random.nextLong());
        };
      } else if (c.isSealed()) {
        Class<?>[] kinds = c.getPermittedSubclasses();
        return of(kinds[random.nextInt(kinds.length)], depth + 1);
      } else if (c.isRecord()) {
        return record(c, depth);
      }
      throw new IllegalArgumentException("no random " + c);
    }

    private Object nullable(Type type, int depth) {
      return random.nextInt(8) == 0 ? null : of(type, depth);
    }

    /** A record of random components; those its constructor refuses are drawn again. */
    private Object record(Class<?> c, int depth) {
      RecordComponent[] rc = c.getRecordComponents();
      Class<?>[] types = new Class<?>[rc.length];
      for (int i = 0; i < rc.length; i++) {
        types[i] = rc[i].getType();
      }
      RuntimeException last = null;
      for (int attempt = 0; attempt < 100; attempt++) {
        boolean wasTame = tame;
        tame = wasTame || attempt >= 10;
        Object[] args = new Object[rc.length];
        for (int i = 0; i < rc.length; i++) {
          boolean mayBeNull = !types[i].isPrimitive() && attempt < 10;
          args[i] =
              mayBeNull
                  ? nullable(rc[i].getGenericType(), depth + 1)
                  : of(rc[i].getGenericType(), depth + 1);
        }
        tame = wasTame;
        try {
          Constructor<?> k = c.getDeclaredConstructor(types);
          k.setAccessible(true);
          Object v = k.newInstance(args);
          built.merge(c.getName(), 1, Integer::sum);
          return v;
        } catch (InvocationTargetException e) {
          last = new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      throw new IllegalStateException("no random " + c.getName(), last);
    }
  }
}
