package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Java rank wires up beside C ranks in one job (docs/wireup.md §c): two libpmix 4.2.2 ranks
 * ({@code wireup/pmix_mixed.c}) and one {@link MixedJobRank} put, commit, fence with data and get
 * each other's key. Under jdvm it needs the server's COMMIT, FENCENB and GETNB; while FENCENB is
 * answered NOT_SUPPORTED that test is skipped, saying so. The same job also runs under libpmix's
 * own server library ({@code wireup/tools/pmix_host.c}), the reference the client's messages must
 * satisfy, where the Java rank also publishes, looks up, unpublishes, logs, connects and
 * disconnects.
 */
class MixedJobTest {
  @TempDir static Path bin;
  @TempDir Path home;
  private static Path cRank;
  private static Path host;
  private static String skipped;

  @BeforeAll
  static void compile() throws Exception {
    String flags = run(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    if (flags == null) {
      skipped = "pkg-config or libpmix-dev (pmix.pc) is not installed";
      return;
    }
    cRank = bin.resolve("pmix_mixed");
    for (String name : List.of("pmix_mixed.c", "pmixtest.h")) {
      try (InputStream in = MixedJobTest.class.getResourceAsStream("/wireup/" + name)) {
        Files.copy(in, bin.resolve(name));
      }
    }
    try (InputStream in = MixedJobTest.class.getResourceAsStream("/wireup/tools/pmix_host.c")) {
      Files.copy(in, bin.resolve("pmix_host.c"));
    }
    host = bin.resolve("pmix_host");
    for (Path exe : List.of(cRank, host)) {
      Path source = bin.resolve(exe.getFileName() + ".c");
      List<String> cmd =
          new ArrayList<>(
              List.of("gcc", "-Wall", "-pthread", "-o", exe.toString(), source.toString()));
      cmd.addAll(List.of(flags.trim().split("\\s+")));
      if (run(cmd) == null) {
        skipped = "gcc could not build " + source.getFileName() + " against libpmix";
        return;
      }
    }
  }

  @Test
  void aJavaRankWiresUpBesideCRanksUnderLibpmixsOwnServer() throws Exception {
    assumeTrue(skipped == null, skipped);
    List<String> cmd =
        new ArrayList<>(
            List.of(
                host.toString(),
                cRank.toString(),
                "::",
                cRank.toString(),
                "::",
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                MixedJobRank.class.getName(),
                "3",
                "--all"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the host and its ranks end").isTrue();
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    assertThat(out)
        .contains("rank=0 peer=2 who=java-2", "rank=1 peer=2 who=java-2")
        .contains("mixed-java ns=libpmixhost rank=2 peer=0 who=c-0", "rank=2 peer=1 who=c-1")
        .contains("OK mixed-java lookup [PData[proc=libpmixhost.2, key=mixed.port.2")
        .contains("OK mixed-java lookup after unpublish PMIX_ERR_NOT_FOUND")
        .contains("HOSTLOG rank=2 pmix.log.stderr=log-from-java")
        .contains("OK mixed-java connect and disconnect")
        .doesNotContain("FAIL");
    assertThat(p.exitValue()).as(out).isZero();
  }

  @Test
  void aJavaRankWiresUpBesideCRanks() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 4, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient tool = t.tool(out);
      assumeFenceServed(t, tool, out);
      String java = ProcessHandle.current().info().command().orElse("java");
      Job job =
          tool.spawn(
              SpawnRequest.of(cRank.toString())
                  .procs(2)
                  .app(
                      java,
                      List.of(
                          "-cp",
                          System.getProperty("java.class.path"),
                          MixedJobRank.class.getName(),
                          "3"))
                  .procs(1)
                  .build());
      JobEnd end = job.awaitEnd();
      String all =
          out.of(job.nspace(), 0, false)
              + out.of(job.nspace(), 1, false)
              + out.of(job.nspace(), 2, false);
      assertThat(out.of(job.nspace(), 0, false)).contains("peer=1 who=c-1", "peer=2 who=java-2");
      assertThat(out.of(job.nspace(), 1, false)).contains("peer=0 who=c-0", "peer=2 who=java-2");
      assertThat(out.of(job.nspace(), 2, false)).contains("peer=0 who=c-0", "peer=1 who=c-1");
      assertThat(end.exitCode()).as(all).isZero();
    }
  }

  /** Skips while the DVM answers FENCENB NOT_SUPPORTED (docs/wireup.md §c.2 not served yet). */
  private static void assumeFenceServed(TestDvm t, JdvmClient tool, TestDvm.Output out)
      throws Exception {
    TestDvm.Process0 probe = t.runningJob(tool, out);
    try {
      probe.client().wireUp().fence(List.of(), false, 5);
    } catch (PmixException e) {
      assumeTrue(
          e.status() != PmixStatus.ERR_NOT_SUPPORTED,
          "needs the server's FENCENB/GETNB (FENCENB is answered NOT_SUPPORTED)");
      throw e;
    } finally {
      tool.terminate(probe.nspace());
      probe.job().awaitEnd();
    }
  }

  private static String run(List<String> cmd) throws InterruptedException {
    return LocalCommand.output(cmd, 60);
  }
}
