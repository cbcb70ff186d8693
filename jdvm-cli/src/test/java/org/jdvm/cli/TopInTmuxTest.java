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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm top} in a real terminal (docs/cli.md "jdvm top"): a tmux pane on a server of the
 * test's own (its own socket), a DVM started as a child {@code jdvm start}, keys sent and the pane
 * captured. The pane runs a script that saves the terminal's settings before {@code jdvm top} and
 * after it, so the test sees that they are restored.
 */
class TopInTmuxTest {
  private static final String TMUX = "/usr/bin/tmux";

  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();
  private Path socket;
  private Path dir;
  private final String session = "top" + ProcessHandle.current().pid() + "-" + System.nanoTime();

  @BeforeEach
  void startDvm() throws Exception {
    assumeTrue(Files.isExecutable(Path.of(TMUX)), "tmux is not installed at " + TMUX);
    socket = tmp.resolve("tmux.sock");
    dir = tmp.resolve("dvm");
    ProcessBuilder pb =
        new ProcessBuilder(
                ChildJdvm.command(
                    "start",
                    "--dir",
                    dir.toString(),
                    "--nodes",
                    "2",
                    "--slots",
                    "2",
                    "--name",
                    "toptest"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("TMPDIR", tmp.toString());
    Process p = pb.start();
    started.add(p);
    Path contact = dir.resolve("dvm.json");
    Listings.until(
        () -> read(contact).contains("\"pid\":" + p.pid()), "the DVM's contact file", 60);
  }

  @AfterEach
  void endEverythingThisTestStarted() throws Exception {
    if (socket != null) {
      // The pane's shell and what runs in it (jdvm top), by pid, then the test's tmux server.
      String pane = tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip();
      if (pane.matches("[0-9]+")) {
        ProcessHandle.of(Long.parseLong(pane))
            .ifPresent(
                h -> {
                  h.descendants().forEach(ProcessHandle::destroyForcibly);
                  h.destroyForcibly();
                });
      }
      tmux("kill-server");
    }
    for (Process p : started) {
      p.destroy(); // SIGTERM: a DVM stops the ordered way and ends its jobs
    }
    for (Process p : started) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void itShowsTheNodesAndANewJobFitsAResizeAndQuitsOnQRestoringTheTerminal() throws Exception {
    startTop();
    awaitPane(s -> s.contains("default: node0 0/2 node1 0/2"), "the nodes");
    CliRun run = CliRun.of("run", "--dir", dir.toString(), "--detach", "--", "sleep", "600");
    assertThat(run.status()).as(run.err()).isZero();
    String ns = run.out().strip();
    String pane =
        awaitPane(
            s -> s.contains(ns + "  running") && s.contains("JobLaunched namespace=" + ns),
            "the job, and its launch in the events");
    assertThat(pane).contains("1 job not ended", "1/4 slots in use");

    tmux("resize-window", "-t", session, "-x", "50", "-y", "12");
    pane = awaitPane(s -> s.lines().findFirst().orElse("").endsWith(">"), "the frame cut to 50");
    assertThat(pane.lines().toList())
        .hasSizeLessThanOrEqualTo(12)
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(50));
    assertThat(pane.lines().findFirst().orElseThrow()).hasSize(50);

    tmux("send-keys", "-t", session, "q");
    pane = awaitPane(s -> s.contains("top exited"), "jdvm top's end");
    assertThat(pane).contains("top exited 0").doesNotContain("NODES");
    assertThat(read(tmp.resolve("after"))).isEqualTo(read(tmp.resolve("before"))).isNotEmpty();
  }

  @Test
  void aDvmThatStopsEndsItWithAMessage() throws Exception {
    startTop();
    awaitPane(s -> s.contains("default: node0 0/2 node1 0/2"), "the nodes");
    CliRun stop = CliRun.of("stop", "--dir", dir.toString());
    assertThat(stop.status()).as(stop.err()).isZero();
    String pane = awaitPane(s -> s.contains("top exited"), "jdvm top's end");
    assertThat(pane).contains("jdvm top: the DVM stopped", "top exited 0");
    assertThat(read(tmp.resolve("after"))).isEqualTo(read(tmp.resolve("before"))).isNotEmpty();
  }

  /** A pane of 100 × 30 running {@code jdvm top} between two saves of the terminal's settings. */
  private void startTop() throws Exception {
    StringBuilder cmd = new StringBuilder();
    for (String a : ChildJdvm.command("top", "--dir", dir.toString())) {
      cmd.append('\'').append(a.replace("'", "'\\''")).append("' ");
    }
    Path script = tmp.resolve("top.sh");
    Files.writeString(
        script,
        "stty -g > '"
            + tmp.resolve("before")
            + "'\n"
            + cmd
            + "\necho \"top exited $?\"\nstty -g > '"
            + tmp.resolve("after")
            + "'\nsleep 60\n");
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", "sh " + script);
  }

  private String awaitPane(java.util.function.Predicate<String> ok, String what) throws Exception {
    String[] last = {""};
    try {
      Listings.until(
          () -> {
            last[0] = capture();
            return ok.test(last[0]);
          },
          what,
          60);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; the pane:\n" + last[0], e);
    }
    return last[0];
  }

  private String capture() {
    try {
      return tmux("capture-pane", "-p", "-t", session).stripTrailing();
    } catch (Exception e) {
      return "";
    }
  }

  /** Runs tmux on the test's own server and returns its output. */
  private String tmux(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(TMUX, "-S", socket.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    return out;
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
