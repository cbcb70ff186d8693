package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.List;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.Commands;

/**
 * Jazzer fuzz tests of every decoder entry point of the codec, one per family of types. In the
 * normal build they run in regression mode over the seeds in {@code
 * src/test/resources/org/jdvm/pmix/codec/CodecFuzzTestInputs/<method>/} (golden vectors and the
 * crashes fuzzing once found); {@code JAZZER_FUZZ=1} fuzzes for real.
 *
 * <p>The input's first byte picks the wire format (bit 0: fully described; bit 1: v61) and the type
 * within the family; the rest is the body. Each decode must yield a value or a {@link
 * WireException}; a value must re-encode, and re-decode to itself.
 */
class CodecFuzzTest {
  private static final List<DataType> SCALARS =
      Arrays.stream(DataType.values())
          .filter(t -> org.jdvm.pmix.Value.isIntegerType(t) || isTextual(t))
          .toList();

  private static final List<DataType> STRUCTS =
      List.of(
          DataType.PROC,
          DataType.APP,
          DataType.QUERY,
          DataType.PDATA,
          DataType.KVAL,
          DataType.PROC_INFO,
          DataType.ENVAR,
          DataType.COORD,
          DataType.REGATTR,
          DataType.GEOMETRY,
          DataType.DEVICE_DIST,
          DataType.ENDPOINT,
          DataType.DATA_BUFFER,
          DataType.DEVICE,
          DataType.RESOURCE_UNIT,
          DataType.NODE_PID,
          DataType.REGEX2,
          DataType.BYTE_OBJECT,
          DataType.COMPRESSED_BYTE_OBJECT);

  private static boolean isTextual(DataType t) {
    return switch (t) {
      case BOOL,
          STRING,
          FLOAT,
          DOUBLE,
          TIMEVAL,
          PROC_NSPACE,
          PROC_CPUSET,
          TOPO,
          POINTER,
          COMPRESSED_STRING ->
          true;
      default -> false;
    };
  }

  static WireFormat formatOf(int selector) {
    return new WireFormat(
        (selector & 2) != 0 ? WireComponent.V61 : WireComponent.V41,
        (selector & 1) != 0 ? BufferType.FULLY_DESCRIBED : BufferType.NON_DESCRIBED);
  }

  @FuzzTest
  void unpackScalar(byte[] input) {
    unpackUnit(input, SCALARS);
  }

  @FuzzTest
  void unpackValue(byte[] input) {
    unpackUnit(input, List.of(DataType.VALUE));
  }

  @FuzzTest
  void unpackInfo(byte[] input) {
    unpackUnit(input, List.of(DataType.INFO));
    if (input.length > 0) {
      try {
        new Unpacker(formatOf(input[0]), input, 1, input.length - 1).unpackInfos();
      } catch (WireException e) {
        assertClean(e, input.length - 1);
      }
    }
  }

  @FuzzTest
  void unpackDataArray(byte[] input) {
    unpackUnit(input, List.of(DataType.DATA_ARRAY));
  }

  @FuzzTest
  void unpackStruct(byte[] input) {
    unpackUnit(input, STRUCTS);
  }

  /** A request body as a server reads one: the command decides what follows. */
  @FuzzTest
  void unpackRequest(byte[] input) {
    if (input.length == 0) {
      return;
    }
    Unpacker body = new Unpacker(formatOf(input[0]), input, 1, input.length - 1);
    try {
      switch (body.unpackCommand()) {
        case Commands.ALLOC_CMD -> {
          body.unpackInteger(DataType.ALLOC_DIRECTIVE);
          body.unpackInfos();
        }
        case Commands.QUERY_CMD -> body.unpackQueries();
        case Commands.SPAWNNB_CMD -> {
          body.unpackInfos();
          body.unpackApps();
        }
        case Commands.NOTIFY_CMD -> {
          body.unpackStatus();
          body.unpackInteger(DataType.DATA_RANGE);
          body.unpackInfos();
        }
        default -> body.unpack(DataType.INFO);
      }
      body.expectEnd();
    } catch (WireException e) {
      assertClean(e, input.length - 1);
    }
  }

  private static void unpackUnit(byte[] input, List<DataType> family) {
    if (input.length == 0) {
      return;
    }
    int selector = input[0] & 0xFF;
    WireFormat format = formatOf(selector);
    DataType type = family.get((selector >>> 2) % family.size());
    List<Object> values;
    try {
      values = new Unpacker(format, input, 1, input.length - 1).unpack(type);
    } catch (WireException e) {
      assertClean(e, input.length - 1);
      return;
    }
    reencode(format, type, values);
  }

  /**
   * What decodes must encode (COMPRESSED_STRING excepted: jdvm never sends it) and decode to the
   * same data again; the first decode may normalize (a NULL key becomes "").
   */
  private static void reencode(WireFormat format, DataType type, List<Object> values) {
    if (type == DataType.COMPRESSED_STRING) {
      return;
    }
    byte[] again = new Packer(format).pack(type, values).toByteArray();
    List<Object> twice = new Unpacker(format, again).unpack(type);
    byte[] thrice = new Packer(format).pack(type, twice).toByteArray();
    assertThat(thrice).isEqualTo(again);
  }

  static void assertClean(WireException e, int length) {
    assertThat(e.scope()).isEqualTo(WireException.Scope.MESSAGE);
    assertThat(e.offset()).isBetween(0, length);
  }
}
