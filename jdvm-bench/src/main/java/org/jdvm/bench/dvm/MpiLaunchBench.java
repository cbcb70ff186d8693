package org.jdvm.bench.dvm;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.bench.dvm.MpiRows.Stats;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.JobEnd;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;
import org.jdvm.host.JobDirectories;

/**
 * The MPI launch measures of {@code jdvm bench} (docs/cli.md "jdvm bench"): for each MPI family
 * ({@link MpiFamily}: MPICH with Hydra's {@code mpiexec.mpich}, Open MPI with {@code
 * mpirun.openmpi}) and each number of ranks N, the same hello program ({@code mpi_hello.c},
 * compiled at bench time with the family's {@code mpicc}) started four ways, in turns, each run
 * timed from its start until every rank's output was seen and the launcher exited: N singletons at
 * once with no launcher at all (the floor: each rank's own {@code MPI_Init} and {@code
 * MPI_Finalize}, which no launcher can beat), the family's own launcher, {@code jdvm run} as a user
 * types it (a JVM of its own), and the same spawn through the client library from this JVM (what is
 * left of {@code jdvm run} without its JVM's start). Each launcher's overhead is its median less
 * the floor's; the goal is jdvm's at most half of the family launcher's. A run whose exit status is
 * not 0, or whose output lacks one of the N ranks' hello, fails its row: no time is reported for
 * it. Benchmarks are not tests: nothing here asserts a time.
 */
final class MpiLaunchBench {
  private static final Pattern HELLO = Pattern.compile("OK mpi_hello rank=(\\d+) size=(\\d+)");
  private static final long TIMEOUT_S = 60;
  private static final File NO_INPUT = new File("/dev/null");

  /** One run: its wall time, or why it failed. */
  record Sample(long ns, String failure) {
    static Sample failed(String why) {
      return new Sample(-1, why);
    }
  }

  /** One way of starting the program with {@code n} ranks, run once. */
  private interface Way {
    Sample run(int n) throws Exception;
  }

  private final Path home;
  private final Contact contact;
  private final List<String> jdvm;
  private final String cli;
  private final List<Integer> ranks;
  private final int warmUp;
  private final int runs;
  private final PrintStream progress;
  private final ByteArrayOutputStream clientOutput = new ByteArrayOutputStream();
  private Path dir;
  private JdvmClient client;

  /**
   * @param jdvm the {@code jdvm} command a user types ({@code ./jdvm}, or a JVM of this class path)
   * @param cli how that command starts, as the rows say it
   */
  MpiLaunchBench(
      Path home,
      Contact contact,
      List<String> jdvm,
      String cli,
      List<Integer> ranks,
      int warmUp,
      int runs,
      PrintStream progress) {
    this.home = home;
    this.contact = contact;
    this.jdvm = List.copyOf(jdvm);
    this.cli = cli;
    this.ranks = List.copyOf(ranks);
    this.warmUp = warmUp;
    this.runs = runs;
    this.progress = progress;
  }

  /** Every family's rows; the programs live in a scratch directory removed afterwards. */
  List<Row> rows() throws Exception {
    dir = Files.createTempDirectory(home, "mpi-");
    List<Row> rows = new ArrayList<>();
    try (JdvmClient c =
        JdvmClient.connector()
            .contact(contact)
            .role(Role.TOOL)
            .output(
                (source, stderr, bytes) -> {
                  synchronized (clientOutput) {
                    clientOutput.writeBytes(bytes);
                  }
                })
            .connect()) {
      client = c;
      for (MpiFamily f : MpiFamily.both("root".equals(System.getProperty("user.name")))) {
        rows.addAll(family(f));
      }
    } finally {
      JobDirectories.removeTree(dir);
    }
    return rows;
  }

