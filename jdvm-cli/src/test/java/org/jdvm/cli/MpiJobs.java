package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.assembly.DvmServer;

/**
 * MPI programs under {@code jdvm run} on an in-process DVM, as the end-to-end tests of each MPI
 * family run them: building them, running them with the check that a job leaves no process and no
 * directory, and reading each rank's lines.
 */
final class MpiJobs {
  private final DvmServer server;
  private final Path dir;

  MpiJobs(DvmServer server, Path dir) {
    this.server = server;
    this.dir = dir;
  }

  static boolean succeeds(List<String> cmd) throws InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return false;
    }
    try {
      p.getInputStream().readAllBytes();
      return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Builds {@code source} into {@code out} with {@code compiler} ({@code mpicc.mpich}, {@code gcc},
   * ...; always a family's own), {@code flags} after the source; whether it built.
   */
  static boolean build(String compiler, Path source, Path out, String... flags)
      throws InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(compiler, "-o", out.toString(), source.toString()));
    cmd.addAll(List.of(flags));
    return succeeds(cmd);
  }

  /**
   * Builds the suite's simple PMI client programs into {@code bin}: {@code pmi_spawn} against
   * MPICH's own PMI-1 client in {@code libmpich.a} (the shared library hides {@code PMI_*}) and
   * {@code pmi2_hello} against Slurm's {@code libpmi2}. Why each could not be built, or {@code
   * null} for each that was: {@code [pmi_spawn, pmi2_hello]}.
   */
  static String[] buildPmiClients(Path programs, Path bin) throws InterruptedException {
    String[] why = new String[2];
    if (!build(
        "gcc",
        programs.resolve("pmi_spawn.c"),
        bin.resolve("pmi_spawn"),
        "-Wl,-Bstatic",
        "-lmpich",
        "-Wl,-Bdynamic")) {
      why[0] = "gcc could not link pmi_spawn against libmpich.a (libmpich-dev)";
    }
    if (!build("gcc", programs.resolve("pmi2_hello.c"), bin.resolve("pmi2_hello"), "-lpmi2")) {
      why[1] = "gcc could not build pmi2_hello against Slurm's libpmi2 (libpmi2-0-dev)";
    }
    return why;
  }

  /** {@code jdvm run -n np CMD...}; then checks that the job left no process and no directory. */
  CliRun run(int np, String... cmd) throws Exception {
    return run(List.of(), np, cmd);
  }

  /**
   * As {@link #run(int, String...)}, with more of {@code jdvm run}'s options before the command.
   */
  CliRun run(List<String> options, int np, String... cmd) throws Exception {
    List<String> args = new ArrayList<>(List.of("run", "--dir", dir.toString(), "-n", "" + np));
    args.addAll(options);
    args.add("--");
    args.addAll(List.of(cmd));
    List<String> before = namespaces();
    CliRun r = CliRun.of(args.toArray(String[]::new));
    for (Map<String, Object> job : jobs()) {
      if (before.contains((String) job.get("nspace"))) {
        continue;
      }
      for (Object p : (List<?>) job.get("procs")) {
        long pid = ((Number) ((Map<?, ?>) p).get("pid")).longValue();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
            .as("process %d of %s", pid, job.get("nspace"))
            .isEmpty();
      }
      Path nsdir = server.home().tmp().resolve((String) job.get("nspace"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (Files.exists(nsdir) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(nsdir).as("the job's directory").doesNotExist();
    }
    return r;
  }

  @SuppressWarnings("unchecked")
  List<Map<String, Object>> jobs() {
    CliRun r = CliRun.of("jobs", "--dir", dir.toString(), "--json");
    assertThat(r.status()).as(r.err()).isZero();
    return ((List<Map<String, Object>>) Json.parse(r.out()))
        .stream().filter(j -> "application".equals(j.get("kind"))).toList();
  }

  List<String> namespaces() {
    return jobs().stream().map(j -> (String) j.get("nspace")).toList();
  }

  /**
   * Every rank's line starting with {@code prefix}, sorted. A line is taken up to the next {@code
   * OK}/{@code FAIL} or line end: {@code jdvm run} forwards each rank's output chunk by chunk, and
   * Python writes a line and its newline apart, so two ranks' lines may be interleaved.
   */
  static List<String> lines(CliRun r, String prefix) {
    List<String> found = new ArrayList<>();
    Matcher m =
        Pattern.compile(Pattern.quote(prefix) + ".*?(?=OK |FAIL |\\n|$)", Pattern.MULTILINE)
            .matcher(r.out());
    while (m.find()) {
      found.add(m.group().strip());
    }
    return found.stream().sorted().toList();
  }
}
