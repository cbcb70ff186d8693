package org.jdvm.bench.pmix;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Encoding and decoding a typical allocation request body (target: encode + decode under 1 µs):
 * COMMAND 17, ALLOC_DIRECTIVE NEW, SIZE 6 and six infos (node count, request id, inheritance,
 * share, warn timeout, time), as a client packs it and the server reads it. The packer is reused,
 * as a connection's would be; the decoder works on a fresh slice each time.
 *
 * <p>Run with {@code ./dev bench AllocRequest}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AllocRequestBenchmark {
  /** v61 carries the inheritance as type 75; v41 as UINT8. Same size, same work. */
  @Param({"v61", "v41"})
  String component;

  private WireFormat format;
  private List<Info> infos;
  private Packer packer;
  private byte[] body;

  @Setup
  public void setUp() {
    format = new WireFormat(WireComponent.fromWireName(component), WireFormat.V41.bufferType());
    boolean v61 = format.component() == WireComponent.V61;
    AllocInheritance child = AllocInheritance.CHILD;
    infos =
        List.of(
            Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(4)),
            Info.of(PmixKeys.ALLOC_REQ_ID, Value.string("req-42")),
            Info.of(
                PmixKeys.ALLOC_INHERITANCE,
                v61 ? Value.inheritance(child) : Value.uint8(child.code())),
            Info.of(PmixKeys.ALLOC_SHARE, Value.bool(false)),
            Info.of(PmixKeys.ALLOC_WARN_TIMEOUT, Value.uint32(300)),
            Info.of(PmixKeys.ALLOC_TIME, Value.string("2:00:00")));
    packer = new Packer(format, 256);
    body = encode();
  }

  @Benchmark
  public byte[] encode() {
    return packer
        .reset()
        .packCommand(Commands.ALLOC_CMD)
        .packInteger(DataType.ALLOC_DIRECTIVE, AllocDirective.NEW.code())
        .packInfos(infos)
        .toByteArray();
  }

  @Benchmark
  public void decode(Blackhole bh) {
    decode(body, bh);
  }

  /** What one request costs end to end: the client's encode and the server's decode. */
  @Benchmark
  public void encodeAndDecode(Blackhole bh) {
    decode(encode(), bh);
  }

  private void decode(byte[] bytes, Blackhole bh) {
    Unpacker unpacker = new Unpacker(format, bytes);
    bh.consume(unpacker.unpackCommand());
    bh.consume(unpacker.unpackInteger(DataType.ALLOC_DIRECTIVE));
    bh.consume(unpacker.unpackInfos());
    unpacker.expectEnd();
  }
}
