package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code jdvm} command against a real DVM (in this JVM) through the real protocol, with real
 * processes: what a person or a script sees, as docs/cli.md promises it.
 */
class CliEndToEndTest {
  @TempDir static Path dir;
  private static DvmServer server;

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("clitest", 2, 2, 8, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  /** Runs {@code jdvm} with {@code --dir} after the (sub)command it belongs to. */
  private static CliRun jdvm(String... args) {
    boolean hasSubcommands = !Subcommand.named(args[0]).alone().getSubcommands().isEmpty();
    int at = hasSubcommands ? 2 : 1;
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.addAll(at, List.of("--dir", dir.toString()));
    return CliRun.of(all.toArray(String[]::new));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> listing(String what) {
    CliRun r = jdvm(what, "--json");
    assertThat(r.status()).as(r.err()).isZero();
    return (List<Map<String, Object>>) Json.parse(r.out());
  }

  /**
   * Every file jdvm writes in a DVM's directory is its owner's only, and every directory it makes
   * there too, whatever the directory's own mode: the contact file, the lock, the journal (which
   * holds jobs' environments), the containment record, a detached DVM's output and its socket
   * (docs/journal.md "Files"). The jobs' scratch directory, {@code tmp/}, holds the jobs' own
   * files.
   */
  @Test
  void everyFileJdvmWritesInADvmsDirectoryIsItsOwnersOnly() throws Exception {
    Path home = dir.resolve("private-files");
    try {
      CliRun start = CliRun.of("start", "--detach", "--dir", home.toString(), "--nodes", "1");
      assertThat(start.status()).as(start.err()).isZero();
      CliRun run = CliRun.of("run", "--dir", home.toString(), "--", "true");
      assertThat(run.status()).as(run.err()).isZero();
      List<String> open = new java.util.ArrayList<>();
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(home)) {
        for (Path f : files.filter(f -> !f.startsWith(home.resolve("tmp"))).toList()) {
          String mode =
              java.nio.file.attribute.PosixFilePermissions.toString(
                  java.nio.file.Files.getPosixFilePermissions(
                      f, java.nio.file.LinkOption.NOFOLLOW_LINKS));
          boolean directory =
              java.nio.file.Files.isDirectory(f, java.nio.file.LinkOption.NOFOLLOW_LINKS);
          if (!mode.equals(directory ? "rwx------" : "rw-------")) {
            open.add(home.relativize(f) + " " + mode);
          }
        }
      }
      assertThat(open).isEmpty();
    } finally {
      CliRun.of("stop", "--dir", home.toString());
    }
  }

  @Test
  void runForwardsTheOutputOfEveryProcessAndExitsWithTheJobsStatus() {
    CliRun ok = jdvm("run", "-n", "2", "--", "sh", "-c", "echo hello from $PMIX_RANK");
    assertThat(ok.status()).isZero();
    assertThat(ok.out()).contains("hello from 0", "hello from 1");

    CliRun failing = jdvm("run", "--", "sh", "-c", "echo to stderr >&2; exit 7");
    assertThat(failing.status()).isEqualTo(7);
    assertThat(failing.err()).contains("to stderr");
  }

  @Test
  void mergeStderrSendsBothStreamsInTheOrderWrittenToStdoutAndNothingToStderr() {
    String script = "for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done";
    StringBuilder inOrder = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      inOrder.append("out").append(i).append('\n').append("err").append(i).append('\n');
    }
    for (String option : List.of("--merge-stderr", "--merge-stderr-to-stdout")) {
      CliRun merged = jdvm("run", option, "--", "sh", "-c", script);
      assertThat(merged.status()).as(merged.err()).isZero();
      assertThat(merged.out()).as(option).isEqualTo(inOrder.toString());
      assertThat(merged.err()).as(option).doesNotContain("err1");
    }
    CliRun apart = jdvm("run", "--", "sh", "-c", script);
    assertThat(apart.out()).doesNotContain("err1");
    assertThat(apart.err()).contains("err1", "err5");
  }

