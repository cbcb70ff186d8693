package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm run}'s output options (docs/cli.md "Output"): tags, labels and time stamps as mpirun
 * (PRRTE/libpmix 4.2.2) and srun print them, files as Open MPI 4.1 and libpmix lay them out, the
 * refusals, and that no rank's output lands in the middle of another's line.
 */
class RunOutputTest {
  @TempDir static Path dir;
  @TempDir Path out;
  private static DvmServer server;

  /** Each rank writes {@code o RANK} to stdout and {@code e RANK} to stderr. */
  private static final String[] BOTH = {
    "sh", "-c", "echo \"o $PMIX_RANK\"; echo \"e $PMIX_RANK\" >&2"
  };

  /** A ctime(3) time stamp. */
  private static final String CTIME = "\\[\\w{3} \\w{3} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}\\]";

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("outopts", 2, 2, 0, dir));
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  private static CliRun run(String... args) {
    List<String> all = new ArrayList<>(List.of("run", "--dir", dir.toString()));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  private static List<String> sorted(String text) {
    return text.lines().sorted().toList();
  }

  /** The job number the tag shows: the namespace after its '@'. */
  private static String job(String line) {
    Matcher m = Pattern.compile("^\\[(\\d+),").matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return m.group(1);
  }

  @Test
  void tagOutputPrefixesEveryLineWithJobRankAndChannelAsMpirunDoes() {
    CliRun r = run("--tag-output", "-n", "2", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    String j = job(r.out());
    assertThat(sorted(r.out()))
        .containsExactly("[" + j + ",0]<stdout>: o 0", "[" + j + ",1]<stdout>: o 1");
    assertThat(sorted(r.err()))
        .containsExactly("[" + j + ",0]<stderr>: e 0", "[" + j + ",1]<stderr>: e 1");
  }

  @Test
  void labelPrefixesEveryLineWithTheRankAsSrunDoes() {
    CliRun r = run("-l", "-n", "2", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(sorted(r.out())).containsExactly("0: o 0", "1: o 1");
    assertThat(sorted(r.err())).containsExactly("0: e 0", "1: e 1");
  }

  @Test
  void timestampOutputPrefixesEveryLineWithTheTimeAndChannel() {
    CliRun r = run("--timestamp-output", "-n", "2", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().lines().toList())
        .hasSize(2)
        .allMatch(l -> l.matches(CTIME + "<stdout>: o [01]"), "timestamped");
    assertThat(r.err().lines().toList())
        .hasSize(2)
        .allMatch(l -> l.matches(CTIME + "<stderr>: e [01]"), "timestamped");
  }

  @Test
  void mpirunFivesOutputListTagsAndTimestampsAsTheOldOptionsDo() {
    CliRun r = run("--output", "tag,timestamp", "-n", "2", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().lines().toList())
        .hasSize(2)
        .allMatch(l -> l.matches(CTIME + "\\[\\d+,[01]\\]<stdout>: o [01]"), "tagged");
  }

  @Test
  void mpirunFivesOutputListHasRankFullnameAndMerge() {
    CliRun r =
        run("--output", "rank,merge-stderr-to-stdout", "-n", "2", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(sorted(r.out()))
        .containsExactly(
            "[0]<stdout>: e 0", "[0]<stdout>: o 0", "[1]<stdout>: e 1", "[1]<stdout>: o 1");
    assertThat(r.err()).isEmpty();
    CliRun f = run("--output", "tag-fullname", "--", "echo", "x");
    assertThat(f.status()).as(f.err()).isZero();
    assertThat(f.out()).matches("\\[outopts@\\d+,0\\]<stdout>: x\n");
  }

  @Test
  void outputFilenameWritesEachRanksLinesToOpenMpi41sLayoutAndTheTerminalToo() throws Exception {
    CliRun r = run("--output-filename", out.toString(), "-n", "3", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    for (int rank = 0; rank < 3; rank++) {
      Path d = out.resolve("1").resolve("rank." + rank);
      assertThat(Files.readString(d.resolve("stdout"))).isEqualTo("o " + rank + "\n");
      assertThat(Files.readString(d.resolve("stderr"))).isEqualTo("e " + rank + "\n");
    }
    assertThat(sorted(r.out())).containsExactly("o 0", "o 1", "o 2");
  }

  @Test
  void outputFilenameNocopyWritesTheFilesOnlyAndNojobidDropsTheJobLevel() throws Exception {
    CliRun r =
        run(
            "--output-filename",
            out + ":nocopy,nojobid",
            "-n",
            "2",
            "--",
            BOTH[0],
            BOTH[1],
            BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(Files.readString(out.resolve("rank.1").resolve("stdout"))).isEqualTo("o 1\n");
  }

  @Test
  void outputDirAndFileUseLibpmixLayoutsUnderTheNamespace() throws Exception {
    CliRun r =
        run("--output", "dir=" + out.resolve("d"), "-n", "2", "--", BOTH[0], BOTH[1], BOTH[2]);
    assertThat(r.status()).as(r.err()).isZero();
    try (var jobs = Files.list(out.resolve("d"))) {
      Path ns = jobs.findFirst().orElseThrow();
      assertThat(ns.getFileName().toString()).startsWith("outopts@");
      assertThat(Files.readString(ns.resolve("rank.1/stdout"))).isEqualTo("o 1\n");
      assertThat(Files.readString(ns.resolve("rank.1/stderr"))).isEqualTo("e 1\n");
    }
    CliRun f = run("--output", "file=" + out.resolve("f/log"), "-n", "1", "--", "echo", "hello");
    assertThat(f.status()).as(f.err()).isZero();
    try (var files = Files.list(out.resolve("f"))) {
      List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).hasSize(2).allMatch(n -> n.matches("log\\.outopts@\\d+\\.0\\.(out|err)"));
      assertThat(Files.readString(out.resolve("f").resolve(names.get(1)))).isEqualTo("hello\n");
    }
  }

  @Test
  void aDirectoryTheRequesterCannotCreateIsRefusedByTheDvmBeforeAnythingStarts() throws Exception {
    Path file = Files.writeString(out.resolve("plain-file"), "x");
    CliRun r =
        run(
            "--output-filename",
            file.resolve("sub").toString(),
            "--",
            "touch",
            out.resolve("ran").toString());
    assertThat(r.status()).as(r.err()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err()).contains("PMIX_ERR_NO_PERMISSIONS");
    // Refused for its output files, not for where it may run: no jdvm explain hint.
    assertThat(r.err()).doesNotContain("see: jdvm explain");
    assertThat(out.resolve("ran")).doesNotExist();
  }

  @Test
  void badOutputValuesAreUsageErrors() {
    for (String[] bad :
        List.of(
            new String[] {"--output", "bogus"},
            new String[] {"--output", "xml"},
            new String[] {"--output", "dir="},
            new String[] {"--output", "dir=/tmp/a,file=/tmp/b"},
            new String[] {"--output-filename", "/tmp/x:sideways"})) {
      List<String> args = new ArrayList<>(List.of(bad));
      args.addAll(List.of("--", "true"));
      CliRun r = run(args.toArray(String[]::new));
      assertThat(r.status()).as(String.join(" ", bad)).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.err()).as(String.join(" ", bad)).contains("jdvm run: --output");
    }
  }

  /**
   * Two ranks write many long lines at once: every line arrives whole, never another rank's bytes
   * in the middle of it, untagged as tagged.
   */
  @Test
  void longLinesOfTwoRanksAreNeverInterleavedMidLine() {
    String program =
        "import os\n"
            + "r = int(os.environ['PMIX_RANK'])\n"
            + "line = (chr(65 + r) * 10240 + '\\n').encode()\n"
            + "for _ in range(300):\n"
            + "    os.write(1, line[:5000])\n"
            + "    os.write(1, line[5000:])\n";
    for (String tag : List.of("--stdin=none", "--tag-output")) {
      CliRun r = run(tag, "-n", "2", "--", "python3", "-c", program);
      assertThat(r.status()).as(r.err()).isZero();
      List<String> lines = r.out().lines().toList();
      assertThat(lines).hasSize(600);
      long whole =
          lines.stream()
              .map(l -> l.replaceFirst("^\\[\\d+,[01]\\]<stdout>: ", ""))
              .filter(l -> l.matches("A{10240}|B{10240}"))
              .count();
      assertThat(whole).as(tag + ": lines of one rank, whole").isEqualTo(600);
    }
  }
}
