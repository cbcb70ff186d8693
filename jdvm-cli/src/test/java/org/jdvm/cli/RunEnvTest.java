package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm run}'s environment, working directory, time limit and MPMD options against a real DVM
 * in this JVM (docs/cli.md "Environment, working directory, time limit", "Several programs in one
 * job"): what the processes see, and each refusal with its one line and status 2, nothing run.
 */
class RunEnvTest {
  @TempDir static Path dir;
  @TempDir static Path work;
  private static DvmServer server;
  private static final java.util.concurrent.atomic.AtomicInteger SPAWNED =
      new java.util.concurrent.atomic.AtomicInteger();

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("envtest", 2, 4, 0, dir).withShrinkGrace(300));
    server
        .endpoint()
        .observe(
            o ->
                o.changes().stream()
                    .filter(c -> c instanceof org.jdvm.core.Change.JobSpawned)
                    .forEach(c -> SPAWNED.incrementAndGet()));
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  private static CliRun run(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "run";
    all[1] = "--dir";
    all[2] = dir.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.of(all);
  }

  private static List<String> sorted(CliRun r) {
    return r.out().lines().sorted().toList();
  }

  /** How many jobs the DVM has accepted: unchanged by a refusal, as nothing was started. */
  private static int jobCount() {
    return SPAWNED.get();
  }

  // ---- -x -----------------------------------------------------------------------------------

  @Test
  void dashXSetsAValueOrForwardsThisCommandsOwnAndWarnsOfAnUnsetOne() {
    CliRun r =
        run(
            "-x",
            "EV_TEST_A=one",
            "-x",
            "HOME",
            "-x",
            "EV_SURELY_UNSET_VAR",
            "--",
            "sh",
            "-c",
            "echo A=$EV_TEST_A H=$HOME");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("A=one H=" + System.getenv("HOME") + "\n");
    assertThat(r.err())
        .contains("warning: could not find environment variable \"EV_SURELY_UNSET_VAR\"");
  }

  @Test
  void dashXOfAVariableJdvmSetsIsRefusedBeforeAnythingRuns() {
    int before = jobCount();
    for (String name : List.of("PMIX_RANK=7", "JDVM_URI=x", "PMI_PORT")) {
      CliRun r = run("-x", name, "--", "true");
      assertThat(r.status()).as(name).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.err()).contains("jdvm sets PMIX_*, PMI_* and JDVM_* itself");
    }
    assertThat(jobCount()).isEqualTo(before);
  }

  // ---- PMIx's environment directives ---------------------------------------------------------

  @Test
  void setUnsetPrependAndAppendApplyInTheOrderGiven() {
    CliRun r =
        run(
            "--set-env",
            "EV_A=1",
            "--prepend-env",
            "EV_A[:]",
            "x",
            "--prepend-env",
            "EV_B[:]",
            "y",
            "--set-env",
            "EV_B=2",
            "--append-env",
            "EV_C[,]",
            "z",
            "--append-env",
            "EV_C[,]",
            "w",
            "--unset-env",
            "HOME",
            "--",
            "sh",
            "-c",
            "echo A=$EV_A B=$EV_B C=$EV_C H=${HOME-unset}");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("A=x:1 B=2 C=z,w H=unset\n");
  }

  @Test
  void malformedOrReservedDirectivesAreRefused() {
    int before = jobCount();
    String[][] bad = {
      {"--set-env", "NOVALUE"},
      {"--prepend-env", "PATH", "x"},
      {"--append-env", "PATH[]", "x"},
      {"--unset-env", "PMIX_SERVER_URI41"},
      {"--set-env", "JDVM_NODE=node9"},
    };
    for (String[] b : bad) {
      String[] args = new String[b.length + 2];
      System.arraycopy(b, 0, args, 0, b.length);
      args[b.length] = "--";
      args[b.length + 1] = "true";
      CliRun r = run(args);
      assertThat(r.status()).as(String.join(" ", b) + ": " + r.err()).isEqualTo(Main.EXIT_USAGE);
      assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
    }
    assertThat(jobCount()).isEqualTo(before);
  }

  @Test
  void exportNoneForwardsOnlyWhatIsNamedAndAListOnlyItsNames() {
    Map<String, String> environ = Map.of("KEEP", "k", "DROP", "d", "PMIX_RANK", "3");
    App none = app(b -> RunApps.forward(b, environ, "NONE,X=1"));
    assertThat(none.env()).containsExactly("X=1");
    App list = app(b -> RunApps.forward(b, environ, "KEEP,PMIX_RANK"));
    assertThat(list.env()).containsExactly("KEEP=k");
    App all = app(b -> RunApps.forward(b, environ, null));
    assertThat(all.env()).containsExactlyInAnyOrder("KEEP=k", "DROP=d");
    assertThat(run("--export", ",", "--", "true").status()).isEqualTo(Main.EXIT_USAGE);
  }

  private static App app(java.util.function.Consumer<SpawnRequest.Builder> fill) {
    SpawnRequest.Builder b = SpawnRequest.of("true");
    fill.accept(b);
    return b.build().apps().get(0);
  }

  // ---- --wdir --------------------------------------------------------------------------------

  @Test
  void wdirIsTheProcessesDirectorySentAsPmixWdir() throws Exception {
    Path d = Files.createDirectories(work.resolve("wd"));
    CliRun r = run("--wdir", d.toString(), "--", "pwd");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(d.toRealPath() + "\n");
    RunCommand cmd = new RunCommand();
    cmd.runEnv.wdir = d.toString();
    cmd.command.add("pwd");
    List<Info> info = cmd.request().apps().get(0).info();
    assertThat(info).contains(Info.of(PmixKeys.WDIR, org.jdvm.pmix.Value.string(d.toString())));
  }

  @Test
  void aMissingOrNonDirectoryWdirIsRefusedBeforeAnythingRuns() throws Exception {
    int before = jobCount();
    Path file = Files.writeString(work.resolve("plain-file"), "x");
    CliRun missing = run("--wdir", work.resolve("nope").toString(), "--", "true");
    assertThat(missing.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(missing.err())
        .isEqualTo("jdvm run: --wdir " + work.resolve("nope") + ": no such directory\n");
    CliRun notDir = run("--chdir", file.toString(), "--", "true");
    assertThat(notDir.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(notDir.err()).contains(": not a directory");
    assertThat(jobCount()).isEqualTo(before);
  }

  // ---- --timeout -----------------------------------------------------------------------------

  @Test
  void timeoutEndsTheJobAndExitsWithTheTimeoutStatus() {
    CliRun r = run("--timeout", "1", "-n", "2", "--", "sleep", "60");
    assertThat(r.status()).as(r.err()).isEqualTo(RunEnvOptions.EXIT_TIMEOUT);
    assertThat(r.err()).contains("its time limit (--timeout 1) was reached");
    CliRun quick = run("--timeout", "60", "--", "true");
    assertThat(quick.status()).as(quick.err()).isZero();
  }

  @Test
  void aTimeoutBelowOneSecondIsRefused() {
    for (String t : List.of("0", "-3", "x")) {
      CliRun r = run("--timeout", t, "--", "true");
      assertThat(r.status()).as(t).isEqualTo(Main.EXIT_USAGE);
    }
  }

  // ---- several apps --------------------------------------------------------------------------

  @Test
  void colonSeparatedAppsEachWithTheirOwnCountEnvironmentAndDirectory() throws Exception {
    Path d = Files.createDirectories(work.resolve("second"));
    CliRun r =
        run(
            "-n",
            "1",
            "-x",
            "WHO=first",
            "sh",
            "-c",
            "echo $WHO",
            ":",
            "-n",
            "2",
            "-x",
            "WHO=second",
            "--wdir",
            d.toString(),
            "sh",
            "-c",
            "echo $WHO $(pwd)");
    assertThat(r.status()).as(r.err()).isZero();
    String second = "second " + d.toRealPath();
    assertThat(sorted(r)).containsExactly("first", second, second);
  }

  @Test
  void anAppfileHoldsOneAppALineWithComments() throws Exception {
    Path f =
        Files.writeString(
            work.resolve("apps"),
            "# two programs\n-n 2 -x K=a sh -c echo${IFS}$K\n\n  -n 1 echo b # the last\n");
    CliRun r = run("--app", f.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(sorted(r)).containsExactly("a", "a", "b");
  }

  @Test
  void badAppsAreRefusedBeforeAnythingRuns() throws Exception {
    int before = jobCount();
    Path empty = Files.writeString(work.resolve("empty-apps"), "# nothing\n");
    String[][] bad = {
      {"echo", "a", ":"},
      {"echo", "a", ":", "--map-by", "node", "echo"},
      {"echo", "a", ":", "-n", "0", "echo"},
      {"--app", empty.toString()},
      {"--app", empty.toString(), "echo"},
      {"--app", work.resolve("no-such-file").toString()},
    };
    for (String[] b : bad) {
      CliRun r = run(b);
      assertThat(r.status()).as(String.join(" ", b) + ": " + r.err()).isEqualTo(Main.EXIT_USAGE);
    }
    assertThat(jobCount()).isEqualTo(before);
  }

  @Test
  void optionsAfterTheProgramAreItsOwn() {
    CliRun r = run("-n", "1", "echo", "-n", "2", "x");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("2 x");
  }
}