  private List<Row> family(MpiFamily f) throws Exception {
    MpiFamily.Built built = f.compile(dir);
    progress.println("  " + f.name() + ": " + (built.exe() != null ? built.exe() : built.whyNot()));
    if (built.exe() == null) {
      return List.of(skipped(f.name() + ": MPI launch measures", f, 0, built.whyNot()));
    }
    Path exe = built.exe();
    List<Row> rows = new ArrayList<>();
    Stats one =
        measure(f.name() + " singleton", 1, Map.of("floor", n -> singletons(f, exe, n)))
            .get("floor");
    rows.add(
        MpiRows.timeRow(
            f.name() + ": one singleton, no launcher (MPI_Init alone)", f, "none", 1, one, null));
    String launcherMissing =
        MpiFamily.onPath(f.launcher()) == null ? "no " + f.launcher() + " on PATH" : null;
    for (int n : ranks) {
      Map<String, Way> ways = new LinkedHashMap<>();
      ways.put("floor", k -> singletons(f, exe, k));
      if (launcherMissing == null) {
        ways.put(f.launcherName(), k -> process(f.launch(k, exe), k, false));
      }
      ways.put(MpiRows.CLI, k -> process(jdvmRun(k, exe), k, true));
      ways.put(MpiRows.CLIENT, k -> clientSpawn(exe, k));
      Map<String, Stats> stats = measure(f.name() + " -n " + n, n, ways);
      rows.addAll(MpiRows.forRanks(f, n, cli, stats, launcherMissing));
    }
    return rows;
  }

  /**
   * {@link #warmUp} untimed turns, then {@link #runs} timed ones, each running every way once in
   * the same order, so a drift of the machine's speed falls on all alike.
   */
  private Map<String, Stats> measure(String what, int n, Map<String, Way> ways) throws Exception {
    Map<String, List<Sample>> samples = new LinkedHashMap<>();
    ways.keySet().forEach(k -> samples.put(k, new ArrayList<>()));
    for (int turn = -warmUp; turn < runs; turn++) {
      for (Map.Entry<String, Way> w : ways.entrySet()) {
        Sample s = w.getValue().run(n);
        if (turn >= 0) {
          samples.get(w.getKey()).add(s);
        }
      }
      progress.printf(
          "\r  %s: %s", what, turn < 0 ? "warming up" : (turn + 1) + "/" + runs + " turns");
    }
    progress.println();
    Map<String, Stats> out = new LinkedHashMap<>();
    samples.forEach((k, v) -> out.put(k, Stats.of(v)));
    return out;
  }

  /** {@code n} singletons of {@code exe} started at once, no launcher; until the last exits. */
  private Sample singletons(MpiFamily f, Path exe, int n) throws Exception {
    List<Process> ps = new ArrayList<>();
    long t0 = System.nanoTime();
    try {
      for (int i = 0; i < n; i++) {
        ProcessBuilder pb = builder(List.of(exe.toString()), false);
        pb.environment().putAll(f.singletonEnv());
        ps.add(pb.start());
      }
      String failure = null;
      for (Process p : ps) {
        String why = await(p, 1);
        failure = failure == null ? why : failure;
      }
      long ns = System.nanoTime() - t0;
      return failure == null ? new Sample(ns, null) : Sample.failed("singleton: " + failure);
    } finally {
      ps.forEach(MpiLaunchBench::end);
    }
  }

  /** One launcher command for {@code n} ranks, start to exit with every rank's output. */
  private Sample process(List<String> cmd, int n, boolean jdvmCommand) throws Exception {
    long t0 = System.nanoTime();
    Process p = builder(cmd, jdvmCommand).start();
    try {
      String failure = await(p, n);
      long ns = System.nanoTime() - t0;
      return failure == null ? new Sample(ns, null) : Sample.failed(failure);
    } finally {
      end(p);
    }
  }

