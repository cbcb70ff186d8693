package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.jdvm.host.LogCapture;
import org.junit.jupiter.api.Test;

/**
 * A job's log text is bounded in bytes and rate (docs/protocol.md "Bounds"): past the burst its
 * lines are dropped, and the DVM's log gets one line per episode saying how many, not one per line.
 */
class LogBudgetTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final LogBudget budget = new LogBudget(now::get);

  @Test
  void pastTheBurstLinesAreDroppedAndOneLineSaysHowManyPerEpisode() {
    List<String> lines;
    try (LogCapture log = LogCapture.of("org.jdvm.server.pmix", Level.ALL)) {
      int line = 4096;
      long fit = LogBudget.BURST_BYTES / (line + LogBudget.LINE_COST);
      long taken = 0;
      for (int i = 0; i < 10_000; i++) {
        taken += budget.admit("job@1", line) ? 1 : 0;
      }
      assertThat(taken).as("lines taken at once").isEqualTo(fit);
      assertThat(log.lines()).as("no line per dropped line").isEmpty();

      now.addAndGet(1_000_000_000L); // a second: 64 KiB more, the bucket not full yet
      assertThat(budget.admit("job@1", line)).isTrue();
      assertThat(log.lines()).as("the episode is not over while the job keeps at it").isEmpty();

      now.addAndGet(20_000_000_000L); // quiet long enough to refill: the episode is over
      assertThat(budget.admit("job@1", line)).isTrue();
      lines = log.lines();
    }
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .contains("job=\"job@1\"")
        .contains("log_lines_dropped=" + (10_000 - (LogBudget.BURST_BYTES / (4096 + 128))));
  }

  @Test
  void theRateIsBoundedAndAJobsBucketGoesWithIt() {
    try (LogCapture log = LogCapture.of("org.jdvm.server.pmix", Level.ALL)) {
      long bytes = 0;
      for (int s = 0; s < 100; s++) {
        now.addAndGet(10_000_000L); // 10 ms
        for (int i = 0; i < 100; i++) {
          bytes += budget.admit("job@2", 1000) ? 1000 + LogBudget.LINE_COST : 0;
        }
      }
      assertThat(bytes)
          .as("a second of flooding: the burst and a second's rate")
          .isLessThanOrEqualTo(LogBudget.BURST_BYTES + LogBudget.BYTES_PER_SECOND);
      budget.forget("job@2");
      assertThat(budget.jobs()).isZero();
      assertThat(log.lines()).as("the retired job's episode is reported").hasSize(1);
    }
  }
}
