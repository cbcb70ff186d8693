package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Recovery": what a controller that dies leaves in its journal is a DVM again. A
 * copy of a running DVM's journal is exactly what a {@code kill -9} would leave (the bytes are in
 * the file before any effect runs), so this starts a second DVM on a copy and compares.
 */
class ControllerRecoveryTest {
  @TempDir Path first;
  @TempDir Path second;

  @Test
  void aDvmStartedOnTheJournalOfARunningOneHasItsAllocationsOwnersSessionsAndJobs()
      throws Exception {
    DvmServer a = DvmServer.start(DvmConfig.embedded("rec", 2, 2, 6, first).withShrinkGrace(200));
    DvmServer b = null;
    List<JdvmClient> clients = new ArrayList<>();
    try {
      JdvmClient tool = JdvmClient.connector().dir(first).connect();
      clients.add(tool);
      List<String> allocs = new ArrayList<>();
      for (AllocInheritance how : AllocInheritance.values()) {
        allocs.add(
            tool.allocate(
                    AllocationRequest.newAllocation()
                        .nodes(1)
                        .inheritance(how)
                        .reqId("r-" + how)
                        .timeSeconds(3600)
                        .build())
                .allocId());
      }
      Job running =
          tool.spawn(SpawnRequest.of("sleep", "60").procs(2).target(allocs.get(1)).build());
      Job done = tool.spawn(SpawnRequest.of("/bin/true").build());
      done.awaitEnd();
      until(() -> jobState(tool, running.nspace()).equals("running"), "the job to run");
      List<Map<String, Object>> before = parse(tool.allocsJson());

      copy(first.resolve("journal"), second.resolve("journal"));
      b = DvmServer.start(DvmConfig.embedded("rec", 2, 2, 6, second).withShrinkGrace(200));
      JdvmClient look = JdvmClient.connector().dir(second).connect();
      clients.add(look);

      until(
          () -> jobState(look, running.nspace()).equals("terminated"),
          "the job that ran when the controller died to be decided");
      // Its processes died with the controller (docs/journal.md): it ended, killed, and left the
      // owner set it had joined; everything else is as it was.
      Map<String, Object> ended = job(look, running.nspace());
      assertThat(ended.get("status")).isNotEqualTo(0L);
      List<Map<String, Object>> after = parse(look.allocsJson());
      assertThat(after).hasSize(4);
      for (int i = 0; i < before.size(); i++) {
        Map<String, Object> want = new java.util.LinkedHashMap<>(before.get(i));
        want.put("owners", without(want.get("owners"), running.nspace()));
        want.put("jobs", without(want.get("jobs"), running.nspace()));
        assertThat(after.get(i)).as("allocation %s", want.get("allocId")).isEqualTo(want);
      }
      assertThat(jobState(look, done.nspace())).isEqualTo("terminated");
    } finally {
      clients.forEach(JdvmClient::close);
      if (b != null) {
        b.close();
      }
      a.close();
    }
  }

  private static void until(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  private static List<Object> without(Object list, String item) {
    List<Object> out = new ArrayList<>((List<?>) list);
    out.remove(item);
    return out;
  }

  private static String jobState(JdvmClient c, String nspace) {
    Object s = job(c, nspace).get("state");
    return String.valueOf(s);
  }

  private static Map<String, Object> job(JdvmClient c, String nspace) {
    try {
      for (Map<String, Object> j : parse(c.jobsJson())) {
        if (nspace.equals(j.get("nspace"))) {
          return j;
        }
      }
    } catch (PmixException e) {
      throw new AssertionError(e);
    }
    return Map.of();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> parse(String json) {
    return (List<Map<String, Object>>) Json.parse(json);
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.copy(p, to.resolve(p.getFileName()));
      }
    }
  }
}
