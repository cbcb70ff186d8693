package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jdvm.core.Limits;
import org.junit.jupiter.api.Test;

/** {@code jdvm start}'s options as the DVM's configuration, before anything starts. */
class StartCommandTest {
  @Test
  void eachLimitOptionSetsItsLimitAndLeavesTheOthersAtTheirDefaults() {
    StartCommand start = new StartCommand();
    start.limits = List.of("live-procs=3", "pending-asks-per-requester = 2");
    Limits l = start.config().limits();
    assertThat(l.liveProcs()).isEqualTo(3);
    assertThat(l.pendingAsksPerRequester()).isEqualTo(2);
    assertThat(l.procsPerSpawn()).isEqualTo(Limits.DEFAULT.procsPerSpawn());
  }

  @Test
  void anUnknownLimitAValueBelowOneOrAMissingValueIsAUsageError() {
    for (String bad : List.of("no-such=4", "live-procs=0", "live-procs", "live-procs=x")) {
      StartCommand start = new StartCommand();
      start.limits = List.of(bad);
      assertThatThrownBy(start::config).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
