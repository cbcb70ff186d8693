package org.jdvm.server.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Command;
import org.jdvm.core.Report;
import org.jdvm.scheduler.SchedulerEvent;
import org.junit.jupiter.api.Test;

class SchedulerBridgeTest {
  private final List<Command> submitted = new ArrayList<>();
  private final List<List<String>> ended = new ArrayList<>();
  private final SchedulerBridge bridge = new SchedulerBridge(submitted::add, () -> 0L, ended::add);

  @Test
  void aWholeReclaimEndsTheAllocationAndThenTakesItsNodesOutEvenIfTheyOutlivedIt() {
    bridge.accept(new SchedulerEvent.Reclaimed("12", List.of("node1", "node2"), true));
    assertThat(submitted)
        .containsExactly(
            new Report.SchedulerReclaimed("12", Report.ReclaimReason.EXPIRED),
            new Report.NodeLost("node1"),
            new Report.NodeLost("node2"));
    assertThat(ended).containsExactly(List.of("node1", "node2"));
  }

  @Test
  void aPartialReclaimEndsTheNodesProcessesAndLosesThem() {
    bridge.accept(new SchedulerEvent.Reclaimed("12", List.of("node3"), false));
    assertThat(ended).containsExactly(List.of("node3"));
    assertThat(submitted).containsExactly(new Report.NodeLost("node3"));
  }
}
