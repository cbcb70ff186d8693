package org.jdvm.agent.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RadixTest {
  private static final long SEED = 0x7ADD1CEL;

  @Test
  void seededSizesReachEveryPositionOnceFromTheRootWithinTheLogDepth() {
    Random random = new Random(SEED);
    for (int trial = 0; trial < 300; trial++) {
      int radix = 2 + random.nextInt(trial % 3 == 0 ? 3 : 64);
      int size = 1 + random.nextInt(trial % 25 == 0 ? 5_001 : 300);
      String why = "seed " + SEED + " trial " + trial + ": radix " + radix + ", size " + size;
      Radix tree = new Radix(radix, size);
      int[] reached = new int[size];
      int deepest = 0;
      Deque<int[]> todo = new ArrayDeque<>(List.of(new int[] {0, 0}));
      while (!todo.isEmpty()) {
        int[] at = todo.pop();
        reached[at[0]]++;
        deepest = Math.max(deepest, at[1]);
        assertThat(tree.level(at[0])).as(why).isEqualTo(at[1]);
        List<Integer> children = tree.children(at[0]);
        assertThat(children.size()).as(why).isLessThanOrEqualTo(radix);
        for (int c : children) {
          assertThat(tree.parent(c)).as(why).isEqualTo(at[0]);
          assertThat(tree.inSubtree(at[0], c)).as(why).isTrue();
          todo.push(new int[] {c, at[1] + 1});
        }
      }
      for (int i = 0; i < size; i++) {
        assertThat(reached[i]).as(why + ", position " + i).isEqualTo(1);
      }
      int ceilLog = ceilLog(radix, size);
      assertThat(tree.depth()).as(why).isEqualTo(deepest).isLessThanOrEqualTo(ceilLog);
      assertThat(tree.depth()).as(why).isGreaterThanOrEqualTo(Math.max(0, ceilLog - 1));
    }
  }

  @Test
  void aSubtreeIsItsRootAndEveryDescendantAndNothingElse() {
    Radix tree = new Radix(3, 200);
    for (int root = 0; root < 200; root++) {
      List<Integer> walked = new ArrayList<>();
      Deque<Integer> todo = new ArrayDeque<>(List.of(root));
      while (!todo.isEmpty()) {
        int p = todo.pop();
        walked.add(p);
        todo.addAll(tree.children(p));
      }
      for (int p = 0; p < 200; p++) {
        assertThat(tree.inSubtree(root, p))
            .as("root " + root + ", " + p)
            .isEqualTo(walked.contains(p));
      }
    }
  }

  @Test
  void smallTreesAreAsPrrteLaysThemOut() {
    Radix two = new Radix(2, 7);
    assertThat(two.children(0)).containsExactly(1, 2);
    assertThat(two.children(1)).containsExactly(3, 5);
    assertThat(two.children(2)).containsExactly(4, 6);
    assertThat(two.parent(5)).isEqualTo(1);
    assertThat(two.parent(0)).isEqualTo(-1);
    assertThat(two.depth()).isEqualTo(2);
    assertThat(new Radix(32, 1001).children(0)).hasSize(32);
    assertThat(new Radix(32, 1001).depth()).isEqualTo(2);
  }

  @Test
  void aRadixBelowTwoOrAnEmptyTreeOrAPositionOutsideIsRefused() {
    assertThatThrownBy(() -> new Radix(1, 10)).hasMessageContaining("radix must be between 2");
    assertThatThrownBy(() -> new Radix(2, 0)).hasMessageContaining("at least its root");
    assertThatThrownBy(() -> new Radix(2, 5).parent(5)).hasMessageContaining("not in a tree of 5");
  }

  private static int ceilLog(int radix, int size) {
    int log = 0;
    long power = 1;
    while (power < size) {
      power *= radix;
      log++;
    }
    return log;
  }
}
