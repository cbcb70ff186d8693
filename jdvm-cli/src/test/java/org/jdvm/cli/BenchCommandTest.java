package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jdvm.bench.dvm.DvmBench;
import org.junit.jupiter.api.Test;

/**
 * {@code jdvm bench} runs jdvm-bench's measures from the CLI's own class path: the C floor's source
 * is found there, and the JMH harness, which only {@code ./dev bench} needs, is not carried along.
 */
class BenchCommandTest {
  @Test
  void theFloorsCSourceIsOnTheClassPathBesideTheBench() {
    assertThat(DvmBench.class.getResource("spawn_floor.c")).isNotNull();
  }

  @Test
  void theJmhHarnessStaysOffTheClassPath() {
    assertThatThrownBy(() -> Class.forName("org.openjdk.jmh.runner.Runner"))
        .isInstanceOf(ClassNotFoundException.class);
  }
}
