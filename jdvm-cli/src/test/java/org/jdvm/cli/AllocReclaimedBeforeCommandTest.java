package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm alloc new -- CMD} whose allocation the scheduler reclaims between the grant and CMD's
 * start (a Slurm job an administrator cancelled at that moment; here the embedded scheduler's time
 * limit, with the command held between the two): it says the allocation was reclaimed, with the
 * status of the refused spawn, and nothing ran.
 */
class AllocReclaimedBeforeCommandTest {
  @TempDir static Path dir;
  private static DvmServer server;

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("reclaimed", 1, 1, 2, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    AllocCommand.New.afterGrant = () -> {};
    server.close();
  }

  @Test
  void anAllocationReclaimedBeforeItsCommandStartedIsSaidSo() throws Exception {
    Path ran = dir.resolve("ran");
    AllocCommand.New.afterGrant = AllocReclaimedBeforeCommandTest::untilNoAllocationIsLeft;
    CliRun r =
        CliRun.of(
            "alloc",
            "new",
            "--dir",
            dir.toString(),
            "--nodes",
            "1",
            "--time",
            "1",
            "--",
            "/bin/sh",
            "-c",
            "touch " + ran);
    assertThat(r.out()).startsWith("allocation s1 granted: ");
    assertThat(r.err())
        .isEqualTo(
            "refused: PMIX_ERR_NOT_FOUND (-46): allocation s1 ended: reclaimed by the scheduler"
                + " before its command started; nothing ran\n");
    assertThat(r.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(ran).doesNotExist();
  }

  /** Until the embedded scheduler's time limit took the allocation back. */
  private static void untilNoAllocationIsLeft() {
    try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
      Listings.until(
          () -> {
            try {
              return Listings.list(c.allocsJson()).stream()
                  .noneMatch(a -> "s1".equals(a.get("allocId")));
            } catch (PmixException e) {
              throw new AssertionError(e);
            }
          },
          "the allocation reclaimed at its time limit",
          30);
    } catch (PmixException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
