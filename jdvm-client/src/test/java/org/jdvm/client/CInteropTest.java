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
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * C programs linked against Debian's libpmix 4.2.2 as peers of a running jdvm
 * (pmix-interop-notes.md §7): a tool that allocates with 4.2 attribute types, spawns into the
 * allocation, queries it, receives the timeout warning and finalizes; and a client jdvm launches
 * that initializes and gets its job data. The programs are compiled here; without gcc or libpmix
 * the tests are skipped, saying why.
 */
class CInteropTest {
  @TempDir static Path bin;
  @TempDir Path home;

  private static Path tool;
  private static Path client;
  private static String skipped;

  @BeforeAll
  static void compile() throws Exception {
    String flags = run(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    if (flags == null) {
      skipped = "pkg-config or libpmix-dev (pmix.pc) is not installed";
      return;
    }
    tool = bin.resolve("ctool");
    client = bin.resolve("cclient");
    for (Path exe : List.of(tool, client)) {
      Path source = bin.resolve(exe.getFileName() + ".c");
      try (InputStream in = CInteropTest.class.getResourceAsStream("/c/" + source.getFileName())) {
        Files.copy(in, source);
      }
      List<String> cmd =
          new ArrayList<>(List.of("gcc", "-Wall", "-o", exe.toString(), source.toString()));
      cmd.addAll(List.of(flags.trim().split("\\s+")));
      if (run(cmd) == null) {
        skipped = "gcc could not build " + source.getFileName() + " against libpmix";
        return;
      }
    }
  }

  /** Runs a command to its end (bounded); its output, or null if it could not run or failed. */
  private static String run(List<String> cmd) throws InterruptedException {
    return LocalCommand.output(cmd, 60);
  }

  /** The tool in libpmix's default buffers, and fully described (pmix-wire.md §2.4). */
  @ParameterizedTest
  @ValueSource(strings = {"PMIX_BFROP_BUFFER_NON_DESC", "PMIX_BFROP_BUFFER_FULLY_DESC"})
  void aLibpmixToolAllocatesSpawnsQueriesHearsTheWarningAndFinalizes(String buffers)
      throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 2)) {
      ProcessBuilder pb =
          new ProcessBuilder(tool.toString(), t.endpoint.uri()).redirectErrorStream(true);
      pb.environment().put("PMIX_BFROP_BUFFER_TYPE", buffers);
      Process p = pb.start();
      String out;
      try {
        out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
      } finally {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      assertThat(out).contains("INIT rc=0 nspace=" + t.dvm.config().name() + "@");
      assertThat(out).contains("REGISTER ok=1");
      assertThat(out).contains("ALLOC rc=0", "ALLOC_INFO pmix.alloc.reqid=c-req-1");
      String allocId = field(out, "ALLOC_INFO pmix.alloc.id=");
      assertThat(out).contains("ALLOC_INFO pmix.alloc.nlist=node1");
      String job = field(out, "SPAWN rc=0 nspace=");
      assertThat(t.nodesOf(job)).containsExactly("node1");
      assertThat(out).contains("hello-from-c-job on node1");
      assertThat(out).contains("QUERY rc=0 nresults=1 pmix.query.alloc=active");
      assertThat(out)
          .contains("EVENT status=" + PmixStatus.ALLOC_TIMEOUT_WARNING)
          .contains("WARNING received=1 alloc=" + allocId + " remaining=2");
      assertThat(out).contains("FINALIZE rc=0");
      TestDvm.await(() -> t.jobState(job) == JobView.State.TERMINATED, "the C tool's job to end");
    }
  }

  @Test
  void aLibpmixClientJdvmLaunchedInitializesAndGetsItsJobSizeAndLocalPeers() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient tool = t.tool(out);
      Job job = tool.spawn(SpawnRequest.of(client.toString()).procs(2).build());
      JobEnd end = job.awaitEnd();
      for (int rank = 0; rank < 2; rank++) {
        String o = out.of(job.nspace(), rank, false);
        assertThat(o)
            .contains("INIT rc=0 nspace=" + job.nspace() + " rank=" + rank)
            .contains("JOB_SIZE rc=0 value=2")
            .contains("LOCAL_PEERS rc=0 value=0,1")
            .contains("HOSTNAME rc=0 value=node0")
            .contains("FINALIZE rc=0");
      }
      assertThat(end.exitCode()).isZero();
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