  @Test
  void aBareAllocNewFromAToolSaysWhatBecomesOfTheAllocationUnderItsInheritance() {
    CliRun kept = jdvm("alloc", "new", "--nodes", "1");
    assertThat(kept.status()).as(kept.err()).isZero();
    assertThat(kept.err())
        .contains("under inheritance DEFAULT its nodes stay in the DVM's default pool for good");
    CliRun handedBack = jdvm("alloc", "new", "--nodes", "1", "--inherit", "none");
    assertThat(handedBack.status()).as(handedBack.err()).isZero();
    assertThat(handedBack.err())
        .contains("under inheritance NONE its scheduler nodes go back to the scheduler");
  }

  @Test
  void runOfAMissingCommandSaysSoAndIsARefusal() {
    CliRun r = jdvm("run", "--", "no-such-command-for-jdvm");
    assertThat(r.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err()).contains("command not found or not executable: no-such-command-for-jdvm");
  }

  @Test
  void aJobGoesWhereItsTargetsAllowAndNowhereElse() {
    CliRun held =
        jdvm(
            "alloc",
            "new",
            "--nodes",
            "1",
            // The node goes back to the scheduler when the command ends; under the default
            // disposition it would stay in the default pool, where the plain run may use it.
            "--inherit",
            "none",
            "--json",
            "--",
            "sh",
            "-c",
            "jdvm_target=$JDVM_ALLOC_ID; echo on $PMIX_HOSTNAME");
    assertThat(held.status()).as(held.err()).isZero();
    @SuppressWarnings("unchecked")
    Map<String, Object> grant =
        (Map<String, Object>) Json.parse(held.out().lines().findFirst().orElseThrow());
    assertThat(grant).containsKeys("status", "statusName", "allocId", "sessionId", "nodes");
    List<?> nodes = (List<?>) grant.get("nodes");
    assertThat(held.out()).contains("on " + nodes.get(0));

    // A plain run lands in the default session only: on its nodes as they are now (the start-up
    // nodes, and scheduler nodes an ended allocation left there, as other tests may have).
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> listed =
        (List<Map<String, Object>>) Json.parse(jdvm("nodes", "--json").out());
    List<String> defaultSession =
        listed.stream()
            .filter(n -> n.get("allocId") == null)
            .map(n -> "on " + n.get("name"))
            .toList();
    assertThat(defaultSession).doesNotContain("on " + nodes.get(0));
    CliRun plain = jdvm("run", "-n", "4", "--", "sh", "-c", "echo on $PMIX_HOSTNAME");
    assertThat(plain.out().lines().filter(l -> l.startsWith("on ")).toList())
        .isNotEmpty()
        .allMatch(defaultSession::contains);
  }

  @Test
  void theListingsCarryTheDocumentedFields() {
    assertThat(listing("nodes"))
        .isNotEmpty()
        .allSatisfy(
            n ->
                assertThat(n)
                    .containsKeys("name", "slots", "slotsInUse", "allocId", "reserved", "origin"));
    assertThat(jdvm("run", "--", "/bin/true").status()).isZero();
    assertThat(listing("jobs"))
        .anySatisfy(
            j ->
                assertThat(j)
                    .containsKeys(
                        "nspace", "kind", "state", "parent", "allocId", "targets", "procs"));
    CliRun alloc = jdvm("alloc", "new", "--nodes", "1", "--share", "--req-id", "listing-1");
    assertThat(alloc.status()).as(alloc.err()).isZero();
  }

  @Test
  void aBareAllocationFromAToolSaysPlainlyThatItEndsWithTheCommand() {
    CliRun r = jdvm("alloc", "new", "--nodes", "1");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("allocation ").contains(" granted: node");
    assertThat(r.err()).contains("ends when the command exits");
  }

