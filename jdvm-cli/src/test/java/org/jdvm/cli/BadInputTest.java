package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command fed its bad inputs, from one table: each gets a message and the documented exit
 * status (docs/cli.md: 2 usage, 1 cannot reach, 3 refused), and never a stack trace.
 */
class BadInputTest {
  @TempDir static Path dir;
  private static DvmServer server;

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("badinput", 1, 2, 2, dir.resolve("dvm")));
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  /** One row: the arguments ({@code DIR} is the live DVM's directory), the status, a fragment. */
  private record Row(int status, String expect, String... args) {}

  @Test
  void eachBadInputGetsItsMessageAndStatusAndNoStackTrace() throws Exception {
    String live = dir.resolve("dvm").toString();
    Path stale = Files.createDirectories(dir.resolve("stale"));
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Files.writeString(
        stale.resolve("dvm.json"),
        "{\"name\":\"x\",\"pid\":"
            + gone.pid()
            + ",\"uri\":\"x@0.0;tcp4://127.0.0.1:1\",\"tcp\":\"127.0.0.1:1\",\"unix\":\"\"}");
    List<Row> table =
        List.of(
            new Row(2, "which command", new String[0]),
            new Row(2, "which command", "alloc"),
            new Row(2, "which command", "session"),
            new Row(2, "--time", "alloc", "new", "--dir", live, "--time", ""),
            new Row(2, "--time", "alloc", "new", "--dir", live, "--time", "99999999999999999999"),
            new Row(2, "--time", "alloc", "new", "--dir", live, "--time", "0"),
            new Row(3, "PMIX_ERR_BAD_PARAM", "alloc", "new", "--dir", live, "--time", "1:x"),
            new Row(2, "--warn-timeout", "alloc", "new", "--dir", live, "--warn-timeout", "-1"),
            new Row(2, "--time", "alloc", "extend", "--dir", live, "--id", "a", "--time", ""),
            new Row(
                2, "--id", "session", "signal", "--dir", live, "--id", "-1", "--signal", "TERM"),
            new Row(2, "--id", "session", "signal", "--dir", live, "--id", "x", "--signal", "TERM"),
            new Row(2, "--target", "run", "--dir", live, "--target", "", "--", "true"),
            new Row(2, "--dir", "start", "--dir", ""),
            new Row(2, "nodes-in-dvm", "start", "--dir", live, "--nodes", "10000000"),
            new Row(2, "Unknown option", "nodes", "--bogus"),
            new Row(2, "", "run"),
            new Row(2, "-n", "run", "-n", "0", "--dir", live, "true"),
            new Row(1, "is not running", "jobs", "--dir", stale.toString()),
            new Row(1, "is not running", "run", "--dir", stale.toString(), "--", "true"),
            new Row(1, "already running", "start", "--detach", "--dir", live),
            new Row(
                3,
                "PMIX_ERR_NOT_FOUND",
                "alloc",
                "release",
                "--dir",
                live,
                "--id",
                "no-such-alloc"));
    List<String> wrong = new ArrayList<>();
    for (Row row : table) {
      CliRun r = CliRun.of(row.args());
      String all = r.out() + r.err();
      boolean trace = all.lines().anyMatch(l -> l.matches("\\s+at [\\w.$]+\\(.*"));
      if (r.status() != row.status() || trace || !r.err().contains(row.expect())) {
        wrong.add(
            String.join(" ", row.args())
                + " -> rc "
                + r.status()
                + " (want "
                + row.status()
                + ")"
                + (trace ? " with a stack trace" : "")
                + ": "
                + r.err().lines().findFirst().orElse(""));
      }
    }
    assertThat(wrong).isEmpty();
  }
}