  /** The same spawn as {@code jdvm run -n N} makes, through this JVM's client: spawn to end. */
  private Sample clientSpawn(Path exe, int n) throws Exception {
    synchronized (clientOutput) {
      clientOutput.reset();
    }
    long t0 = System.nanoTime();
    Job job;
    JobEnd end;
    try {
      job = client.spawn(request(exe, n));
    } catch (PmixException e) {
      return Sample.failed("spawn refused: " + e.getMessage());
    }
    try {
      end = job.end().get(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      client.terminate(job.nspace());
      return Sample.failed("no end within " + TIMEOUT_S + " s");
    } catch (ExecutionException e) {
      return Sample.failed(String.valueOf(e.getCause()));
    }
    long ns = System.nanoTime() - t0;
    String out;
    synchronized (clientOutput) {
      out = clientOutput.toString(StandardCharsets.UTF_8);
    }
    String failure = check(end.exitCode(), out, n);
    return failure == null ? new Sample(ns, null) : Sample.failed(failure);
  }

  /**
   * What {@code jdvm run} spawns ({@code RunCommand.request()} in jdvm-cli): the environment
   * without PMIx's, simple PMI's and jdvm's own variables, the working directory, the output
   * forwarded and the end notified; no stdin (the measured commands read {@code /dev/null}).
   */
  private SpawnRequest request(Path exe, int n) {
    SpawnRequest.Builder b = SpawnRequest.of(exe.toString()).procs(n);
    for (Map.Entry<String, String> e : System.getenv().entrySet()) {
      String k = e.getKey();
      if (!k.startsWith("PMIX_") && !k.startsWith("JDVM_") && !k.startsWith("PMI_")) {
        b.env(k, e.getValue());
      }
    }
    return b.cwd(dir.toString()).forwardOutput(true).notifyCompletion(true).build();
  }

  private List<String> jdvmRun(int n, Path exe) {
    List<String> cmd = new ArrayList<>(jdvm);
    cmd.addAll(
        List.of(
            "run",
            "--dvm",
            home.resolve(Contact.CONTACT_FILE).toString(),
            "-n",
            Integer.toString(n),
            exe.toString()));
    return cmd;
  }

  /**
   * A process reading {@code /dev/null}, its stderr merged into its stdout, in the scratch
   * directory; without the bench's own wire-up variables ({@link MpiFamily#wireUp}), except that
   * {@code jdvm} keeps its own ({@code JDVM_JAVA_OPTS}...) and leaves the rest out itself.
   */
  private ProcessBuilder builder(List<String> cmd, boolean jdvmCommand) {
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(NO_INPUT));
    pb.environment()
        .keySet()
        .removeIf(k -> MpiFamily.wireUp(k) && !(jdvmCommand && k.startsWith("JDVM_")));
    return pb;
  }

  /**
   * Reads {@code p}'s output to its end and waits for it to exit, within {@link #TIMEOUT_S} (a
   * watchdog kills it and its descendants after that): why the run failed, or {@code null}.
   */
  private static String await(Process p, int n) throws IOException, InterruptedException {
    Thread watchdog =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                      end(p);
                    }
                  } catch (InterruptedException e) {
                    // the run ended in time
                  }
                });
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
    watchdog.interrupt();
    if (!exited) {
      return "still running after " + TIMEOUT_S + " s";
    }
    return check(p.exitValue(), out, n);
  }

  /** Why a run of {@code n} ranks that exited {@code status} with {@code out} failed, or null. */
  static String check(int status, String out, int n) {
    Set<Integer> said = new HashSet<>();
    Matcher m = HELLO.matcher(out);
    while (m.find()) {
      if (Integer.parseInt(m.group(2)) == n) {
        said.add(Integer.parseInt(m.group(1)));
      }
    }
    if (status != 0) {
      return "exit status " + status + ": " + firstLine(out);
    }
    if (said.size() != n) {
      return said.size() + " of " + n + " ranks said hello with size=" + n + ": " + firstLine(out);
    }
    return null;
  }

  private static String firstLine(String out) {
    String line = out.lines().filter(l -> !l.isBlank()).findFirst().orElse("(no output)");
    return line.length() > 160 ? line.substring(0, 160) + "..." : line;
  }

  /** Ends {@code p} and whatever it started, if still running. */
  private static void end(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  static Row skipped(String what, MpiFamily f, int n, String why) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("family", f.name());
    data.put("ranks", n);
    data.put("skipped", why);
    return new Row(what, "skipped: " + why, "", data);
  }
}