  @Test
  void theAllocationOutputHasTheShapeOfDocsCliMdsExamples() throws Exception {
    String doc = Files.readString(Path.of("../docs/cli.md"));
    String alloc = doc.substring(doc.indexOf("### `jdvm alloc`"), doc.indexOf("### `jdvm nodes"));
    String granted = between(alloc, "`allocation ", "`");
    String refused = between(alloc, "`refused: ", "`");
    Map<String, Object> json = object(between(alloc, "```json\n", "```"));

    // NONE: the nodes go back to the scheduler when the command's tool namespace ends.
    CliRun r =
        jdvm(
            "alloc", "new", "--nodes", "2", "--req-id", "r7", "--time", "600", "--inherit", "none");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().strip()).matches(shape("allocation " + granted));

    CliRun j =
        jdvm(
            "alloc",
            "new",
            "--nodes",
            "2",
            "--req-id",
            "r8",
            "--time",
            "600",
            "--inherit",
            "none",
            "--json");
    assertThat(j.status()).as(j.err()).isZero();
    Map<String, Object> real = object(j.out());
    assertThat(real.keySet()).containsExactlyInAnyOrderElementsOf(json.keySet());
    for (String key : json.keySet()) {
      assertThat(String.valueOf(real.get(key))).as(key).matches(shape(json.get(key)));
    }

    CliRun no = jdvm("alloc", "extend", "--id", "no-such-allocation", "--nodes", "1");
    assertThat(no.err().strip()).matches(shape("refused: " + refused));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(String json) {
    return (Map<String, Object>) Json.parse(json);
  }

  private static String between(String text, String from, String to) {
    int start = text.indexOf(from) + from.length();
    return text.substring(start, text.indexOf(to, start));
  }

  /**
   * A documented example as a pattern that real output must match: every number and every PMIx
   * status name may differ, everything else (the form of each id) may not.
   */
  private static String shape(Object example) {
    Matcher m = Pattern.compile("\\d+|PMIX_[A-Z_]+").matcher(String.valueOf(example));
    StringBuilder b = new StringBuilder();
    int at = 0;
    while (m.find()) {
      b.append(Pattern.quote(String.valueOf(example).substring(at, m.start())));
      b.append(m.group().startsWith("PMIX_") ? "PMIX_[A-Z_]+" : "\\d+");
      at = m.end();
    }
    return b.append(Pattern.quote(String.valueOf(example).substring(at))).toString();
  }

