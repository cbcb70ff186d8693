package org.jdvm.core.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.core.Change.Placement;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.state.Pool;
import org.jdvm.core.state.State;
import org.jdvm.pmix.App;
import org.junit.jupiter.api.Test;

class MapperTest {
  private static App app(int n) {
    return new App("a", List.of("a"), List.of(), null, n, List.of());
  }

  private static Pool pool(int... slots) {
    NodeSpec[] nodes = new NodeSpec[slots.length];
    for (int i = 0; i < slots.length; i++) {
      nodes[i] = new NodeSpec("n" + i, slots[i]);
    }
    return new State(CoreConfig.of("d", List.of(nodes))).nodes().defaultPool();
  }

  private static List<String> nodes(List<Placement> ps) {
    return ps.stream().map(Placement::node).toList();
  }

  @Test
  void bySlotFillsEachNodeBeforeTheNext() {
    List<Placement> ps = Mapper.place(List.of(app(5)), List.of(pool(2, 2, 2)), MapBy.SLOT);
    assertThat(nodes(ps)).containsExactly("n0", "n0", "n1", "n1", "n2");
  }

  @Test
  void byNodeGoesRoundRobinOverNodesWithRoom() {
    List<Placement> ps = Mapper.place(List.of(app(5)), List.of(pool(1, 3, 2)), MapBy.NODE);
    assertThat(nodes(ps)).containsExactly("n0", "n1", "n2", "n1", "n2");
  }

  @Test
  void ranksRunAcrossAppsAndEachRemembersItsApp() {
    List<Placement> ps = Mapper.place(List.of(app(1), app(2)), List.of(pool(4)), MapBy.SLOT);
    assertThat(ps)
        .containsExactly(
            new Placement(0, "n0", 0), new Placement(1, "n0", 1), new Placement(2, "n0", 1));
  }

  @Test
  void aJobFitsExactlyWhenItsPoolsHaveEnoughFreeSlots() {
    Pool p = pool(2, 3);
    assertThat(Mapper.fits(List.of(p), 5)).isTrue();
    assertThat(Mapper.fits(List.of(p), 6)).isFalse();
  }

  @Test
  void aCapPerNodeMovesOnBeforeTheNodeIsFull() {
    List<Placement> ps =
        Mapper.place(List.of(app(4)), List.of(pool(4, 4, 4)), MapBy.SLOT, new NodeFill(2, false));
    assertThat(nodes(ps)).containsExactly("n0", "n0", "n1", "n1");
  }

  @Test
  void aCapPerNodeCountsOnlyFreeSlotsWithoutOversubscription() {
    Pool p = pool(1, 3);
    assertThat(Mapper.fits(List.of(p), 3, new NodeFill(2, false))).isTrue();
    assertThat(Mapper.fits(List.of(p), 4, new NodeFill(2, false))).isFalse();
    assertThat(Mapper.fits(List.of(p), 4, new NodeFill(2, true))).isTrue();
    assertThat(Mapper.fits(List.of(p), 5, new NodeFill(2, true))).isFalse();
  }

  @Test
  void oversubscribingFillsTheFreeSlotsThenSpreadsTheRestEvenly() {
    // PRRTE: 2 + 2 free, then 5 left over 2 nodes: 3 and 2 more; by slot a node's ranks are
    // consecutive
    List<Placement> ps =
        Mapper.place(List.of(app(9)), List.of(pool(2, 2)), MapBy.SLOT, new NodeFill(0, true));
    assertThat(nodes(ps)).containsExactly("n0", "n0", "n0", "n0", "n0", "n1", "n1", "n1", "n1");
    List<Placement> byNode =
        Mapper.place(List.of(app(5)), List.of(pool(1, 1)), MapBy.NODE, new NodeFill(0, true));
    assertThat(nodes(byNode)).containsExactly("n0", "n1", "n0", "n1", "n0");
  }

  @Test
  void oversubscribingNeverUsesANodeWithoutSlots() {
    List<Placement> ps =
        Mapper.place(List.of(app(3)), List.of(pool(0, 1)), MapBy.NODE, new NodeFill(0, true));
    assertThat(nodes(ps)).containsExactly("n1", "n1", "n1");
    assertThat(Mapper.fits(List.of(pool(0)), 1, new NodeFill(0, true))).isFalse();
  }

  @Test
  void rankByNodeDealsTheSamePlacementOneNodeAtATime() {
    // By slot: n0 n0 n1 n1 n2; ranked by node: n0 n1 n2 n0 n1 (PRRTE's rank_by node).
    List<Placement> ps =
        Mapper.place(
            List.of(app(5)), List.of(pool(2, 2, 2)), MapBy.SLOT, NodeFill.of(0, false, true));
    assertThat(nodes(ps)).containsExactly("n0", "n1", "n2", "n0", "n1");
    assertThat(Mapper.fits(List.of(pool(2, 2)), 5, NodeFill.of(0, false, true)))
        .as("ranking moves no process: the free slots still bound the job")
        .isFalse();
    List<Placement> capped =
        Mapper.place(List.of(app(4)), List.of(pool(3, 3)), MapBy.SLOT, NodeFill.of(2, false, true));
    assertThat(nodes(capped)).containsExactly("n0", "n1", "n0", "n1");
  }
}
