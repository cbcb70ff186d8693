package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job registers for cleanup (docs/protocol.md "Cleanup"): only the allowed places, never
 * through or along a symbolic link, and carried out when the job's processes on the node ended.
 */
class CleanupTest {
  @TempDir Path root;
  private Path shm;
  private Path tmp;
  private Path scratch;
  private Path outside;
  private Cleanup cleanup;

  @BeforeEach
  void places() throws Exception {
    shm = Files.createDirectories(root.resolve("shm"));
    tmp = Files.createDirectories(root.resolve("tmp"));
    scratch = Files.createDirectories(root.resolve("dvm/tmp"));
    outside = Files.createDirectories(root.resolve("home"));
    cleanup = new Cleanup(shm, List.of(tmp), scratch);
  }

  private static Cleanup.Registration file(Path p) {
    return new Cleanup.Registration(p, false, false, false, false, List.of(), false);
  }

  private static Cleanup.Registration tree(Path p) {
    return new Cleanup.Registration(p, true, true, false, false, List.of(), false);
  }

  @Test
  void openMpisSessionDirectoryAndSharedMemorySegmentAreAllowedAndNothingElse() {
    assertThat(cleanup.refusal(shm + "/vader_segment.vm.1234.0")).isNull();
    assertThat(cleanup.refusal(tmp + "/ompi.vm.0/pid.4711/1")).isNull();
    assertThat(cleanup.refusal(tmp + "/ompi.vm.0/pid.4711")).isNull();
    assertThat(cleanup.refusal(scratch + "/job/x")).isNull();

    assertThat(cleanup.refusal(shm + "/other")).contains("outside");
    assertThat(cleanup.refusal(shm.toString())).contains("outside");
    assertThat(cleanup.refusal(tmp + "/ompi.vm.0")).contains("outside");
    assertThat(cleanup.refusal(tmp + "/mine/pid.1")).contains("outside");
    assertThat(cleanup.refusal(tmp.toString())).contains("outside");
    assertThat(cleanup.refusal(scratch.toString())).contains("outside");
    assertThat(cleanup.refusal(outside + "/x")).contains("outside");
    assertThat(cleanup.refusal(tmp + "/ompi.vm.0/pid.1/../../../home")).contains("..");
    assertThat(cleanup.refusal("relative/path")).contains("not absolute");
    assertThat(cleanup.refusal("")).isNotNull();
  }

  @Test
  void aPathThroughASymbolicLinkIsRefused() throws Exception {
    Files.createDirectories(tmp.resolve("ompi.vm.0"));
    Files.createSymbolicLink(tmp.resolve("ompi.vm.0/pid.1"), outside);
    assertThat(cleanup.refusal(tmp + "/ompi.vm.0/pid.1/1")).contains("symbolic link");
  }

  @Test
  void aRecursiveRemovalRemovesLinksNotWhatTheyPointTo() throws Exception {
    Path session = Files.createDirectories(tmp.resolve("ompi.vm.0/pid.1/1/sub"));
    Files.writeString(session.resolve("data"), "x");
    Path precious = Files.writeString(outside.resolve("precious"), "keep me");
    Files.createSymbolicLink(session.resolve("link-to-file"), precious);
    Files.createSymbolicLink(session.resolve("link-to-dir"), outside);
    Path top = tmp.resolve("ompi.vm.0/pid.1/1");
    cleanup.remove(tree(top));
    assertThat(top).doesNotExist();
    assertThat(precious).hasContent("keep me");
    assertThat(outside).isDirectory();
    assertThat(tmp.resolve("ompi.vm.0/pid.1")).isDirectory();
  }

  @Test
  void aFileRegisteredAsAFileIsRemovedAndALinkThereOnlyLosesItself() throws Exception {
    Path segment = Files.writeString(shm.resolve("vader_segment.vm.1.0"), "shared");
    cleanup.remove(file(segment));
    assertThat(segment).doesNotExist();

    Path precious = Files.writeString(outside.resolve("precious"), "keep me");
    Path link = Files.createSymbolicLink(shm.resolve("vader_segment.vm.1.1"), precious);
    cleanup.remove(file(link));
    assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(precious).hasContent("keep me");
  }

  @Test
  void ignoredPathsAndTheTopDirectoryStayWhenAsked() throws Exception {
    Path dir = Files.createDirectories(scratch.resolve("job/out"));
    Files.writeString(dir.resolve("output-0"), "log");
    Files.writeString(dir.resolve("tmpfile"), "x");
    cleanup.remove(
        new Cleanup.Registration(
            scratch.resolve("job"), true, true, true, false, List.of("output-0"), false));
    assertThat(dir.resolve("output-0")).exists();
    assertThat(dir.resolve("tmpfile")).doesNotExist();
    Files.delete(dir.resolve("output-0"));
    cleanup.remove(
        new Cleanup.Registration(
            scratch.resolve("job"), true, true, true, false, List.of(), false));
    assertThat(scratch.resolve("job")).isDirectory().isEmptyDirectory();
  }

  @Test
  void theAgentRemovesWhatAJobRegisteredOnceItsProcessesThereEnded() throws Exception {
    ProcessHost host = new ProcessHost();
    RecordingEvents events = new RecordingEvents();
    LocalNodeAgent agent = new LocalNodeAgent("node0", host, events, cleanup);
    try {
      Path session = Files.createDirectories(tmp.resolve("ompi.vm.0/pid.9/1"));
      Files.writeString(session.resolve("f"), "x");
      Path segment = Files.writeString(shm.resolve("vader_segment.vm.9.0"), "s");
      Map<String, String> env = new HashMap<>(Map.of("PATH", "/usr/bin:/bin"));
      agent.launch("job1", 0, new LaunchRequest(List.of("sleep", "60"), env, null));
      assertThat(agent.registerCleanup("job1", tree(session))).isNull();
      assertThat(agent.registerCleanup("job1", file(segment))).isNull();
      assertThat(agent.registerCleanup("job1", file(outside.resolve("x")))).contains("outside");
      assertThat(session).exists();
      assertThat(segment).exists();

      agent.signalProc("job1", 0, 9);
      events.awaitExit("job1", 0);
      Await.until(() -> !Files.exists(session) && !Files.exists(segment), "the cleanup");
      assertThat(outside).isDirectory();
    } finally {
      agent.close();
      host.close();
    }
  }
}