  @Test
  void aRefusalPrintsTheStatusNameAndExitsThree() {
    CliRun r = jdvm("alloc", "extend", "--id", "no-such-allocation", "--nodes", "1");
    assertThat(r.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err()).contains("PMIX_ERR_NOT_FOUND");

    CliRun json = jdvm("alloc", "extend", "--id", "no-such-allocation", "--nodes", "1", "--json");
    assertThat(json.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(json.out()).contains("\"statusName\":\"PMIX_ERR_NOT_FOUND\"");
  }

  @Test
  void theTimeoutWarningAndTheAllocationsEndReachTheHoldingCommand() {
    CliRun r =
        jdvm(
            "alloc",
            "new",
            "--nodes",
            "1",
            "--time",
            "2",
            "--warn-timeout",
            "1",
            "--",
            "sleep",
            "30");
    assertThat(r.status()).isEqualTo(128 + 9);
    assertThat(r.err())
        .contains("expires in 1 s (timeout warning)")
        .contains("ended: reclaimed by the scheduler");
  }

  @Test
  void eventsPrintsTheRecentChangesAndReturns() {
    assertThat(jdvm("run", "--", "/bin/true").status()).isZero();
    CliRun r = jdvm("events");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("JobSpawned").contains("JobTerminated");
    CliRun json = jdvm("events", "--json");
    assertThat(json.out().lines()).allMatch(l -> l.startsWith("{\"change\":"));
  }

  @Test
  void theSchedulerInstantiatesPausesResumesAndTerminatesASession() {
    CliRun made =
        jdvm("session", "instantiate", "--id", "41", "--node-list", "node1", "--", "sleep", "30");
    assertThat(made.status()).as(made.err()).isZero();
    assertThat(made.out()).startsWith("session 41 instantiated").contains(", job ");
    assertThat(jdvm("session", "pause", "--id", "41").status()).isZero();
    assertThat(jdvm("session", "resume", "--id", "41").status()).isZero();
    CliRun ended = jdvm("session", "terminate", "--id", "41");
    assertThat(ended.status()).as(ended.err()).isZero();
    CliRun unknown = jdvm("session", "terminate", "--id", "4242");
    assertThat(unknown.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(unknown.err()).contains("PMIX_ERR_NOT_FOUND");
    assertThat(jdvm("session", "signal", "--id", "41", "--signal", "NOPE").status())
        .isEqualTo(Main.EXIT_USAGE);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> awaitEnded(String nspace) {
    Map<String, Object>[] found = new Map[1];
    await(
        () -> {
          for (Map<String, Object> j : listing("jobs")) {
            if (nspace.equals(j.get("nspace")) && "terminated".equals(j.get("state"))) {
              found[0] = j;
              return true;
            }
          }
          return false;
        },
        nspace + " to end");
    return found[0];
  }

  /** Polls {@code condition} until it holds; fails after 20 s, naming {@code what}. */
  private static void await(java.util.function.BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
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

  @Test
  @SuppressWarnings("unchecked")
  void killEndsOneJobWithTermThenKillAndSendsASignalWithItsExitStatuses() {
    // The first rank ignores TERM: it is KILLed after the grace; the second ends on the TERM.
    CliRun run =
        jdvm(
            "run",
            "--detach",
            "-n",
            "2",
            "--",
            "sh",
            "-c",
            "[ $PMIX_RANK = 0 ] && trap '' TERM; exec sleep 300");
    assertThat(run.status()).as(run.err()).isZero();
    String nspace = run.out().trim();
    CliRun other = jdvm("run", "--detach", "--", "sleep", "300");
    String untouched = other.out().trim();

    CliRun kill = jdvm("kill", nspace, "--json");
    assertThat(kill.status()).as(kill.err()).isZero();
    Map<String, Object> json = (Map<String, Object>) Json.parse(kill.out());
    assertThat(json).containsEntry("nspace", nspace).containsEntry("action", "terminate");
    Map<String, Object> ended = awaitEnded(nspace);
    assertThat(ended.get("status")).isEqualTo((long) org.jdvm.pmix.PmixStatus.ERR_JOB_CANCELED);
    List<Object> exits = new java.util.ArrayList<>();
    for (Object p : (List<Object>) ended.get("procs")) {
      exits.add(((Map<String, Object>) p).get("exitStatus"));
    }
    // sh with the trap exec'd sleep, which keeps the ignored TERM ignored: KILLed (137).
    assertThat(exits).containsExactlyInAnyOrder(137L, 143L);

    // A signal jdvm did not choose to end the job with: reported as that signal.
    CliRun sent = jdvm("kill", untouched, "--signal", "USR1");
    assertThat(sent.status()).as(sent.err()).isZero();
    assertThat(sent.out()).contains("USR1");
    Map<String, Object> signalled = awaitEnded(untouched);
    assertThat(signalled.get("status"))
        .isEqualTo((long) org.jdvm.pmix.PmixStatus.ERR_JOB_ABORTED_BY_SIG);
    assertThat(signalled.get("exitCode")).isEqualTo(128L + 10);

    CliRun unknown = jdvm("kill", "no-such-job@1", "--json");
    assertThat(unknown.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(jdvm("kill", nspace, "--signal", "NOPE").status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(jdvm("kill", nspace, "--signal", "99").status()).isEqualTo(Main.EXIT_USAGE);
  }

  @Test
  void aProcessKilledByASignalNobodySentIsReportedAsKilledByIt() {
    CliRun r = jdvm("run", "--", "sh", "-c", "kill -SEGV $$");
    assertThat(r.status()).isEqualTo(128 + 11);
    assertThat(r.err()).contains("signal SEGV");
  }

  @Test
  void noDvmIsExitOneAndABadCommandLineIsExitTwo(@TempDir Path empty) {
    CliRun r = CliRun.of("nodes", "--dir", empty.toString());
    assertThat(r.status()).isEqualTo(Main.EXIT_FAILURE);
    assertThat(r.err()).contains("cannot reach the DVM");
    assertThat(CliRun.of("run", "-n", "zero", "--", "true").status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(CliRun.of("alloc", "new", "--inherit", "sometimes").status())
        .isEqualTo(Main.EXIT_USAGE);
  }

  /**
   * The launcher trains the class cache on this workload and ignores its status (a failed training
   * costs only start-up time), so a command it names that no longer parses would go unnoticed.
   */
  @Test
  void theClassCacheTrainingRunsItsCommandsCleanly() {
    CliRun r = CliRun.of(AotTraining.COMMAND, dir.resolve("dvm.json").toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
  }

  /**
   * The lean path exists for start-up time: a plain {@code jdvm run} must not build picocli's model
   * (and {@code jdvm run --help}, which needs it, shows the check can tell).
   */
  @Test
  void aPlainRunNeverBuildsPicoclisModel(@TempDir Path logs) throws Exception {
    String plain = loadedClasses(logs.resolve("plain"), "run", "-n", "1", "/bin/true");
    assertThat(plain).contains("org.jdvm.cli.RunCommand ").doesNotContain(PICOCLI_MODEL);
    assertThat(loadedClasses(logs.resolve("help"), "run", "--help")).contains(PICOCLI_MODEL);
  }

  private static final String PICOCLI_MODEL = "picocli.CommandLine$Model$CommandSpec ";

  /** Runs {@code jdvm ARGS --dir DIR} in a JVM of its own and returns its class-loading log. */
  private static String loadedClasses(Path log, String... args) throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xlog:class+load=info",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                args[0],
                "--dir",
                dir.toString()));
    cmd.addAll(List.of(args).subList(1, args.length));
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("exited").isTrue();
      String out = java.nio.file.Files.readString(log);
      assertThat(p.exitValue()).as(out).isZero();
      return out;
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void theLeanRunParserReadsWhatPicocliReads() {
    String[][] cases = {
      {"run", "--", "true"},
      {"run", "-n", "3", "--", "echo", "-n", "x"},
      {
        "run",
        "--np",
        "2",
        "--target",
        "a1",
        "--target",
        "default",
        "--map-by",
        "node",
        "--",
        "true"
      },
      {"run", "--detach", "--dir", "/tmp/x", "--dvm", "/tmp/x/dvm.json", "true", "-a"},
      {"run", "--merge-stderr", "--", "true"},
      {"run", "-n", "2", "--merge-stderr-to-stdout", "true"},
    };
    for (String[] args : cases) {
      RunCommand lean = RunCommand.parseLean(args);
      picocli.CommandLine model = Subcommand.RUN.alone();
      model.parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
      RunCommand pico = model.getCommand();
      assertThat(lean).as(String.join(" ", args)).isNotNull();
      assertThat(lean.command).isEqualTo(pico.command);
      assertThat(lean.procs).isEqualTo(pico.procs);
      assertThat(lean.targets).isEqualTo(pico.targets);
      assertThat(lean.placement.mapBy).isEqualTo(pico.placement.mapBy);
      assertThat(lean.detach).isEqualTo(pico.detach);
      assertThat(lean.mergeStderr).isEqualTo(pico.mergeStderr);
      assertThat(lean.dvm.dvm).isEqualTo(pico.dvm.dvm);
      assertThat(lean.dvm.dir).isEqualTo(pico.dvm.dir);
    }
    assertThat(RunCommand.parseLean(new String[] {"run", "--help"})).isNull();
    assertThat(RunCommand.parseLean(new String[] {"run", "-n", "0", "--", "true"})).isNull();
  }
}
