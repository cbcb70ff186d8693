package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a libpmix 4.2.2 client hears when its server goes away (docs/journal.md "Clients"): the
 * lost-connection event of the PMIx standard, raised by its own library, and an error from the next
 * call instead of a hang. The DVM's endpoint is closed under a running {@code pmix_lost}, as a
 * controller killed with SIGKILL closes every socket; the process itself keeps running, as it does
 * under a dead controller.
 */
class ServerLossProgramTest {
  @TempDir static Path bin;
  @TempDir Path home;

  private static String skipped;

  @BeforeAll
  static void build() throws Exception {
    skipped = WireupPrograms.build(bin, "pmix_lost");
  }

  @Test
  void aClientWhoseServerGoesAwayGetsTheLostConnectionEventAndAnErrorFromItsNextCall()
      throws Exception {
    assumeTrue(skipped == null, skipped);
    Path report = home.resolve("lost.txt");
    Path ready = home.resolve("lost.txt.ready");
    long pid = -1;
    try (TestDvm t = TestDvm.start(home.resolve("dvm"), 1, 1, 0)) {
      t.tool()
          .spawn(SpawnRequest.of(bin.resolve("pmix_lost").toString(), report.toString()).build());
      awaitFile(ready);
      pid = Long.parseLong(Files.readString(ready).trim().split(" ")[1]);

      t.endpoint.close(); // every connection closes, as when the controller dies

      awaitFile(report);
      String heard = Files.readString(report);
      assertThat(heard)
          .as("libpmix 4.x raises PMIX_ERR_LOST_CONNECTION (-61) to its handlers")
          .contains("EVENT LOST_CONNECTION -61");
      assertThat(heard)
          .as("the next call fails with PMIX_ERR_UNREACH (-25) instead of waiting")
          .contains("FENCE UNREACHABLE -25");
    } finally {
      if (pid > 0) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  private static void awaitFile(Path p) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(p)) {
      assertThat(System.nanoTime()).as("%s within 30 s", p).isLessThan(deadline);
      Thread.sleep(10);
    }
  }
}
