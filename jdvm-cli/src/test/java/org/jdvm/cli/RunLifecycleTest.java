package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.LocalCommand;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;
import org.jdvm.core.JobKind;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm run} in a JVM of its own against a real DVM (docs/cli.md "jdvm run", "Exit
 * statuses"): its stdin reaches the ranks {@code --stdin} names, with the end of file; a rank that
 * fails ends the others unless {@code --keep-going}; {@code PMIx_Abort}'s status is the exit
 * status; Ctrl-C and SIGTERM end the job. Every test checks, by pid, that no process of the job is
 * left, and ends by pid whatever it started.
 */
class RunLifecycleTest {
  @TempDir static Path dir;
  @TempDir static Path bin;
  private static DvmServer server;

  /** The pid of every process the DVM started during the current test. */
  private static Set<Long> jobPids = ConcurrentHashMap.newKeySet();

  private final List<Process> launched = new ArrayList<>();

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("lifecycle", 2, 2, 0, dir).withShrinkGrace(300));
    jobPids = StoppedReader.watchJobPids(server);
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  @AfterEach
  void endWhatThisTestStarted() {
    for (Process p : launched) {
      p.destroyForcibly();
    }
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    jobPids.clear();
  }

  // ---- stdin ---------------------------------------------------------------------------------

  @Test
  void stdinReachesRankZeroByDefaultWithItsEndOfFileAndTheOtherRanksReadNothing() throws Exception {
    byte[] input = randomBytes(100_000);
    Ran r = run(input, "-n", "2", "--", "wc", "-c");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().lines().map(String::trim).sorted()).containsExactly("0", "100000");
    assertNoProcessLeft();
  }

  @Test
  void catEndsAtTheEndOfFileOfTheForwardedInput() throws Exception {
    Ran r = run("hello\nworld\n".getBytes(StandardCharsets.UTF_8), "--", "cat");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("hello\nworld\n");
    assertNoProcessLeft();
  }

  @Test
  void stdinGoesToEveryRankOrToNone() throws Exception {
    byte[] input = randomBytes(1000);
    Ran all = run(input, "-n", "2", "--stdin", "all", "--", "wc", "-c");
    assertThat(all.status()).as(all.err()).isZero();
    assertThat(all.out().lines().map(String::trim)).containsExactly("1000", "1000");
    Ran none = run(input, "-n", "2", "--stdin", "none", "--", "wc", "-c");
    assertThat(none.out().lines().map(String::trim)).containsExactly("0", "0");
    Ran one = run(input, "-n", "2", "--stdin", "1", "--", "wc", "-c");
    assertThat(one.out().lines().map(String::trim).sorted()).containsExactly("0", "1000");
    assertThat(run(input, "-n", "2", "--stdin", "2", "--", "true").status())
        .isEqualTo(Main.EXIT_USAGE);
    assertNoProcessLeft();
  }

  // ---- failures and aborts -------------------------------------------------------------------

  @Test
  void aRankThatExitsNonZeroEndsTheOthersAndItsStatusIsTheExitStatus() throws Exception {
    Ran r =
        run(
            new byte[0],
            "-n",
            "2",
            "--",
            "sh",
            "-c",
            "if [ \"$PMIX_RANK\" = 1 ]; then exit 5; fi; exec sleep 60");
    assertThat(r.status()).isEqualTo(5);
    assertThat(r.millis()).isLessThan(20_000);
    assertNoProcessLeft();
  }

  @Test
  void keepGoingLetsTheOtherRanksFinish() throws Exception {
    Ran r =
        run(
            new byte[0],
            "-n",
            "2",
            "--keep-going",
            "--",
            "sh",
            "-c",
            "if [ \"$PMIX_RANK\" = 1 ]; then exit 5; fi; sleep 1; echo survived");
    assertThat(r.status()).isEqualTo(5);
    assertThat(r.out()).contains("survived");
    assertNoProcessLeft();
  }

  @Test
  void pmixAbortEndsEveryRankPromptlyAndIsTheExitStatus() throws Exception {
    Path exe = compileC("pmix_abort");
    Ran r = run(new byte[0], "-n", "3", "--", exe.toString());
    assertThat(r.out()).contains("ABORTING pmix_abort rank=2 code=7");
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(7);
    assertThat(r.millis()).isLessThan(20_000);
    assertNoProcessLeft();
  }

  @Test
  void mpiAbortEndsEveryRankAndIsTheExitStatus() throws Exception {
    Path exe = compileMpi("mpi_abort");
    assumeWireUpServed();
    Ran r = run(new byte[0], "-n", "2", "--", exe.toString());
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(7);
    assertThat(r.out()).contains("ABORTING mpi_abort rank=1 code=7");
    assertNoProcessLeft();
  }

  @Test
  void mpiRankZeroReadsTheForwardedStdinAndBroadcastsIt() throws Exception {
    Path exe = compileMpi("mpi_stdin");
    assumeWireUpServed();
    byte[] input = randomBytes(100_000);
    long sum = 0;
    for (byte b : input) {
      sum += b & 0xff;
    }
    Ran r = run(input, "-n", "2", "--", exe.toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("rank=0 size=2 bytes=100000 sum=" + sum)
        .contains("rank=1 size=2 bytes=100000 sum=" + sum);
    assertNoProcessLeft();
  }

  /** The same through simple PMI: an MPICH rank 0 reads what {@code jdvm run} forwards. */
  @Test
  void mpichRankZeroReadsTheForwardedStdinAndBroadcastsIt() throws Exception {
    Path exe = bin.resolve("mpich_stdin");
    if (!Files.exists(exe)) {
      String built =
          output(
              List.of(
                  "mpicc.mpich", "-o", exe.toString(), WIREUP.resolve("mpi_stdin.c").toString()));
      assumeTrue(built != null, "mpicc.mpich (libmpich-dev) is not installed or failed");
    }
    byte[] input = randomBytes(100_000);
    long sum = 0;
    for (byte b : input) {
      sum += b & 0xff;
    }
    Ran r = run(input, "-n", "4", "--", exe.toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    for (int rank = 0; rank < 4; rank++) {
      assertThat(r.out()).contains("rank=" + rank + " size=4 bytes=100000 sum=" + sum);
    }
    assertNoProcessLeft();
  }

  @Test
  void mpi4pyAbortEndsEveryRankAndIsTheExitStatus() throws Exception {
    Path script = mpi4py("mpi4py_abort");
    assumeWireUpServed();
    Ran r = run(new byte[0], "-n", "2", "--", PYTHON, script.toString());
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(7);
    assertThat(r.out()).contains("ABORTING mpi4py_abort rank=1 code=7");
    // rank 0 prints WAITING while rank 1 aborts, a race the program makes: not asserted. That no
    // rank got past the barrier rank 1 never enters is.
    assertThat(r.out()).doesNotContain("FAIL mpi4py_abort");
    assertThat(r.millis()).isLessThan(20_000);
    assertNoProcessLeft();
  }

  @Test
  void mpi4pyRankZeroReadsTheForwardedStdinAndBroadcastsIt() throws Exception {
    Path script = mpi4py("mpi4py_stdin");
    assumeWireUpServed();
    byte[] input = randomBytes(100_000);
    long sum = 0;
    for (byte b : input) {
      sum += b & 0xff;
    }
    Ran r = run(input, "-n", "2", "--", PYTHON, script.toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("OK mpi4py_stdin rank=0 size=2 bytes=100000 sum=" + sum)
        .contains("OK mpi4py_stdin rank=1 size=2 bytes=100000 sum=" + sum);
    assertNoProcessLeft();
  }

  // ---- interruption --------------------------------------------------------------------------

  @Test
  void sigtermAndCtrlCEndTheJobEveryRank() throws Exception {
    for (String signal : List.of("TERM", "INT")) {
      Set<String> before = jobNames();
      Process p = start("-n", "3", "--stdin", "none", "--", "sleep", "60");
      String job = awaitNewJob(before, 3);
      new ProcessBuilder("/bin/kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("jdvm run exits on SIG" + signal).isTrue();
      assertThat(p.exitValue()).isEqualTo(signal.equals("TERM") ? 128 + 15 : 128 + 2);
      await(() -> state(job) == JobView.State.TERMINATED, "the job to end after SIG" + signal);
      assertNoProcessLeft();
    }
  }

  /**
   * {@code timeout N jdvm run ...} sends TERM to jdvm and again to its process group: the second
   * TERM is not a second Ctrl-C, so the job is still ended the ordered way, not left running
   * (docs/cli.md "Exit statuses"). Run under the real {@code timeout(1)}.
   */
  @Test
  void aRunUnderTimeoutEndsItsJobWhenTheTimeRunsOut() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/timeout")), "no /usr/bin/timeout");
    Set<String> before = jobNames();
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/timeout", "-s", "TERM", "4"));
    cmd.addAll(ChildJdvm.command());
    cmd.addAll(
        List.of("run", "--dir", dir.toString(), "-n", "2", "--stdin", "none", "--", "sleep", "60"));
    Process p = new ProcessBuilder(cmd).start();
    launched.add(p);
    String job = awaitNewJob(before, 2);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("timeout and jdvm run exit").isTrue();
    assertThat(p.exitValue()).as("timeout's own status when the time ran out").isEqualTo(124);
    await(() -> state(job) == JobView.State.TERMINATED, "the job to end after timeout's TERMs");
    assertNoProcessLeft();
  }

  /**
   * A second Ctrl-C forces the exit at once, but the job is still ended, not left to run on: {@code
   * jdvm run} writes the job's termination before it goes (docs/cli.md "Exit statuses"). The two
   * interrupts come back to back, so the ordered exit has not yet sent anything.
   */
  @Test
  void aSecondCtrlCExitsAtOnceAndStillEndsTheJob() throws Exception {
    for (int round = 0; round < 3; round++) {
      Set<String> before = jobNames();
      Process p = start("-n", "2", "--stdin", "none", "--", "sleep", "60");
      String job = awaitNewJob(before, 2);
      String pid = Long.toString(p.pid());
      new ProcessBuilder("/bin/sh", "-c", "kill -INT " + pid + "; kill -INT " + pid)
          .start()
          .waitFor();
      assertThat(p.waitFor(20, TimeUnit.SECONDS))
          .as("jdvm run exits on the second Ctrl-C")
          .isTrue();
      assertThat(p.exitValue()).isEqualTo(128 + 2);
      await(() -> state(job) == JobView.State.TERMINATED, "the job to end after two Ctrl-Cs");
      assertNoProcessLeft();
    }
  }

  @Test
  void sigtermAndCtrlCOnAllocNewWithACommandEndTheCommandsJob() throws Exception {
    for (String signal : List.of("TERM", "INT")) {
      Set<String> before = jobNames();
      Process p = startCommand("alloc", "new", "--node-list", "node1", "--", "sleep", "60");
      String job = awaitNewJob(before, 1);
      new ProcessBuilder("/bin/kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("alloc new exits on SIG" + signal).isTrue();
      assertThat(p.exitValue()).isEqualTo(signal.equals("TERM") ? 128 + 15 : 128 + 2);
      await(() -> state(job) == JobView.State.TERMINATED, "the job to end after SIG" + signal);
      assertNoProcessLeft();
    }
  }

  @Test
  void theJobOfARunKilledWithSigkillRunsOnAndJobsShowsItsParentGone() throws Exception {
    Set<String> before = jobNames();
    Process p = start("-n", "1", "--stdin", "none", "--", "sleep", "60");
    String job = awaitNewJob(before, 1);
    p.destroyForcibly();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    await(
        () -> CliRun.of("jobs", "--dir", dir.toString()).out().contains("(gone)"),
        "jobs to show the job's parent gone");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> rows =
        (List<Map<String, Object>>)
            org.jdvm.pmix.json.Json.parse(
                CliRun.of("jobs", "--dir", dir.toString(), "--json").out());
    assertThat(rows)
        .as("--json says it too")
        .anySatisfy(
            r -> {
              assertThat(r.get("nspace")).isEqualTo(job);
              assertThat(r.get("parentGone")).isEqualTo(true);
            });
    assertThat(state(job)).isNotEqualTo(JobView.State.TERMINATED); // decisions.md #11
  }

  @Test
  void aRunWhoseDvmIsStoppedUnderItSaysSoAtOnceInsteadOfTryingToReconnect() throws Exception {
    Path other = dir.resolve("stopped-under-a-run");
    DvmServer stopped = DvmServer.start(DvmConfig.embedded("stopped", 1, 1, 0, other));
    Process p;
    try {
      List<String> cmd =
          ChildJdvm.command(
              "run", "--dir", other.toString(), "--stdin", "none", "--", "sleep", "60");
      p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      launched.add(p);
      await(
          () -> {
            try {
              return stopped
                  .dvm()
                  .read(
                      v ->
                          v.jobs().stream()
                              .anyMatch(
                                  j ->
                                      j.kind() == JobKind.APPLICATION
                                          && j.procs().stream()
                                              .anyMatch(
                                                  pr -> pr.state() == ProcView.State.RUNNING)))
                  .get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
              return false;
            }
          },
          "the run's job to start");
    } finally {
      stopped.close(); // what jdvm stop does
    }
    // A killed controller would be waited for up to a minute (Reattach.RECONNECT_MS).
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("jdvm run ends soon after the stop").isTrue();
    assertThat(p.exitValue()).isEqualTo(1);
    assertThat(
            new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
        .contains("the DVM was stopped");
  }

  // ---- helpers -------------------------------------------------------------------------------

  record Ran(int status, String out, String err, long millis) {}

  /** Runs {@code jdvm run --dir DIR ARGS} in its own JVM with {@code input} as its stdin. */
  private Ran run(byte[] input, String... args) throws Exception {
    long t0 = System.nanoTime();
    Process p = start(args);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread o = Thread.ofVirtual().start(() -> copy(p.getInputStream(), out));
    Thread e = Thread.ofVirtual().start(() -> copy(p.getErrorStream(), err));
    try (OutputStream stdin = p.getOutputStream()) {
      stdin.write(input);
    } catch (IOException closedEarly) {
      // jdvm stopped reading (its rank's stdin closed): what it read is what the test checks.
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jdvm run " + String.join(" ", args)).isTrue();
    o.join(10_000);
    e.join(10_000);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    return new Ran(
        p.exitValue(),
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        millis);
  }

  private Process start(String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("run"));
    all.addAll(List.of(args));
    return startCommand(all.toArray(String[]::new));
  }

  /** Runs {@code jdvm COMMAND [SUBCOMMAND] --dir DIR ARGS} in its own JVM. */
  private Process startCommand(String... args) throws IOException {
    int at = args[0].equals("alloc") ? 2 : 1;
    List<String> cmd = ChildJdvm.command();
    cmd.addAll(List.of(args).subList(0, at));
    cmd.addAll(List.of("--dir", dir.toString()));
    cmd.addAll(List.of(args).subList(at, args.length));
    Process p = new ProcessBuilder(cmd).start();
    launched.add(p);
    return p;
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    try (in) {
      in.transferTo(out);
    } catch (IOException e) {
      // The process is gone; what was read is kept.
    }
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  /** Every process of every job this test ran has exited (bounded wait). */
  private void assertNoProcessLeft() {
    await(
        () ->
            jobPids.stream()
                .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)),
        "every process of the jobs to be gone: " + jobPids);
  }

  private static Set<String> jobNames() throws Exception {
    return server
        .dvm()
        .read(
            v -> {
              Set<String> names = new HashSet<>();
              v.jobs().forEach(j -> names.add(j.namespace()));
              return names;
            })
        .get(10, TimeUnit.SECONDS);
  }

  /** The namespace of the application job that appears with {@code procs} running processes. */
  private static String awaitNewJob(Set<String> before, int procs) {
    String[] found = new String[1];
    await(
        () -> {
          try {
            found[0] =
                server
                    .dvm()
                    .read(
                        v -> {
                          for (JobView j : v.jobs()) {
                            long running =
                                j.procs().stream()
                                    .filter(p -> p.state() == ProcView.State.RUNNING)
                                    .count();
                            if (j.kind() == JobKind.APPLICATION
                                && !before.contains(j.namespace())
                                && running == procs) {
                              return j.namespace();
                            }
                          }
                          return null;
                        })
                    .get(10, TimeUnit.SECONDS);
            return found[0] != null;
          } catch (Exception e) {
            return false;
          }
        },
        "a new job with " + procs + " running processes");
    return found[0];
  }

  private static JobView.State state(String nspace) {
    try {
      return server
          .dvm()
          .read(v -> v.job(nspace).map(JobView::state).orElse(JobView.State.TERMINATED))
          .get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  // ---- programs ------------------------------------------------------------------------------

  private static final Path WIREUP = Path.of("../jdvm-client/src/test/resources/wireup");

  /** Compiles a libpmix program of the wire-up suite; skips the test without gcc or libpmix-dev. */
  private static Path compileC(String name) throws Exception {
    String flags = output(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    assumeTrue(flags != null, "pkg-config or libpmix-dev (pmix.pc) is not installed");
    Path exe = bin.resolve(name);
    if (!Files.exists(exe)) {
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  "gcc",
                  "-Wall",
                  "-I",
                  WIREUP.toString(),
                  "-o",
                  exe.toString(),
                  WIREUP.resolve(name + ".c").toString()));
      cmd.addAll(List.of(flags.trim().split("\\s+")));
      assumeTrue(output(cmd) != null, "gcc could not build " + name + ".c against libpmix");
    }
    return exe;
  }

  /**
   * Compiles an MPI program of the suite; skips the test without mpicc.openmpi (libopenmpi-dev).
   */
  private static Path compileMpi(String name) throws Exception {
    Path exe = bin.resolve(name);
    if (!Files.exists(exe)) {
      String built =
          output(
              List.of(
                  "mpicc.openmpi", "-o", exe.toString(), WIREUP.resolve(name + ".c").toString()));
      assumeTrue(built != null, "mpicc.openmpi (libopenmpi-dev) is not installed or failed");
    }
    return exe;
  }

  /** Debian's interpreter: a pyenv {@code python3} does not see {@code python3-mpi4py}. */
  private static final String PYTHON = "/usr/bin/python3";

  /** An mpi4py program of the suite; skips the test without python3-mpi4py. */
  private static Path mpi4py(String name) throws Exception {
    Path script = WIREUP.resolve(name + ".py").toAbsolutePath();
    // a missing script is this checkout's fault, not a missing package: fail, do not skip
    assertThat(script).exists();
    assumeTrue(
        output(List.of(PYTHON, "-c", "import mpi4py")) != null,
        PYTHON + " cannot import mpi4py (python3-mpi4py)");
    return script;
  }

  /**
   * MPI_Init needs the server's COMMIT, FENCENB and GETNB (docs/wireup.md §c.1–§c.3): probes
   * FENCENB as a launched process would, and skips while the DVM answers NOT_SUPPORTED.
   */
  private void assumeWireUpServed() throws Exception {
    String contact = dir.resolve("dvm.json").toString();
    try (JdvmClient tool =
        JdvmClient.connector()
            .dvm(contact)
            .role(Role.TOOL)
            .output(OutputHandler.DISCARD)
            .connect()) {
      Job job = tool.spawn(SpawnRequest.of("sleep", "30").build());
      Proc rank0 = new Proc(job.nspace(), 0);
      String credential = server.home().credentials().procCredential(job.nspace(), 0);
      try (JdvmClient proc =
          JdvmClient.connector().dvm(contact).asProcess(rank0, credential).connect()) {
        proc.wireUp().fence(List.of(), false, 5);
      } catch (PmixException e) {
        assumeTrue(
            e.status() != PmixStatus.ERR_NOT_SUPPORTED,
            "needs the server's FENCENB/GETNB (FENCENB is answered NOT_SUPPORTED)");
        throw e;
      } finally {
        tool.terminate(job.nspace());
        job.awaitEnd();
      }
    }
  }

  /** Runs a command to its end (bounded); its output, or null if it could not run or failed. */
  private static String output(List<String> cmd) throws InterruptedException {
    return LocalCommand.output(cmd, 120);
  }
}
