package org.jdvm.pmix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.WireVectors.Vector;
import org.jdvm.pmix.json.ValueJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real library judges jdvm's bytes: a small C program linked against Debian's libpmix 4.2.2
 * ({@code src/test/resources/org/jdvm/pmix/interop/repack.c}) unpacks what jdvm packed with {@code
 * PMIx_Data_unpack} and packs it again; the bytes must come back unchanged. It also prints glibc's
 * {@code %f} of random doubles for {@link FloatText}.
 *
 * <p>Needs {@code gcc} and {@code libpmix-dev} ({@code pkg-config --exists pmix}); without them the
 * tests are skipped with the reason. Every process started here is ended here, by its handle, also
 * on failure.
 */
class LibpmixInteropTest {
  private static final long SEED = 424242L;
  private static final int RANDOM_CALLS = 600;

  @TempDir static Path dir;
  private static Path helper;

  /**
   * Compiles the helper once, or skips the calling test with the reason. Assumptions are checked in
   * each test rather than in a {@code @BeforeAll}, so that every skipped test is reported as
   * skipped, with its reason, rather than vanishing from the count.
   */
  private static synchronized void requireHelper() throws IOException, InterruptedException {
    assumeTrue(succeeds("gcc", "--version"), "gcc is not installed: install gcc to run this test");
    assumeTrue(
        succeeds("pkg-config", "--exists", "pmix"),
        "libpmix-dev is not installed (pkg-config --exists pmix fails): install it to run this test");
    if (helper != null) {
      return;
    }
    Path source = dir.resolve("repack.c");
    try (InputStream in =
        LibpmixInteropTest.class.getResourceAsStream("/org/jdvm/pmix/interop/repack.c")) {
      Files.write(source, in.readAllBytes());
    }
    String flags = output("pkg-config", "--cflags", "--libs", "pmix").strip();
    Path exe = dir.resolve("repack");
    List<String> gcc = new ArrayList<>(List.of("gcc", "-o", exe.toString(), source.toString()));
    gcc.addAll(List.of(flags.split("\\s+")));
    Result r = run(gcc, null, Map.of());
    assertThat(r.status).as("gcc: " + r.out).isZero();
    helper = exe;
  }

  /** One pack call jdvm made: the type, the count and the bytes. */
  private record Call(String name, DataType type, int count, byte[] bytes) {}

  @Test
  void libpmixUnpacksAndRepacksWhatJdvmPacksInBothBufferModes() throws Exception {
    requireHelper();
    for (BufferType mode : BufferType.values()) {
      List<Call> calls = calls(WireFormat.V41.withBufferType(mode));
      StringBuilder input = new StringBuilder();
      for (Call c : calls) {
        input.append("U ").append(c.type().code()).append(' ').append(c.count()).append(' ');
        input.append(HexFormat.of().formatHex(c.bytes())).append('\n');
      }
      Map<String, String> env =
          mode == BufferType.FULLY_DESCRIBED
              ? Map.of("PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_FULLY_DESC")
              : Map.of();
      List<String> answers = answers(input.toString(), env, calls.size());
      for (int i = 0; i < calls.size(); i++) {
        String expected = "OK " + HexFormat.of().formatHex(calls.get(i).bytes());
        assertThat(answers.get(i)).as(calls.get(i).name() + " " + mode).isEqualTo(expected);
      }
      System.out.printf(
          "libpmix 4.2.2 repacked %d pack calls of jdvm byte for byte (%s)%n", calls.size(), mode);
    }
  }

  @Test
  void floatTextIsWhatGlibcPrintfPrints() throws Exception {
    requireHelper();
    Random random = new Random(SEED);
    List<Double> values = new ArrayList<>();
    StringBuilder input = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      double d =
          switch (i % 4) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
            case 2 -> Math.scalb((double) random.nextInt(1 << 20), -random.nextInt(30));
            default -> (double) (float) (random.nextGaussian() * 1000);
          };
      values.add(d);
      input.append(String.format("F %016x%n", Double.doubleToRawLongBits(d)));
    }
    List<String> answers = answers(input.toString(), Map.of(), values.size());
    for (int i = 0; i < values.size(); i++) {
      assertThat("F " + FloatText.format(values.get(i))).isEqualTo(answers.get(i));
    }
  }

  /** The vectors' values and seeded random ones, each packed by jdvm in one call. */
  private static List<Call> calls(WireFormat format) {
    List<Call> calls = new ArrayList<>();
    for (Vector v : WireVectors.all()) {
      DataType type = v.dataType();
      if (v.packRc() != 0
          || v.isComposite()
          || "MISMATCH".equals(v.roundtrip())
          || type == DataType.POINTER
          || type == DataType.DATA_BUFFER) {
        continue;
      }
      List<Object> values = ValueJson.unitFromJson(type, v.value());
      calls.add(
          new Call(
              v.name(), type, values.size(), new Packer(format).pack(type, values).toByteArray()));
    }
    RandomData random = new RandomData(SEED);
    for (int i = 0; i < RANDOM_CALLS; i++) {
      DataType type = random.unitType();
      List<Object> values = random.values(type, 1 + i % 3);
      byte[] bytes = new Packer(format).pack(type, values).toByteArray();
      calls.add(new Call("random #" + i + " " + type, type, values.size(), bytes));
    }
    return calls;
  }

  private static List<String> answers(String input, Map<String, String> env, int expected)
      throws IOException, InterruptedException {
    Path in = Files.createTempFile(dir, "in", ".txt");
    Files.writeString(in, input, StandardCharsets.UTF_8);
    Result r = run(List.of(helper.toString()), in, env);
    assertThat(r.status).as(r.out).isZero();
    List<String> lines = r.out.lines().toList();
    assertThat(lines).hasSize(expected);
    return lines;
  }

  private record Result(int status, String out) {}

  /** Runs a process to completion within a minute, its output to a file; always ends it. */
  private static Result run(List<String> command, Path stdin, Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.redirectOutput(out.toFile());
    pb.redirectInput(
        stdin == null
            ? ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())
            : ProcessBuilder.Redirect.from(stdin.toFile()));
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        throw new AssertionError(command.get(0) + " did not finish within 60 s");
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static boolean succeeds(String... command) {
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      try {
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
      } finally {
        p.destroyForcibly();
      }
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private static String output(String... command) throws IOException, InterruptedException {
    return run(List.of(command), null, Map.of()).out;
  }
}
