package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.cli.Listings.jobOf;
import static org.jdvm.cli.Listings.jobs;
import static org.jdvm.cli.Listings.list;
import static org.jdvm.cli.Listings.without;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.AllocInheritance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Recovery", end to end on the embedded default: a DVM started as a process of its
 * own, holding an allocation of each disposition and a running job, is killed with SIGKILL and
 * started again on the same directory. Every allocation comes back with its reservation, owners and
 * session; the job whose processes died with the controller is decided (ended, killed); the {@code
 * jdvm run} that waited for it reconnects and exits with that status; the tool reconnects to its
 * namespace and owns its allocations again.
 */
class ControllerCrashEndToEndTest {
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();
  private final Set<Long> jobPids = new HashSet<>();
  private final List<JdvmClient> clients = new ArrayList<>();

  @AfterEach
  void endEverythingThisTestStarted() throws Exception {
    clients.forEach(JdvmClient::close);
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
    }
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aKilledDvmStartedAgainHasEveryAllocationBackAndDecidesItsJobs() throws Exception {
    Process dvm = startDvm();
    JdvmClient tool = connect(null);
    String toolNs = tool.self().nspace();
    for (AllocInheritance how : AllocInheritance.values()) {
      tool.allocate(
          AllocationRequest.newAllocation()
              .nodes(1)
              .inheritance(how)
              .reqId("crash-" + how)
              .timeSeconds(3600)
              .build());
    }
    Process run = jdvm("run", "-n", "2", "--stdin", "none", "--", "sleep", "120");
    until(() -> runningJob(tool) != null, "the job of jdvm run to run");
    Map<String, Object> job = runningJob(tool);
    String jobNs = (String) job.get("nspace");
    for (Object p : (List<?>) job.get("procs")) {
      jobPids.add(((Number) ((Map<?, ?>) p).get("pid")).longValue());
    }
    List<Map<String, Object>> before = list(tool.allocsJson());
    assertThat(before).hasSize(4);

    dvm.destroyForcibly(); // SIGKILL
    assertThat(dvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
    // The node clean-up ends them at the latest at the next start; the test ends what it started.
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    startDvm();
    JdvmClient look = connect(null);
    until(() -> "terminated".equals(stateOf(look, jobNs)), "the job to be decided");
    Map<String, Object> ended = jobOf(look, jobNs);
    assertThat(ended.get("exitCode")).isEqualTo(137L);

    List<Map<String, Object>> after = list(look.allocsJson());
    assertThat(after).hasSize(4);
    for (int i = 0; i < before.size(); i++) {
      Map<String, Object> want = new LinkedHashMap<>(before.get(i));
      want.put("owners", without(want.get("owners"), jobNs));
      want.put("jobs", without(want.get("jobs"), jobNs));
      assertThat(after.get(i)).as("allocation %s", want.get("allocId")).isEqualTo(want);
    }

    assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("jdvm run ends").isTrue();
    String runErr = new String(run.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(run.exitValue()).as(runErr).isEqualTo(137);
    assertThat(runErr).contains("reconnecting as", "ended while the DVM was away");

    JdvmClient back = connect(toolNs);
    assertThat(back.self().nspace()).isEqualTo(toolNs);
    back.allocate(AllocationRequest.release().reqId("crash-NONE").build());
    assertThat(list(back.allocsJson())).hasSize(3);

    back.stopDvm();
  }

  // ---- helpers -------------------------------------------------------------------------------

  private Process startDvm() throws Exception {
    Process p =
        java(
            "start",
            "--dir",
            dir.toString(),
            "--nodes",
            "2",
            "--slots",
            "2",
            "--spare",
            "6",
            "--name",
            "crashtest");
    until(
        () -> {
          try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
            return c.self() != null;
          } catch (PmixException e) {
            return false;
          }
        },
        "the DVM to accept connections");
    return p;
  }

  private JdvmClient connect(String namespace) throws PmixException {
    JdvmClient c = JdvmClient.connector().dir(dir).namespace(namespace).connect();
    clients.add(c);
    return c;
  }

  private Process jdvm(String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(1, List.of("--dir", dir.toString()));
    return java(all.toArray(String[]::new));
  }

  private Process java(String... args) throws IOException {
    List<String> cmd = ChildJdvm.command();
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    started.add(p);
    return p;
  }

  private static Map<String, Object> runningJob(JdvmClient c) {
    for (Map<String, Object> j : jobs(c)) {
      if ("application".equals(j.get("kind"))
          && "running".equals(j.get("state"))
          && ((List<?>) j.get("procs")).size() == 2) {
        return j;
      }
    }
    return null;
  }

  private static String stateOf(JdvmClient c, String ns) {
    return String.valueOf(jobOf(c, ns).get("state"));
  }

  private static void until(BooleanSupplier condition, String what) throws InterruptedException {
    Listings.until(condition, what, 60);
  }
}
