package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The descriptor budget on its own: what each start holds, a pidfd only in the first eighth, and a
 * start past the budget refused with nothing counted. (The count against the descriptors the host
 * really opens is {@code ProcessHostMergeTest}'s.)
 */
class DescriptorBudgetTest {
  @Test
  void aStartHoldsItsPipesAndAPidfdOnlyInTheFirstEighth() throws Exception {
    DescriptorBudget b = new DescriptorBudget(24, Integer.MAX_VALUE);
    assertThat(b.reserve("a", false, false, () -> 0))
        .isEqualTo(new DescriptorBudget.Reservation(3, true));
    assertThat(b.reserve("b", true, true, () -> 1))
        .as("past 24/8 in use: no pidfd; merged: one output pipe; and a stdin pipe")
        .isEqualTo(new DescriptorBudget.Reservation(2, false));
    assertThat(b.inUse()).isEqualTo(5);
    b.release(2);
    b.releaseOne();
    assertThat(b.inUse()).isEqualTo(2);
  }

  @Test
  void aStartPastTheBudgetIsRefusedAsOutOfResourceAndCountsNothing() throws Exception {
    DescriptorBudget b = new DescriptorBudget(5, Integer.MAX_VALUE);
    b.reserve("a", false, false, () -> 0);
    b.reserve("b", false, false, () -> 1);
    assertThatThrownBy(() -> b.reserve("c", false, false, () -> 2))
        .isInstanceOfSatisfying(
            LaunchException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LaunchException.Kind.OUT_OF_RESOURCE);
              assertThat(e.getMessage())
                  .contains("cannot start c", "runs 2 processes", "open files: 4 of the 5")
                  .contains("merging stderr into stdout halves");
            });
    assertThat(b.inUse()).isEqualTo(4);
    assertThat(b.reserve("d", true, false, () -> 2).fds()).as("merged, it fits").isEqualTo(1);
  }

  @Test
  void theProcessLimitRefusesWhateverTheDescriptorsAllow() {
    DescriptorBudget b = new DescriptorBudget(1000, 2);
    assertThatThrownBy(() -> b.reserve("a", true, false, () -> 2))
        .isInstanceOfSatisfying(
            LaunchException.class,
            e -> assertThat(e.kind()).isEqualTo(LaunchException.Kind.OUT_OF_RESOURCE));
    assertThat(b.inUse()).isZero();
    assertThat(b.maxProcs(2)).isEqualTo(2);
  }

  @Test
  void theMostProcessesCountAPidfdForTheFirstEighthOnly() {
    DescriptorBudget b = new DescriptorBudget(24, Integer.MAX_VALUE);
    // 1 process with a pidfd (3) and 10 without (2 each); merged, 2 with (2 each) and 20 without.
    assertThat(b.maxProcs(2)).isEqualTo(11);
    assertThat(b.maxProcs(1)).isEqualTo(22);
  }
}
