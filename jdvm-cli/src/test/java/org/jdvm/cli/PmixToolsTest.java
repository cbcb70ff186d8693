package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenPMIx tools of Debian's libpmix-bin 4.2.2 against real DVMs, each started as a process
 * with its own {@code TMPDIR} (so that the DVMs other tests run are not in the tools' search):
 * {@code pps} finds the DVM with no flags and lists what {@code jdvm jobs} lists, {@code pattrs}
 * reaches the DVM whose pid it is given, {@code pevent} reaches a process that registered for the
 * event, and a killed DVM's rendezvous files are gone once another DVM of the user starts.
 * (docs/protocol.md "Tool rendezvous" says which 4.2.2 tools cannot be used and why.)
 */
class PmixToolsTest {
  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();

  /** A DVM this test started: its process, directory and rendezvous directory. */
  private record Dvm(Process process, Path dir, Path tools) {}

  @AfterEach
  void endEverythingThisTestStarted() throws Exception {
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

  private static void assumeTools() {
    for (String tool : List.of("pps", "pattrs", "pevent")) {
      assumeTrue(
          Files.isExecutable(Path.of("/usr/bin", tool)),
          tool + " is not installed (Debian's libpmix-bin)");
    }
  }

  @Test
  void ppsFindsTheDvmWithNoFlagsAndListsTheNamespacesJdvmJobsLists() throws Exception {
    assumeTools();
    Dvm dvm = startDvm("one");
    CliRun job = jdvm(dvm, "run", "--detach", "-n", "2", "--", "sleep", "60");
    assertThat(job.status()).as(job.err()).isZero();
    String nspace = job.out().strip();

    Tool pps = tool(Map.of(), "pps");
    assertThat(pps.status()).as(pps.err()).isZero();
    List<String> listed = activeNamespaces(pps);
    List<String> live = liveNamespaces(dvm);
    assertThat(live).contains(nspace);
    assertThat(listed).containsAll(live);
    assertThat(listed)
        .as("besides the DVM's running applications, only pps's own tool namespace")
        .hasSize(live.size() + 1);
  }

  @Test
  void withTwoDvmsEachToolReachesTheOneItIsPointedAt() throws Exception {
    assumeTools();
    Dvm a = startDvm("a");
    Dvm b = startDvm("b");
    String jobA = jdvm(a, "run", "--detach", "-n", "1", "--", "sleep", "60").out().strip();
    String jobB = jdvm(b, "run", "--detach", "-n", "1", "--", "sleep", "60").out().strip();

    Tool both = tool(Map.of(), "pps");
    assertThat(both.status())
        .as("libpmix refuses a search that finds two servers: " + both.err())
        .isNotZero();
    Tool ppsA = tool(Map.of("PMIX_SYSTEM_TMPDIR", a.tools().toString()), "pps");
    assertThat(activeNamespaces(ppsA)).contains(jobA).doesNotContain(jobB);
    Tool ppsB = tool(Map.of("PMIX_SYSTEM_TMPDIR", b.tools().toString()), "pps");
    assertThat(activeNamespaces(ppsB)).contains(jobB).doesNotContain(jobA);

    Tool fns = tool(Map.of(), "pattrs", "--pid", Long.toString(b.process().pid()), "--host-fns");
    assertThat(fns.status()).as(fns.err()).isZero();
    assertThat(fns.err()).contains("HOST SUPPORTED FUNCTIONS:", "PMIx_Spawn");
    Tool spawn =
        tool(Map.of(), "pattrs", "--pid", Long.toString(a.process().pid()), "--host", "PMIx_Spawn");
    assertThat(spawn.status()).as(spawn.err()).isZero();
    assertThat(spawn.err()).contains("PMIx_Spawn:", "pmix.spwn.tgt", "pmix.wdir");
  }

  @Test
  void peventReachesAProcessThatRegisteredForTheEvent() throws Exception {
    assumeTools();
    Path bin = tmp.resolve("event_wait");
    Path source = tmp.resolve("event_wait.c");
    try (var in = PmixToolsTest.class.getResourceAsStream("/tools/event_wait.c")) {
      Files.copy(in, source);
    }
    assumeTrue(
        MpiJobs.build("gcc", source, bin, pmixFlags()),
        "gcc could not build a libpmix client (gcc, pkg-config, libpmix-dev)");
    Dvm dvm = startDvm("ev");
    Path out = tmp.resolve("waiter.out");
    Process waiter =
        launch(
            new ProcessBuilder(
                    ChildJdvm.command("run", "--dir", dvm.dir().toString(), "--", bin.toString()))
                .redirectOutput(out.toFile()));
    Listings.until(() -> read(out).contains("registered"), "the waiter to register", 30);

    Tool pevent =
        tool(
            Map.of("PMIX_SYSTEM_TMPDIR", dvm.tools().toString()),
            "pevent",
            "--event",
            "-111",
            "--range",
            "4"); // PMIX_RANGE_SESSION
    assertThat(pevent.status()).as(pevent.err()).isZero();
    assertThat(waiter.waitFor(30, TimeUnit.SECONDS)).as("the waiter got its event").isTrue();
    assertThat(waiter.exitValue()).as(read(out)).isZero();
    assertThat(read(out)).contains("event -111 from ");
  }

  @Test
  void aKilledDvmsRendezvousIsGoneOnceAnotherDvmOfTheUserStarts() throws Exception {
    assumeTools();
    Dvm killed = startDvm("killed");
    assertThat(killed.tools()).isDirectory();
    killed.process().destroyForcibly(); // SIGKILL: nothing of its own is removed
    killed.process().waitFor(20, TimeUnit.SECONDS);
    assertThat(killed.tools()).as("left behind by the kill").isDirectory();

    Dvm next = startDvm("next");
    assertThat(killed.tools()).as("swept: its lock is free").doesNotExist();
    Tool pps = tool(Map.of(), "pps");
    assertThat(pps.status()).as("only the live DVM is found: " + pps.err()).isZero();
    assertThat(next.tools()).isDirectory();
  }

  // ---- helpers -------------------------------------------------------------------------------

  private Dvm startDvm(String name) throws Exception {
    Path dir = tmp.resolve("dvm-" + name);
    Process p =
        launch(
            new ProcessBuilder(
                    ChildJdvm.command(
                        "start", "--dir", dir.toString(), "--nodes", "2", "--name", "t" + name))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
    Path contact = dir.resolve("dvm.json");
    Listings.until(
        () -> read(contact).contains("\"pid\":" + p.pid()), "the DVM's contact file", 60);
    Map<?, ?> c = (Map<?, ?>) Json.parse(read(contact));
    return new Dvm(p, dir, Path.of((String) c.get("tools")));
  }

  private Process launch(ProcessBuilder pb) throws IOException {
    pb.environment().put("TMPDIR", tmp.toString());
    Process p = pb.redirectError(ProcessBuilder.Redirect.DISCARD).start();
    started.add(p);
    return p;
  }

  private static CliRun jdvm(Dvm dvm, String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--dir", dvm.dir().toString()));
    all.addAll(Arrays.asList(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  private List<String> liveNamespaces(Dvm dvm) {
    CliRun jobs = jdvm(dvm, "jobs", "--json");
    assertThat(jobs.status()).as(jobs.err()).isZero();
    List<String> live = new ArrayList<>();
    for (Map<String, Object> j : Listings.list(jobs.out())) {
      // applications: the listing's own tool connection is live too while it lists
      if ("application".equals(j.get("kind")) && !"terminated".equals(j.get("state"))) {
        live.add((String) j.get("nspace"));
      }
    }
    return live;
  }

  /** A tool's run: its status and what it printed (the 4.2.2 tools print to stderr). */
  private record Tool(int status, String out, String err) {}

  private Tool tool(Map<String, String> env, String... cmd) throws Exception {
    Path out = Files.createTempFile(tmp, "tool", ".out");
    Path err = Files.createTempFile(tmp, "tool", ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("TMPDIR", tmp.toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        return new Tool(-1, read(out), read(err) + " (did not end in 60 s)");
      }
      return new Tool(p.exitValue(), read(out), read(err));
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static List<String> activeNamespaces(Tool pps) {
    String line =
        pps.err()
            .lines()
            .filter(l -> l.startsWith("Active nspaces: "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("pps printed no namespaces: " + pps.err()));
    return List.of(line.substring("Active nspaces: ".length()).strip().split(","));
  }

  /** {@code pkg-config --cflags --libs pmix}, split; none when it fails (the build then does). */
  private static String[] pmixFlags() throws Exception {
    Process p = new ProcessBuilder("pkg-config", "--cflags", "--libs", "pmix").start();
    try {
      String flags = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && !flags.isEmpty() ? flags.split("\\s+") : new String[0];
    } finally {
      p.destroyForcibly();
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
