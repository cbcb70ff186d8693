package org.jdvm.host.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * jdvm's native start ({@link NativeSpawn}) makes the child {@link Posix#spawn} makes, and more: it
 * is built wherever gcc is, its child is in its cgroup from its first instruction, and a child that
 * cannot exec is reported with its errno and leaves no zombie.
 */
class NativeSpawnTest {
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");
  private final List<Integer> children = new ArrayList<>();
  private final List<Integer> fds = new ArrayList<>();
  private Containment containment;

  @BeforeEach
  void needsTheLibrary() {
    assumeTrue(NativeSpawn.unavailable().isEmpty(), NativeSpawn.unavailable().orElse(""));
  }

  @AfterEach
  void endEverything() {
    for (int pid : children) {
      Posix.kill(pid, 9);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (Posix.reapChild(pid) == null && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
    }
    fds.forEach(Posix::close);
    if (containment != null) {
      containment.close();
    }
  }

  @Test
  void theLibraryIsBuiltWhereverGccIs() {
    boolean gcc =
        Files.isExecutable(Path.of("/usr/bin/gcc")) || Files.isExecutable(Path.of("/bin/gcc"));
    boolean x86 = System.getProperty("os.arch").equals("amd64");
    if (gcc && x86) {
      assertThat(NativeSpawn.unavailable())
          .as("the build had gcc: the library must load")
          .isEmpty();
    }
  }

  /** Runs {@code argv} with its stdout and stderr on a pipe and returns what it wrote. */
  private String run(List<String> argv, Path cgroup) throws Exception {
    int[] out = Posix.pipe(-1);
    fds.add(out[0]);
    NativeSpawn.Started s;
    try {
      s =
          NativeSpawn.spawn(
              new Start(Path.of(argv.getFirst()), argv, ENV, null, -1, out[1], out[1]),
              cgroup,
              true);
    } finally {
      Posix.close(out[1]);
    }
    children.add(s.pid());
    fds.add(s.pidfd());
    assertThat(s.pidfd()).as("a pidfd from the clone").isNotNegative();
    try (FileInputStream in = new FileInputStream("/proc/self/fd/" + out[0])) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theChildIsInItsCgroupFromItsFirstInstruction() throws Exception {
    containment = Containment.open(null, true, pid -> false);
    Path cgroup = containment.birthplace("job");
    assumeTrue(cgroup != null, "no writable cgroup v2 here: " + containment.describe());
    // cat reads its own cgroup at once: a move after the start would come too late for it.
    String own = run(List.of("/bin/cat", "/proc/self/cgroup"), cgroup);
    String expected = "/" + cgroup.getParent().getFileName() + "/" + cgroup.getFileName();
    assertThat(own.lines().filter(l -> l.startsWith("0::")).findFirst())
        .as("the child's cgroup v2")
        .hasValueSatisfying(l -> assertThat(l).endsWith(expected));
  }

  @Test
  void theChildHasANewSessionOnlyStdioAndEverySignalAtItsDefault() throws Exception {
    String status = run(List.of("/bin/cat", "/proc/self/status"), null);
    assertThat(status)
        .containsPattern("(?m)^SigBlk:\\s+0+$")
        .containsPattern("(?m)^SigIgn:\\s+0+$");
    String stat = run(List.of("/bin/cat", "/proc/self/stat"), null);
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    assertThat(f[3]).as("session id: its own pid").isEqualTo(stat.substring(0, stat.indexOf(' ')));
    // ls's own directory descriptor is 3: anything above would be one the child inherited.
    assertThat(run(List.of("/bin/ls", "/proc/self/fd"), null).split("\\s+"))
        .containsExactly("0", "1", "2", "3");
  }

  @Test
  void aChildThatCannotExecIsItsErrnoAndLeavesNoZombie() throws Exception {
    int self = (int) ProcessHandle.current().pid();
    java.util.Set<Integer> before = java.util.Set.copyOf(ProcScan.childrenOf(self));
    int[] out = Posix.pipe(-1);
    fds.add(out[0]);
    fds.add(out[1]);
    Start missing =
        new Start(Path.of("/nonexistent/cmd"), List.of("cmd"), ENV, null, -1, out[1], out[1]);
    assertThatThrownBy(() -> NativeSpawn.spawn(missing, null, true))
        .isInstanceOfSatisfying(
            Posix.PosixException.class, e -> assertThat(e.errno()).isEqualTo(2)); // ENOENT
    Start noDir =
        new Start(
            Path.of("/bin/true"),
            List.of("true"),
            ENV,
            Path.of("/nonexistent-dir"),
            -1,
            out[1],
            out[1]);
    assertThatThrownBy(() -> NativeSpawn.spawn(noDir, null, false))
        .isInstanceOfSatisfying(
            Posix.PosixException.class, e -> assertThat(e.errno()).isEqualTo(2));
    Start fine = new Start(Path.of("/bin/true"), List.of("true"), ENV, null, -1, out[1], out[1]);
    assertThatThrownBy(() -> NativeSpawn.spawn(fine, Path.of("/nonexistent-cgroup"), true))
        .as("a cgroup that cannot be opened starts nothing")
        .isInstanceOfSatisfying(
            Posix.PosixException.class, e -> assertThat(e.errno()).isEqualTo(2));
    assertThat(ProcScan.childrenOf(self)).as("no child left to reap").allMatch(before::contains);
  }
}
