package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.JobEnd;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "A full disk", end to end: a DVM whose directory (journal, log and all) lies on a
 * small tmpfs that fills. A request that would start something is refused {@code
 * PMIX_ERR_OUT_OF_RESOURCE} ({@code jdvm alloc new} says so, exit status 3) while the DVM runs on:
 * a job that was running keeps running and its end is seen. Once space returns a request succeeds
 * again, with no restart; and a restart after a SIGKILL recovers exactly the allocations that were
 * acknowledged. Needs root (to mount the tmpfs).
 */
class FullDiskTest {
  @TempDir Path base;
  private final List<Process> started = new ArrayList<>();

  @Test
  void aFullDiskRefusesRequestsKeepsJobsRunningAndComesBackWhenSpaceReturns() throws Exception {
    Path fs = base.resolve("fs");
    Files.createDirectories(fs);
    Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", fs.toString()));
    List<JdvmClient> clients = new ArrayList<>();
    try {
      Path dir = fs.resolve("dvm");
      Process dvm = startDvm(dir);
      JdvmClient tool = connect(dir, clients);
      List<String> acknowledged = new ArrayList<>();
      tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("before").build());
      acknowledged.add("before");
      Job job = tool.spawn(SpawnRequest.of("sleep", "5").build());
      Path filler = fs.resolve("filler");
      fill(filler);

      PmixException refused = null;
      for (int i = 0; refused == null && i < 100; i++) {
        try {
          tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("try-" + i).build());
          acknowledged.add("try-" + i); // admitted before the check saw the disk full: written
        } catch (PmixException e) {
          refused = e;
        }
        Thread.sleep(50);
      }
      assertThat(refused).as("a request is refused once the disk is full").isNotNull();
      assertThat(refused.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
      assertThat(stateOf(tool, job.nspace())).as("the job runs on").isEqualTo("running");

      Process cli = jdvm(dir, "alloc", "new", "--nodes", "1");
      assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String err = new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(cli.exitValue()).as(err).isEqualTo(Main.EXIT_REFUSED);
      assertThat(err)
          .contains("PMIX_ERR_OUT_OF_RESOURCE", "space on its disk")
          .doesNotContain("Exception");

      JobEnd end = job.awaitEnd();
      assertThat(end.exitCode()).as("its end is seen").isZero();
      assertThat(stateOf(tool, job.nspace())).isEqualTo("terminated");

      Files.delete(filler);
      boolean admitted = false;
      for (int i = 0; !admitted && i < 200; i++) {
        try {
          tool.allocate(AllocationRequest.newAllocation().nodes(1).reqId("after").build());
          acknowledged.add("after");
          admitted = true;
        } catch (PmixException e) {
          assertThat(e.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
          Thread.sleep(100);
        }
      }
      assertThat(admitted).as("space returned: requests are admitted again").isTrue();
      assertThat(reqIds(tool)).containsExactlyInAnyOrderElementsOf(acknowledged);

      dvm.destroyForcibly(); // SIGKILL
      assertThat(dvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
      startDvm(dir);
      JdvmClient look = connect(dir, clients);
      assertThat(reqIds(look))
          .as("the journal holds exactly what was acknowledged")
          .containsExactlyInAnyOrderElementsOf(acknowledged);
      look.stopDvm();
    } finally {
      clients.forEach(JdvmClient::close);
      for (Process p : started) {
        p.destroyForcibly();
        p.waitFor(20, TimeUnit.SECONDS);
      }
      run("umount", "-l", fs.toString());
    }
  }

  /** Writes {@code file} until the file system has no space left. */
  private static void fill(Path file) throws IOException {
    byte[] chunk = new byte[1 << 20];
    try (FileOutputStream out = new FileOutputStream(file.toFile())) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      assertThat(full.getMessage()).contains("No space left on device");
    }
  }

  private static List<Object> reqIds(JdvmClient c) throws PmixException {
    List<Object> out = new ArrayList<>();
    for (Map<String, Object> m : Listings.list(c.allocsJson())) {
      out.add(m.get("reqId"));
    }
    return out;
  }

  private static String stateOf(JdvmClient c, String ns) {
    return String.valueOf(Listings.jobOf(c, ns).get("state"));
  }

  private static boolean run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  private Process startDvm(Path dir) throws Exception {
    List<String> cmd =
        ChildJdvm.command(
            "start",
            "--dir",
            dir.toString(),
            "--nodes",
            "2",
            "--slots",
            "2",
            "--spare",
            "120",
            "--name",
            "full");
    Process dvm =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(dvm);
    Listings.until(
        () -> {
          try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
            return c.self() != null;
          } catch (PmixException e) {
            return false;
          }
        },
        "the DVM to accept connections",
        60);
    return dvm;
  }

  private static JdvmClient connect(Path dir, List<JdvmClient> clients) throws PmixException {
    JdvmClient c = JdvmClient.connector().dir(dir).connect();
    clients.add(c);
    return c;
  }

  private Process jdvm(Path dir, String... args) throws IOException {
    List<String> cmd = ChildJdvm.command(args);
    cmd.addAll(3 + cmd.indexOf(Main.class.getName()), List.of("--dir", dir.toString()));
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    started.add(p);
    return p;
  }
}
