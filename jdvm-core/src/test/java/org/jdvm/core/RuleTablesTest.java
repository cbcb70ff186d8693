package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.query.AllocationView;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The spec's decision tables as parameterized rule tables: allocation routing (spec §8.2.1.5) and
 * the namespace-termination dispositions (§8.2.1.9.2) with descendants running, elsewhere, or gone.
 */
class RuleTablesTest {

  enum Requester {
    TOOL,
    APPLICATION
  }

  /**
   * Spec §8.2.1.5 rows, plus decisions.md #1 (an application's TARGET is refused whatever SHARE).
   */
  static Stream<Arguments> routing() {
    return Stream.of(
        Arguments.of(Requester.TOOL, true, null, "reservation owned by the target"),
        Arguments.of(Requester.TOOL, true, false, "reservation owned by the target"),
        Arguments.of(Requester.TOOL, false, null, "reservation owned by the requester"),
        Arguments.of(Requester.TOOL, false, false, "reservation owned by the requester"),
        Arguments.of(Requester.TOOL, false, true, "shared, owned by the requester"),
        Arguments.of(Requester.TOOL, true, true, "shared, owned by the target"),
        Arguments.of(Requester.APPLICATION, false, null, "reservation owned by the requester"),
        Arguments.of(Requester.APPLICATION, false, false, "reservation owned by the requester"),
        Arguments.of(Requester.APPLICATION, false, true, "shared, owned by the requester"),
        Arguments.of(Requester.APPLICATION, true, null, "rejected NO_PERMISSIONS"),
        Arguments.of(Requester.APPLICATION, true, false, "rejected NO_PERMISSIONS"),
        Arguments.of(Requester.APPLICATION, true, true, "rejected NO_PERMISSIONS"));
  }

  @ParameterizedTest(name = "{0} target={1} share={2} -> {3}")
  @MethodSource("routing")
  void anAllocationGoesWhereTheRoutingTableSays(
      Requester who, boolean target, Boolean share, String destination) {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String tool = dvm.tool();
    String other = dvm.tool();
    String requester = who == Requester.TOOL ? tool : dvm.spawnLaunched(tool, 1);
    Request.Allocate.Builder b =
        dvm.allocate(requester, AllocDirective.NEW).nodeCount(1).target(target ? other : null);
    if (share != null) {
      b.share(share);
    }
    Request.Allocate r = b.build();
    Outcome o = dvm.handle(r);
    if (destination.startsWith("rejected")) {
      assertThat(o.rejection().status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
      return;
    }
    Effect.AskScheduler ask = TestDvm.only(o, Effect.AskScheduler.class);
    dvm.handle(
        new Report.SchedulerGranted(ask.askId(), List.of(new NodeSpec("s1", 2)), null, null));
    AllocationView a = dvm.core.view().allocations().iterator().next();
    assertThat(a.owner()).isEqualTo(destination.endsWith("target") ? other : requester);
    assertThat(a.reserved()).isEqualTo(destination.startsWith("reservation"));
    assertThat(dvm.core.view().node("s1").orElseThrow().reserved()).isEqualTo(a.reserved());
  }

  enum Descendants {
    RUNNING_IN_THE_RESERVATION,
    RUNNING_IN_ANOTHER_SESSION,
    ALREADY_GONE
  }

  static Stream<Arguments> dispositions() {
    List<Arguments> rows = new ArrayList<>();
    for (AllocInheritance i : AllocInheritance.values()) {
      for (Descendants d : Descendants.values()) {
        rows.add(Arguments.of(i, d));
      }
    }
    return rows.stream();
  }

  /**
   * Fires at the owner's termination unless CHILD-flavoured with a live descendant; fires then at
   * the last descendant's termination; returns nodes to the scheduler only for NONE and CHILD.
   */
  @ParameterizedTest(name = "{0} with descendants {1}")
  @MethodSource("dispositions")
  void eachDispositionFiresWhenAndHowTheTableSays(AllocInheritance i, Descendants d) {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String tool = dvm.tool();
    String owner = dvm.spawnLaunched(tool, 1);
    String r = dvm.reserve(owner, i.code(), "s1");
    String child =
        d == Descendants.RUNNING_IN_THE_RESERVATION
            ? dvm.spawnLaunched(owner, 1, r)
            : dvm.spawnLaunched(owner, 1);
    if (d == Descendants.ALREADY_GONE) {
      dvm.exitAll(child);
    }
    dvm.exitAll(owner);
    boolean waits = i.waitsForDescendants() && d != Descendants.ALREADY_GONE;
    assertThat(dvm.allocation(r).isPresent()).isEqualTo(waits);
    if (d != Descendants.ALREADY_GONE) {
      boolean childAlive =
          dvm.core.view().job(child).orElseThrow().state()
              != org.jdvm.core.query.JobView.State.TERMINATED;
      boolean killed =
          i.returnsToScheduler()
              && !i.waitsForDescendants()
              && d == Descendants.RUNNING_IN_THE_RESERVATION;
      assertThat(childAlive).as("the child survives unless its nodes left").isEqualTo(!killed);
      if (childAlive) {
        dvm.exitAll(child);
      }
    }
    assertThat(dvm.allocation(r)).isEmpty();
    assertThat(dvm.core.view().node("s1").isPresent()).isEqualTo(!i.returnsToScheduler());
  }
}
