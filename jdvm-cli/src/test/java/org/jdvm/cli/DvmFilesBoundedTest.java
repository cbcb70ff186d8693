package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.server.home.DvmLogging;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rank that floods {@code PMIx_Log} cannot grow a detached DVM's files past their documented
 * sizes nor push the DVM's own lines out of its log (docs/cli.md "jdvm start"): its text goes to
 * {@code peers.log}, bounded, past the job's log budget its lines are refused with {@code
 * PMIX_ERR_OUT_OF_RESOURCE}, and {@code dvm.out} gets no copy of the log.
 */
class DvmFilesBoundedTest {
  @TempDir Path dir;
  @TempDir Path bin;
  private Long dvmPid;

  private static final Path WIREUP = Path.of("../jdvm-client/src/test/resources/wireup");
  private static final Path FLOOD = Path.of("src/test/resources/flood");

  /** 80 MiB of log text: more than the 64 MiB of dvm.log and its rotated files. */
  private static final int LINES = 20_000;

  @AfterEach
  void stopDvm() throws Exception {
    run(60, "stop", "--dir", dir.toString());
    if (dvmPid != null) {
      ProcessHandle.of(dvmPid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aRankFloodingPmixLogLeavesEveryFileBoundedAndTheDvmsOwnLinesKept() throws Exception {
    Path flooder = compile("pmix_logflood");
    Ran started =
        run(
            60,
            "start",
            "--detach",
            "--dir",
            dir.toString(),
            "--nodes",
            "1",
            "--slots",
            "1",
            "--spare",
            "0");
    assertThat(started.status()).as(started.out()).isZero();
    dvmPid = Long.valueOf(started.out().replaceAll("(?s).*pid:\\s+(\\d+).*", "$1"));
    String firstLine = Files.readAllLines(dir.resolve("dvm.log")).get(0);

    Ran flood = run(600, "run", "--dir", dir.toString(), "--", flooder.toString(), "" + LINES);
    assertThat(flood.out()).as(flood.out()).contains("OK pmix_logflood");
    Ran stopped = run(60, "stop", "--dir", dir.toString());
    assertThat(stopped.status()).as("%s; dvm.log ends: %s", stopped.out(), logEnd()).isZero();
    ProcessHandle dvm = ProcessHandle.of(dvmPid).orElse(null);
    if (dvm != null) {
      assertThat(StopCommand.awaitEnd(dvm, TimeUnit.SECONDS.toNanos(30))).isTrue();
    }

    assertThat(Files.size(dir.resolve("dvm.out")))
        .as("dvm.out")
        .isLessThanOrEqualTo(DvmLogging.DVM_OUT_BYTES + 200);
    assertThat(logged(dir, "dvm.log"))
        .as("the DVM's own first line is still in its log")
        .contains(firstLine);
    for (String f : List.of("peers.log", "peers.log.1")) {
      Path p = dir.resolve(f);
      if (Files.exists(p)) {
        assertThat(Files.size(p)).as(f).isLessThanOrEqualTo((4L << 20) + 8192);
      }
    }
    assertThat(flood.out())
        .as("past its bound the rank's lines are refused")
        .doesNotContain("refused=0 ");
  }

  private static String logged(Path dir, String name) throws IOException {
    StringBuilder all = new StringBuilder();
    for (int i = 3; i >= 0; i--) {
      Path p = dir.resolve(i == 0 ? name : name + "." + i);
      if (Files.exists(p)) {
        all.append(Files.readString(p, StandardCharsets.UTF_8));
      }
    }
    return all.toString();
  }

  record Ran(int status, String out) {}

  private static Ran run(long seconds, String... args) throws Exception {
    Process p =
        new ProcessBuilder(ChildJdvm.command(args))
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
    byte[][] out = new byte[1][];
    Thread reader =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    out[0] = p.getInputStream().readAllBytes();
                  } catch (IOException e) {
                    out[0] = new byte[0];
                  }
                });
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("jdvm " + String.join(" ", args) + " still running");
    }
    reader.join(10_000);
    return new Ran(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
  }

  /** Compiles a libpmix program; skips the test without gcc or libpmix-dev. */
  private Path compile(String name) throws Exception {
    Ran flags = command(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    assumeTrue(flags != null && flags.status() == 0, "pkg-config or libpmix-dev is not installed");
    Path exe = bin.resolve(name);
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "gcc",
                "-Wall",
                "-I",
                WIREUP.toString(),
                "-o",
                exe.toString(),
                FLOOD.resolve(name + ".c").toString()));
    cmd.addAll(List.of(flags.out().trim().split("\\s+")));
    Ran built = command(cmd);
    assumeTrue(built != null && built.status() == 0, "gcc could not build " + name + ".c");
    return exe;
  }

  private static Ran command(List<String> cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(60, TimeUnit.SECONDS) ? new Ran(p.exitValue(), out) : null;
    } catch (IOException | InterruptedException e) {
      return null;
    }
  }

  /** The last lines of the DVM's log, to say why a stop took too long. */
  private String logEnd() throws IOException {
    List<String> lines = Files.readAllLines(dir.resolve("dvm.log"));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }
}
