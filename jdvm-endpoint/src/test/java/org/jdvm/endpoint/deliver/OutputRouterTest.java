package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.host.ProcListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OutputRouter}: what a quick job wrote and how it ended, in whatever order they come. */
class OutputRouterTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private JobOutput toFiles() {
    return new JobOutput(
        new OutputFiles.Spec(null, null, dir.resolve("log"), false, 1, true), false, true);
  }

  @Test
  void aRankThatEndedBeforeItsSpawnWasAnsweredHasItsPartialLineAndItsFiles() throws Exception {
    // A formatted spawn's output waits for the spawn's answer; `echo -n x` can end before that.
    // Its end used to be forgotten: the partial line stayed held and no .err file was made
    // (RunOutputTest.outputDirAndFileUseLibpmixLayoutsUnderTheNamespace in CI).
    OutputRouter r = new OutputRouter();
    r.output("quick@1", 0, ProcListener.Stream.STDOUT, b("hello"));
    r.procsEnded("quick@1", List.of(0));
    r.jobSpawned("quick@1", OutputRouter.Forward.NONE, toFiles());

    assertThat(Files.readString(dir.resolve("log.quick@1.0.out"))).isEqualTo("hello");
    assertThat(dir.resolve("log.quick@1.0.err")).exists().isEmptyFile();
  }

  @Test
  void aRankStillRunningWhenItsSpawnIsAnsweredKeepsItsLineUntilItsNewline() throws Exception {
    OutputRouter r = new OutputRouter();
    r.output("slow@1", 0, ProcListener.Stream.STDOUT, b("Name? "));
    r.jobSpawned("slow@1", OutputRouter.Forward.NONE, toFiles());
    assertThat(dir.resolve("log.slow@1.0.out")).as("nothing written yet").doesNotExist();
    r.output("slow@1", 0, ProcListener.Stream.STDOUT, b("x\n"));
    assertThat(Files.readString(dir.resolve("log.slow@1.0.out"))).isEqualTo("Name? x\n");
  }

  @Test
  void endsOfJobsThatRetireUnknownAreForgotten() {
    OutputRouter r = new OutputRouter();
    for (int i = 0; i < 3 * OutputRouter.RETIRED_KEPT; i++) {
      r.procsEnded("gone@" + i, List.of(0, 1));
      r.jobRetired("gone@" + i);
    }
    assertThat(r.endsHeld()).isZero();
  }
}
