package org.jdvm.bench.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A latency row's figures, as the table and {@code --json} show them (no time is asserted). */
class RowTest {
  @Test
  void aLatencyRowShowsTheMedianAndTheP99InMilliseconds() {
    long[] ns = LongStream.rangeClosed(1, 100).map(i -> (101 - i) * 1_000_000).toArray();

    Row r = Row.latency("spawn", ns, "median < 5 ms");

    assertThat(r.what()).isEqualTo("spawn");
    assertThat(r.figure()).isEqualTo("median 51.00 ms, p99 99.00 ms");
    assertThat(r.target()).isEqualTo("median < 5 ms");
    assertThat(r.data())
        .containsExactly(
            Map.entry("samples", 100), Map.entry("medianMs", 51.0), Map.entry("p99Ms", 99.0));
    assertThat(ns[0]).as("the samples are left as they were").isEqualTo(100_000_000L);
  }

  @Test
  void oneSampleIsItsOwnMedianAndP99() {
    Row r = Row.latency("one", new long[] {1_234_567}, "");

    assertThat(r.figure()).isEqualTo("median 1.23 ms, p99 1.23 ms");
    assertThat(r.data()).containsEntry("medianMs", 1.235).containsEntry("p99Ms", 1.235);
  }
}
