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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code PMIX_IOF_*} spawn attributes set directly (docs/cli.md "Output"): a libpmix 4.2.2 tool
 * ({@code iof_tool.c}, whose library formats its job's output) and the Java client (which formats
 * as libpmix does) show the same lines; the DVM writes the files either asks for. Without gcc or
 * libpmix the C half is skipped, saying why.
 */
class IofAttributesTest {
  @TempDir static Path bin;
  @TempDir Path home;
  @TempDir Path files;

  private static Path tool;
  private static String skipped;

  private static final String SH = "echo \"o $PMIX_RANK\"; echo \"e $PMIX_RANK\" >&2";

  @BeforeAll
  static void compile() throws Exception {
    String flags = LocalCommand.output(List.of("pkg-config", "--cflags", "--libs", "pmix"), 60);
    if (flags == null) {
      skipped = "pkg-config or libpmix-dev (pmix.pc) is not installed";
      return;
    }
    tool = bin.resolve("iof_tool");
    Path source = bin.resolve("iof_tool.c");
    try (InputStream in = IofAttributesTest.class.getResourceAsStream("/c/iof_tool.c")) {
      Files.copy(in, source);
    }
    List<String> cmd =
        new ArrayList<>(List.of("gcc", "-Wall", "-o", tool.toString(), source.toString()));
    cmd.addAll(List.of(flags.trim().split("\\s+")));
    if (LocalCommand.output(cmd, 60) == null) {
      skipped = "gcc could not build iof_tool.c against libpmix";
    }
  }

  record ToolRun(String nspace, List<String> out, List<String> err) {}

