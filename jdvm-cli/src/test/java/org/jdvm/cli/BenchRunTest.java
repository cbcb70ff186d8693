package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm bench} as a user runs it, in a JVM of its own with its DVM detached: the JSON form
 * prints one JSON object a program can read, and a bench ended from outside stops the DVM it
 * started. Only the shape is checked, never a figure (benchmarks are not tests).
 */
class BenchRunTest {
  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();
  private final List<Long> dvmPids = new ArrayList<>();

  @AfterEach
  void endWhatThisTestStarted() throws IOException {
    Path err = tmp.resolve("bench.err");
    if (Files.exists(err)) {
      System.err.println("bench stderr:\n" + Files.readString(err));
    }
    for (long pid : dvmPids) {
      if (!ProcessHandle.of(pid).map(h -> StopCommand.awaitEnd(h, 0)).orElse(true)) {
        System.err.println("bench DVM " + pid + " still running:\n" + diagnosis(pid));
      }
    }
    started.forEach(Process::destroyForcibly);
    // A bench ended forcibly leaves its detached DVM (and its contact file) behind.
    Optional<Path> left = contactFile();
    if (left.isPresent()) {
      dvmPids.add(dvmPid(left.get()));
    }
    dvmPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  @Test
  void theJsonFormPrintsOneObjectWithEveryMeasure() throws Exception {
    // Each measure's row with its figures' keys, as docs/cli.md "jdvm bench" shows them.
    Process p = bench("1", "--json");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("the bench ends").isTrue();
    assertThat(p.exitValue()).as("status; stdout: " + out).isZero();

    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> rows =
        (Map<String, Map<String, Object>>) Json.parse(out.strip());
    rows.forEach((what, row) -> assertThat(row).as(what).containsKey("target"));
    assertThat(rows.get("spawn-and-wait, 1-proc /bin/true"))
        .containsKeys("samples", "medianMs", "p99Ms");
    assertThat(rows.get("allocation NEW+RELEASE round trip"))
        .containsKeys("samples", "medianMs", "p99Ms");
    for (String clients :
        List.of("1 concurrent client", "8 concurrent clients", "32 concurrent clients")) {
      assertThat(rows.get("job throughput, " + clients))
          .as(clients)
          .containsKeys("clients", "warmUpSeconds", "jobs", "jobsPerSecond", "failedClients");
    }
    if (rows.containsKey("floor: posix_spawn + wait of /bin/true in C")) {
      assertThat(rows.get("floor: posix_spawn + wait of /bin/true in C")).containsKey("skipped");
      return; // no gcc: no floor, and no ratios to it
    }
    assertThat(rows.get("floor: posix_spawn + waitpid /bin/true in C, 1 thread"))
        .containsKeys("samples", "medianMs", "p99Ms");
    assertThat(rows.get("spawn-and-wait median / floor median")).containsKey("ratio");
    assertThat(rows.get("job throughput, 8 clients, in turns with the floor"))
        .containsKeys("clients", "turns", "jobsPerSecond");
    assertThat(rows.get("floor: posix_spawn + waitpid /bin/true in C, 8 threads"))
        .containsKeys("threads", "turns", "spawnsPerSecond");
    Map<String, Object> rate = rows.get("8-client job rate / floor 8-thread rate, median turn");
    assertThat(rate).containsKeys("percent", "turnPercents");
    // The figure that once reached the JSON printer as a long[]: an array of numbers, one a turn.
    assertThat((List<?>) rate.get("turnPercents"))
        .hasSize(
            ((Number) rows.get("job throughput, 8 clients, in turns with the floor").get("turns"))
                .intValue())
        .allSatisfy(turn -> assertThat(turn).isInstanceOf(Number.class));
  }

  /**
   * {@code --only mpi} with one timed turn of 2 ranks and no warm-up: for each MPI family, the
   * floor, the family's launcher, {@code jdvm run}, the client library and the ratio, each with its
   * family, N and either figures or why there are none; or one row saying why the family was
   * skipped (its compiler missing). jdvm's own rows have figures whenever the program was built:
   * its failing to run an MPI hello is a failure here (no time is asserted).
   */
  @Test
  void theMpiSectionPrintsOneRowPerWayForEachFamily() throws Exception {
    List<String> cmd = ChildJdvm.command();
    cmd.add(1, "-Djava.io.tmpdir=" + tmp);
    cmd.addAll(
        List.of(
            "bench",
            "--only",
            "mpi",
            "--in-process",
            "--mpi-runs",
            "1",
            "--mpi-warm-up",
            "0",
            "--mpi-ranks",
            "2",
            "--json"));
    Process p = new ProcessBuilder(cmd).redirectError(tmp.resolve("bench.err").toFile()).start();
    started.add(p);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the bench ends").isTrue();
    assertThat(p.exitValue()).as("status; stdout: " + out).isZero();

    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> rows =
        (Map<String, Map<String, Object>>) Json.parse(out.strip());
    for (String family : List.of("MPICH", "Open MPI")) {
      Map<String, Object> skipped = rows.get(family + ": MPI launch measures");
      if (skipped != null) {
        assertThat(skipped.get("skipped")).as(family + " skipped, saying why").isNotNull();
        continue;
      }
      String at = family + " -n 2: ";
      List<String> ways = rows.keySet().stream().filter(k -> k.startsWith(at)).toList();
      assertThat(ways).as(family + "'s rows in " + rows.keySet()).hasSize(5);
      for (String way : ways) {
        Map<String, Object> row = rows.get(way);
        assertThat(row).as(way).containsKeys("family", "launcher", "ranks", "target");
        assertThat(((Number) row.get("ranks")).intValue()).as(way).isEqualTo(2);
        assertThat(
                row.containsKey("ratio")
                    || row.containsKey("medianMs")
                    || row.containsKey("skipped")
                    || row.containsKey("failed"))
            .as(way + ": figures, or why not: " + row)
            .isTrue();
      }
      for (String jdvm : List.of("jdvm run (CLI process)", "jdvm client library, spawn to exit")) {
        assertThat(rows.get(at + jdvm))
            .as(at + jdvm)
            .containsKeys("medianMs", "minMs", "floorMs", "overheadMs");
      }
    }
  }

  @Test
  void fewerThanOneRateTurnIsRefusedBeforeAnythingStarts() throws Exception {
    List<String> cmd = ChildJdvm.command("bench", "--rate-turns", "0");
    cmd.add(1, "-Djava.io.tmpdir=" + tmp);
    Process p = new ProcessBuilder(cmd).redirectError(tmp.resolve("bench.err").toFile()).start();
    started.add(p);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the bench ends").isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(Files.readString(tmp.resolve("bench.err")))
        .contains("jdvm bench: --rate-turns takes a number of turns of at least 1");
    try (Stream<Path> homes = Files.list(tmp)) {
      assertThat(homes.map(h -> h.getFileName().toString()))
          .as("no bench directory, so no DVM")
          .noneMatch(n -> n.startsWith("jdvm-bench-"));
    }
  }

  @Test
  void aBenchEndedBySigtermStopsTheDvmItStarted() throws Exception {
    Process p = bench("30");
    Path contact =
        await(
            () -> {
              assertThat(p.isAlive()).as("the bench runs (its stderr is printed)").isTrue();
              return contactFile();
            },
            "the bench DVM's contact file");
    long dvm = dvmPid(contact);
    dvmPids.add(dvm);
    assertThat(ProcessHandle.of(dvm).map(ProcessHandle::isAlive)).contains(true);

    new ProcessBuilder("/bin/kill", "-TERM", Long.toString(p.pid())).start().waitFor();

    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the bench exits on SIGTERM").isTrue();
    await(
        () ->
            ProcessHandle.of(dvm).map(h -> StopCommand.awaitEnd(h, 0)).orElse(true)
                ? Optional.of(dvm)
                : Optional.empty(),
        "the bench DVM (pid " + dvm + ") to be stopped");
  }

  /**
   * {@code jdvm bench} with the smallest settings (one turn with the floor: the JSON test's CPU
   * stays near 20 s) and {@code seconds} per rate measure, its scratch directory under {@link
   * #tmp}.
   */
  private Process bench(String seconds, String... more) throws IOException {
    List<String> cmd = ChildJdvm.command();
    cmd.add(1, "-Djava.io.tmpdir=" + tmp);
    cmd.addAll(
        List.of(
            "bench",
            "--spawns",
            "20",
            "--warm-up",
            "20",
            "--allocs",
            "10",
            "--seconds",
            "1",
            "--rate-warm-up",
            "0",
            "--rate-turns",
            "1",
            "--cli-runs",
            "0",
            "--mpi-runs",
            "0"));
    cmd.addAll(List.of(more));
    Process p = new ProcessBuilder(cmd).redirectError(tmp.resolve("bench.err").toFile()).start();
    started.add(p);
    return p;
  }

  /** The end of a lingering bench DVM's log and its threads (its contact file may be gone). */
  private String diagnosis(long pid) throws IOException {
    StringBuilder b = new StringBuilder();
    try (Stream<Path> homes = Files.list(tmp)) {
      for (Path h :
          homes.filter(h -> h.getFileName().toString().startsWith("jdvm-bench-")).toList()) {
        Path log = h.resolve("dvm.log");
        if (Files.exists(log)) {
          List<String> lines = Files.readAllLines(log);
          b.append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
        }
      }
    }
    Process jstack =
        new ProcessBuilder(jstack(), Long.toString(pid)).redirectErrorStream(true).start();
    b.append("\n")
        .append(new String(jstack.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    return b.toString();
  }

  private static String jstack() {
    return ProcessHandle.current()
        .info()
        .command()
        .map(java -> Path.of(java).resolveSibling("jstack").toString())
        .orElse("jstack");
  }

  private Optional<Path> contactFile() {
    try (Stream<Path> homes = Files.list(tmp)) {
      return homes
          .filter(h -> h.getFileName().toString().startsWith("jdvm-bench-"))
          .map(h -> h.resolve("dvm.json"))
          .filter(Files::isRegularFile)
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static long dvmPid(Path contact) throws IOException {
    Map<?, ?> c = (Map<?, ?>) Json.parse(Files.readString(contact));
    return ((Number) c.get("pid")).longValue();
  }

  private static <T> T await(java.util.function.Supplier<Optional<T>> found, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      Optional<T> t = found.get();
      if (t.isPresent()) {
        return t.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("timed out waiting for " + what);
  }
}
