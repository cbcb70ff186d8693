package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Only the controller's own node may have no slot; every other node offers at least one. */
class NodeSlotsTest {
  @Test
  void aStartupNodeOtherThanTheControllersWithoutASlotIsRefused() {
    assertThatThrownBy(
            () -> CoreConfig.of("d", List.of(new NodeSpec("n0", 0), new NodeSpec("n1", 0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n1 needs at least one slot");
  }

  @Test
  void aGrantedNodeWithoutASlotIsRefused() {
    assertThatThrownBy(
            () -> new Report.SchedulerGranted(1, List.of(new NodeSpec("s", 0)), null, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aNegativeNumberOfSlotsIsRefused() {
    assertThatThrownBy(() -> new NodeSpec("n", -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