  /** Runs the C tool to its end; its job's lines on stdout and stderr, sorted. */
  private static ToolRun cTool(TestDvm t, int np, String... directives) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(tool.toString(), t.endpoint.uri(), "" + np));
    cmd.addAll(List.of(directives));
    Process p = new ProcessBuilder(cmd).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String errText = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(errText).isZero();
      Matcher m = Pattern.compile("TOOL SPAWN rc=0 nspace=(\\S+)").matcher(errText);
      assertThat(m.find()).as(errText).isTrue();
      return new ToolRun(
          m.group(1),
          out.lines().sorted().toList(),
          errText.lines().filter(l -> !l.startsWith("TOOL ")).sorted().toList());
    } finally {
      p.destroyForcibly();
    }
  }

  /** Runs the same job through the Java client with {@code infos}; rank by rank, its text. */
  private static List<String> javaClient(TestDvm t, int np, boolean stderr, Info... infos)
      throws Exception {
    TestDvm.Output out = new TestDvm.Output();
    JdvmClient c = t.tool(out);
    SpawnRequest.Builder b = SpawnRequest.of("sh", "-c", SH).procs(np);
    for (Info i : infos) {
      b.info(i);
    }
    Job job = c.spawn(b.build());
    job.awaitEnd();
    List<String> lines = new ArrayList<>();
    for (int r = 0; r < np; r++) {
      lines.addAll(out.of(job.nspace(), r, stderr).lines().toList());
    }
    return lines.stream().sorted().toList();
  }

  private static Info on(String key) {
    return Info.of(key, Value.bool(true));
  }

  private static String job(String nspace) {
    return nspace.substring(nspace.lastIndexOf('@') + 1);
  }

  @Test
  void tagOutputIsTheSameFromALibpmixToolAndTheJavaClient() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      ToolRun c = cTool(t, 2, "tag");
      String j = job(c.nspace());
      assertThat(c.out())
          .containsExactly("[" + j + ",0]<stdout>: o 0", "[" + j + ",1]<stdout>: o 1");
      assertThat(c.err())
          .containsExactly("[" + j + ",0]<stderr>: e 0", "[" + j + ",1]<stderr>: e 1");
      List<String> java = javaClient(t, 2, false, on(PmixKeys.IOF_TAG_OUTPUT));
      assertThat(java).hasSize(2);
      assertThat(java.get(0).replaceFirst("^\\[\\d+,", "[" + j + ",")).isEqualTo(c.out().get(0));
      assertThat(java.get(1).replaceFirst("^\\[\\d+,", "[" + j + ",")).isEqualTo(c.out().get(1));
    }
  }

  @Test
  void rankFullnameAndTimestampAreTheSameFromBoth() throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      assertThat(cTool(t, 2, "rank").out()).containsExactly("[0]<stdout>: o 0", "[1]<stdout>: o 1");
      assertThat(javaClient(t, 2, false, on(PmixKeys.IOF_RANK_OUTPUT)))
          .containsExactly("[0]<stdout>: o 0", "[1]<stdout>: o 1");
      ToolRun full = cTool(t, 1, "tagfull");
      assertThat(full.out()).containsExactly("[" + full.nspace() + ",0]<stdout>: o 0");
      assertThat(javaClient(t, 1, true, on(PmixKeys.IOF_TAG_FULLNAME_OUTPUT)))
          .singleElement()
          .asString()
          .matches("\\[[^,\\]]+@\\d+,0\\]<stderr>: e 0");
      String ctime = "\\[\\w{3} \\w{3} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}\\]";
      assertThat(cTool(t, 1, "ts").out())
          .singleElement()
          .asString()
          .matches(ctime + "<stdout>: o 0");
      assertThat(javaClient(t, 1, false, on(PmixKeys.IOF_TIMESTAMP_OUTPUT)))
          .singleElement()
          .asString()
          .matches(ctime + "<stdout>: o 0");
      assertThat(cTool(t, 1, "ts", "tag").out())
          .singleElement()
          .asString()
          .matches(ctime + "\\[\\d+,0\\]<stdout>: o 0");
      assertThat(
              javaClient(
                  t, 1, false, on(PmixKeys.IOF_TIMESTAMP_OUTPUT), on(PmixKeys.IOF_TAG_OUTPUT)))
          .singleElement()
          .asString()
          .matches(ctime + "\\[\\d+,0\\]<stdout>: o 0");
    }
  }

  @Test
  void aLibpmixToolsOutputDirectoryIsWrittenByTheDvmAndFileOnlyKeepsItOffTheTool()
      throws Exception {
    assumeTrue(skipped == null, skipped);
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      ToolRun c = cTool(t, 2, "dir=" + files, "fonly");
      assertThat(c.out()).isEmpty();
      assertThat(c.err()).isEmpty();
      Path rank1 = files.resolve(c.nspace()).resolve("rank.1");
      assertThat(Files.readString(rank1.resolve("stdout"))).isEqualTo("o 1\n");
      assertThat(Files.readString(rank1.resolve("stderr"))).isEqualTo("e 1\n");
      ToolRun f = cTool(t, 1, "file=" + files.resolve("log"));
      assertThat(f.out()).containsExactly("o 0");
      assertThat(Files.readString(files.resolve("log." + f.nspace() + ".0.out")))
          .isEqualTo("o 0\n");
      assertThat(Files.readString(files.resolve("log." + f.nspace() + ".0.err")))
          .isEqualTo("e 0\n");
    }
  }

  @Test
  void refusalsComeWithTheirStatusAndStartNothing() throws Exception {
    try (TestDvm t = TestDvm.start(home, 1, 2, 0)) {
      JdvmClient c = t.tool(new TestDvm.Output());
      Path plain = Files.writeString(files.resolve("plain"), "x");
      Path ran = files.resolve("ran");
      for (Object[] bad :
          List.of(
              new Object[] {
                Info.of(PmixKeys.IOF_OUTPUT_TO_DIRECTORY, Value.string(plain + "/d")),
                PmixStatus.ERR_NO_PERMISSIONS
              },
              new Object[] {
                Info.of(PmixKeys.IOF_FILE_PATTERN, Value.bool(true)), PmixStatus.ERR_NOT_SUPPORTED
              },
              new Object[] {
                Info.of(PmixKeys.IOF_FILE_ONLY, Value.bool(true)), PmixStatus.ERR_BAD_PARAM
              },
              new Object[] {
                Info.of(PmixKeys.IOF_OUTPUT_TO_DIRECTORY, Value.bool(true)),
                PmixStatus.ERR_BAD_PARAM
              },
              new Object[] {on(PmixKeys.IOF_XML_OUTPUT), PmixStatus.ERR_NOT_SUPPORTED},
              new Object[] {on(PmixKeys.IOF_TAG_DETAILED_OUTPUT), PmixStatus.ERR_NOT_SUPPORTED})) {
        Info i = (Info) bad[0];
        SpawnRequest r = SpawnRequest.of("touch", ran.toString()).info(i).build();
        try {
          c.spawn(r);
          throw new AssertionError("spawned with " + i);
        } catch (PmixException e) {
          assertThat(e.status()).as(i.toString()).isEqualTo((int) bad[1]);
        }
      }
      assertThat(ran).doesNotExist();
    }
  }
}
