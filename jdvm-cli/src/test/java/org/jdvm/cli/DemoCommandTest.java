package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DemoCommandTest {
  /** The demo checks what it shows; it exits 0 only if every behaviour it narrates happened. */
  @Test
  void theDemoWalksThroughReservationTargetingEveryDispositionAndTheWarning() {
    CliRun run = CliRun.of("demo");
    assertThat(run.status()).as(run.out() + run.err()).isZero();
    assertThat(run.out())
        .contains("reserved to it")
        .contains("ends: RELEASED")
        .contains("ends with PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT")
        .contains("ends: UNRESERVED")
        .contains("the job on it keeps running (nothing is killed)")
        .contains("PMIX_ALLOC_TIMEOUT_WARNING for")
        .contains("ends: RECLAIMED")
        .contains("→ refused: PMIX_ERR_NO_PERMISSIONS")
        .contains("refused, PMIX_ERR_NO_PERMISSIONS: allocation ")
        .contains("is not in it (spec §8.2.1.7)")
        .contains("its nodes go back to the scheduler when ")
        .contains("DEFAULT disposition unreserved its nodes into the default session")
        .doesNotContain("unexpected");
  }
}
