package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spawn's environment directives, working directory and time limit as peers send them
 * (docs/cli.md "Environment, working directory, time limit"): a C tool linked against Debian's
 * libpmix 4.2.2 ({@code cenv.c}: {@code pmix_envar_t} values on the real wire, in the job's info
 * and the app's), and the Java client's builder.
 */
class CEnvSpawnTest {
  @TempDir static Path bin;
  @TempDir Path home;

  private static Path tool;
  private static String skipped;

  @BeforeAll
  static void compile() throws Exception {
    String flags = LocalCommand.output(List.of("pkg-config", "--cflags", "--libs", "pmix"), 60);
    if (flags == null) {
      skipped = "pkg-config or libpmix-dev (pmix.pc) is not installed";
      return;
    }
    tool = bin.resolve("cenv");
    Path source = bin.resolve("cenv.c");
    try (InputStream in = CEnvSpawnTest.class.getResourceAsStream("/c/cenv.c")) {
      Files.copy(in, source);
    }
    List<String> cmd =
        new ArrayList<>(List.of("gcc", "-Wall", "-o", tool.toString(), source.toString()));
    cmd.addAll(List.of(flags.trim().split("\\s+")));
    if (LocalCommand.output(cmd, 60) == null) {
      skipped = "gcc could not build cenv.c against libpmix";
    }
  }

  @Test
  void aLibpmixToolsDirectivesWdirAndTimeoutReachTheLaunch() throws Exception {
    assumeTrue(skipped == null, skipped);
    Path wdir = Files.createDirectories(home.resolve("c-wdir"));
    try (TestDvm t = TestDvm.start(home, 1, 4, 0)) {
      Process p =
          new ProcessBuilder(tool.toString(), t.endpoint.uri(), wdir.toString())
              .redirectErrorStream(true)
              .start();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Thread reader = Thread.ofVirtual().start(() -> copy(p.getInputStream(), out));
      try {
        TestDvm.await(
            () -> text(out).contains("CHILD ") && text(out).contains("SPAWN3 "),
            "the C tool's spawns and its first job's output");
        String job3 = field(text(out), "SPAWN3 rc=0 nspace=");
        TestDvm.await(
            () -> t.jobState(job3) == JobView.State.TERMINATED, "the timed-out job to end");
        assertThat(t.<Integer>read(v -> v.job(job3).orElseThrow().status()))
            .isEqualTo(PmixStatus.ERR_TIMEOUT);
        try (OutputStream in = p.getOutputStream()) {
          in.write('\n');
        }
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
        reader.join(10_000);
      } finally {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      String o = text(out);
      assertThat(o).contains("INIT rc=0", "SPAWN1 rc=0 nspace=");
      assertThat(o).contains("CHILD J=app:job K=head,tail GONE=unset PWD=" + wdir.toRealPath());
      assertThat(o).contains("SPAWN2 rc=" + PmixStatus.ERR_BAD_PARAM);
      assertThat(o).contains("FINALIZE rc=0");
    }
  }

  @Test
  void theJavaClientsDirectivesApplyJobsFirstAndAReservedNameIsRefused() throws Exception {
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient client = t.tool(out);
      Value first = new Value(org.jdvm.pmix.DataType.ENVAR, new Envar("EV_F", "/a", (byte) ':'));
      Job job =
          client.spawn(
              SpawnRequest.of("sh", "-c", "echo F=$EV_F A=$EV_A")
                  .env("EV_F", "/b:/a:/c")
                  .appendEnv("EV_A", "2", ':')
                  .info(Info.of(PmixKeys.SET_ENVAR, value("EV_A", "1")))
                  .info(Info.of(PmixKeys.FIRST_ENVAR, first))
                  .build());
      assertThat(job.awaitEnd().exitCode()).isZero();
      assertThat(out.of(job.nspace(), 0, false)).isEqualTo("F=/a:/b:/c A=1:2\n");
      PmixException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              PmixException.class,
              () -> client.spawn(SpawnRequest.of("true").setEnv("JDVM_URI", "x").build()));
      assertThat(e.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
      PmixException type =
          org.junit.jupiter.api.Assertions.assertThrows(
              PmixException.class,
              () ->
                  client.spawn(
                      SpawnRequest.of("true")
                          .info(Info.of(PmixKeys.PREPEND_ENVAR, Value.string("EV=1")))
                          .build()));
      assertThat(type.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
      PmixException wdir =
          org.junit.jupiter.api.Assertions.assertThrows(
              PmixException.class,
              () ->
                  client.spawn(
                      SpawnRequest.of("true")
                          .wdir(home.resolve("no-such-dir").toString())
                          .build()));
      // what the controller's launch says of a directory that is not there (docs/cli.md)
      assertThat(wdir.status()).isEqualTo(PmixStatus.ERR_JOB_FAILED_TO_LAUNCH);
    }
  }

  private static Value value(String name, String v) {
    return new Value(org.jdvm.pmix.DataType.ENVAR, new Envar(name, v, (byte) ':'));
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    byte[] buf = new byte[4096];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        synchronized (out) {
          out.write(buf, 0, n);
        }
      }
    } catch (java.io.IOException e) {
      // the tool ended
    }
  }

  private static String text(ByteArrayOutputStream out) {
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  private static String field(String out, String prefix) {
    for (String line : out.split("\n")) {
      if (line.startsWith(prefix)) {
        return line.substring(prefix.length()).trim();
      }
    }
    throw new AssertionError("no line " + prefix + " in:\n" + out);
  }
}
