package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.WireVectors.Vector;
import org.junit.jupiter.api.Test;

/**
 * Every golden vector, truncated at every byte offset and mutated at random under a fixed seed,
 * decodes to a value or to a {@link WireException} scoped to the message: never another exception,
 * an error, or a hang. The seed is printed; rerun with {@code -Djdvm.seed=N} to reproduce a
 * different run.
 */
class MalformedInputTest {
  private static final long SEED = Long.getLong("jdvm.seed", 20260821L);
  private static final int MUTANTS_PER_VECTOR = 300;
  private static final DataType[] TYPES = DataType.values();

  private int values;
  private int errors;

  @Test
  void everyTruncationDecodesToAValueOrACleanError() {
    for (Vector v : packable()) {
      for (BufferType mode : BufferType.values()) {
        byte[] bytes = v.bytes(mode);
        for (int length = 0; length < bytes.length; length++) {
          byte[] cut = Arrays.copyOf(bytes, length);
          decode(v, mode, cut, typeOf(v));
        }
      }
    }
    System.out.printf("truncations: %d decoded, %d refused cleanly%n", values, errors);
    assertThat(errors).isPositive();
  }

  @Test
  void randomMutationsDecodeToAValueOrACleanError() {
    Random random = new Random(SEED);
    for (Vector v : packable()) {
      for (BufferType mode : BufferType.values()) {
        byte[] bytes = v.bytes(mode);
        for (int i = 0; i < MUTANTS_PER_VECTOR; i++) {
          byte[] mutant = mutate(bytes, random);
          decode(v, mode, mutant, typeOf(v));
          decode(v, mode, mutant, TYPES[random.nextInt(TYPES.length)]);
        }
      }
    }
    System.out.printf(
        "mutations (seed %d): %d decoded, %d refused cleanly%n", SEED, values, errors);
    assertThat(values).isPositive();
    assertThat(errors).isPositive();
  }

  private static List<Vector> packable() {
    return WireVectors.all().stream().filter(v -> v.packRc() == 0).toList();
  }

  private static DataType typeOf(Vector v) {
    return v.isComposite() ? null : v.dataType();
  }

  /** Flips, overwrites, inserts or deletes a few bytes. */
  static byte[] mutate(byte[] original, Random random) {
    byte[] b = original.clone();
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits; e++) {
      int at = b.length == 0 ? 0 : random.nextInt(b.length);
      switch (random.nextInt(5)) {
        case 0 -> {
          if (b.length > 0) {
            b[at] ^= (byte) (1 << random.nextInt(8));
          }
        }
        case 1 -> {
          if (b.length > 0) {
            b[at] = (byte) random.nextInt(256);
          }
        }
        case 2 -> {
          if (b.length > 0) {
            b[at] = (byte) (random.nextBoolean() ? 0xFF : 0x80);
          }
        }
        case 3 -> {
          byte[] longer = new byte[b.length + 1];
          System.arraycopy(b, 0, longer, 0, at);
          longer[at] = (byte) random.nextInt(256);
          System.arraycopy(b, at, longer, at + 1, b.length - at);
          b = longer;
        }
        default -> {
          if (b.length > 0) {
            byte[] shorter = new byte[b.length - 1];
            System.arraycopy(b, 0, shorter, 0, at);
            System.arraycopy(b, at + 1, shorter, at, b.length - at - 1);
            b = shorter;
          }
        }
      }
    }
    return b;
  }

  /** Decodes as {@code type}, or as the vector's parts when {@code type} is null. */
  private void decode(Vector v, BufferType mode, byte[] bytes, DataType type) {
    for (WireComponent component : WireComponent.values()) {
      WireFormat format = new WireFormat(component, mode);
      try {
        Unpacker unpacker = new Unpacker(format, bytes);
        if (type == null) {
          for (Object p : (List<?>) ((Map<?, ?>) v.value()).get("parts")) {
            unpacker.unpack(DataType.fromName((String) ((Map<?, ?>) p).get("type")));
          }
        } else {
          unpacker.unpack(type);
        }
        unpacker.expectEnd();
        values++;
      } catch (WireException e) {
        assertThat(e.scope()).isEqualTo(WireException.Scope.MESSAGE);
        assertThat(e.offset()).isBetween(0, bytes.length);
        errors++;
      } catch (RuntimeException | Error e) {
        fail(v.name() + " as " + type + " from " + WireVectors.hex(bytes) + " threw " + e, e);
      }
    }
  }
}
