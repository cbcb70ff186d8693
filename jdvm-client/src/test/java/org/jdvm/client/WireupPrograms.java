package org.jdvm.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.ConnectFlag;

/**
 * The wire-up test programs of {@code src/test/resources/wireup} (docs/wireup.md §e) and jdvm's own
 * of {@code src/test/resources/c}, built for a test run: the {@code pmix_*} ones and {@code c*}
 * ones with gcc against libpmix, the {@code mpi_*} ones with mpicc. A program that cannot be built
 * gives the reason, and the test that needs it is skipped saying so; nothing is skipped when the
 * packages are there.
 */
final class WireupPrograms {
  private WireupPrograms() {}

  /** Builds {@code names} into {@code dir}; null when built, else why not. */
  static String build(Path dir, String... names) throws Exception {
    copy(dir, "/wireup/pmixtest.h", "pmixtest.h");
    String pmixFlags = null;
    for (String name : names) {
      String folder = name.startsWith("c") ? "/c/" : "/wireup/";
      Path source = copy(dir, folder + name + ".c", name + ".c");
      List<String> cmd = new ArrayList<>();
      if (name.startsWith("mpi_")) {
        cmd.addAll(List.of("mpicc.openmpi", "-o", dir.resolve(name).toString(), source.toString()));
      } else {
        if (pmixFlags == null) {
          pmixFlags = run(List.of("pkg-config", "--cflags", "--libs", "pmix"), 60);
          if (pmixFlags == null) {
            return "pkg-config or libpmix-dev (pmix.pc) is not installed";
          }
        }
        cmd.addAll(List.of("gcc", "-Wall", "-o", dir.resolve(name).toString(), source.toString()));
        cmd.addAll(List.of(pmixFlags.trim().split("\\s+")));
      }
      if (run(cmd, 120) == null) {
        return cmd.get(0)
            + " could not build "
            + name
            + ".c (is "
            + (name.startsWith("mpi_") ? "libopenmpi-dev" : "gcc with libpmix-dev")
            + " installed?)";
      }
    }
    return null;
  }

  /** Why Debian's mpi4py cannot run here, or null when it can. */
  static String mpi4pyMissing() throws InterruptedException {
    if (!Files.isExecutable(Path.of("/usr/bin/python3"))) {
      return "/usr/bin/python3 is not installed";
    }
    return run(List.of("/usr/bin/python3", "-c", "import mpi4py"), 60) == null
        ? "python3-mpi4py is not installed for /usr/bin/python3"
        : null;
  }

  /** Copies a wire-up script into {@code dir}. */
  static Path script(Path dir, String name) throws IOException {
    return copy(dir, "/wireup/" + name, name);
  }

  private static Path copy(Path dir, String resource, String name) throws IOException {
    Path to = dir.resolve(name);
    if (!Files.exists(to)) {
      try (InputStream in = WireupPrograms.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IOException("no test resource " + resource);
        }
        Files.copy(in, to);
      }
    }
    return to;
  }

  /** Runs a command to its end (bounded); its output, or null if it could not run or failed. */
  static String run(List<String> cmd, int seconds) throws InterruptedException {
    return LocalCommand.output(cmd, seconds);
  }

  /**
   * Whether the DVM serves the modex that {@code MPI_Init} and {@code pmix_connect} need: a FENCENB
   * answered otherwise than {@code PMIX_ERR_NOT_SUPPORTED} (or not at once) says it does.
   */
  static boolean modexServed(TestDvm t) throws Exception {
    Wire w = Wire.open(t.contact(), ConnectFlag.TOOL_NEEDS_ID, null, List.of(), WireFormat.V41);
    try {
      w.start(
          new Wire.Listener() {
            @Override
            public void event(Unpacker body) {}

            @Override
            public void output(Unpacker body) {}

            @Override
            public void lost(PmixException why) {}
          });
      byte[] fence =
          new Packer(w.format)
              .packCommand(Commands.FENCENB_CMD)
              .packSize(0)
              .packSize(0)
              .toByteArray();
      try {
        int status = w.call(fence, Unpacker::unpackStatus).get(5, TimeUnit.SECONDS);
        return status != PmixStatus.ERR_NOT_SUPPORTED;
      } catch (TimeoutException waitsForSomething) {
        return true;
      }
    } finally {
      w.close();
    }
  }

  /** Every line every process of every job wrote to {@code out}'s standard output. */
  static List<String> lines(TestDvm.Output out) {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, java.io.ByteArrayOutputStream> e : out.bytes.entrySet()) {
      if (e.getKey().endsWith("/out")) {
        lines.addAll(e.getValue().toString(StandardCharsets.UTF_8).lines().toList());
      }
    }
    return lines;
  }
}
