package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.core.TestDvm.proc;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.query.NodeView;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/** The conformance summary of spec §8.2.1.11, one test per guarantee. */
class ConformanceTest {

  @Test
  void
      guarantee1_aJobsCandidateNodesAreExactlyTheUnionOfItsPermittedSessionsAndNeverAReservedNodeItDoesNotOwn() {
    TestDvm dvm = TestDvm.withNodes(2, 4);
    String a = dvm.tool();
    String b = dvm.tool();
    String ra = dvm.reserve(a, null, "a1", "a2");
    dvm.reserve(b, null, "b1");
    // exactly the union of R_A (8 slots) and the default session (8 slots): 16 fit, 17 do not
    Outcome tooMany =
        dvm.handle(
            Request.Spawn.of(dvm.rid(), proc(a), TestDvm.apps(17)).withTarget(List.of(ra, "")));
    assertThat(tooMany.rejection()).isEqualTo(org.jdvm.core.spawn.SpawnRejection.DOES_NOT_FIT);
    String job = dvm.spawnLaunched(a, 16, ra, "");
    assertThat(nodesOf(dvm, job)).containsOnly("n0", "n1", "a1", "a2");
    // a job targeting the default session never sees a reserved node, even with R_B empty
    Outcome defaultOnly = dvm.handle(Request.Spawn.of(dvm.rid(), proc(b), TestDvm.apps(1)));
    assertThat(defaultOnly.rejection()).isEqualTo(org.jdvm.core.spawn.SpawnRejection.DOES_NOT_FIT);
    // and a namespace may not target a reservation it does not own
    Outcome foreign =
        dvm.handle(Request.Spawn.of(dvm.rid(), proc(b), TestDvm.apps(1)).withTarget(List.of(ra)));
    assertThat(foreign.rejection().status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
  }

  @Test
  void guarantee2_aReservationChangesOnlyOnARequesterAttributeOrASchedulerAction() {
    TestDvm dvm = TestDvm.withNodes(2, 4);
    String owner = dvm.tool();
    String other = dvm.tool();
    String r = dvm.reserve(owner, null, "s1");
    String inside = dvm.spawnLaunched(owner, 1, r);
    String outside = dvm.spawnLaunched(other, 2);
    String before = allocations(dvm);
    dvm.nowNs += 3_600_000_000_000L;
    dvm.handle(new Report.Tick());
    dvm.handle(new Report.SchedulerTimeoutWarning(r, 10L));
    dvm.exitAll(outside);
    dvm.exitAll(inside);
    dvm.handle(new Report.ToolDeparted(other, false));
    dvm.handle(new Report.NodeLost("n1"));
    dvm.handle(new Request.SignalJob(dvm.rid(), proc(owner), inside, 1));
    assertThat(allocations(dvm)).isEqualTo(before);
  }

  @Test
  void guarantee3_everyRejectionListedInErrorSemanticsLeavesNoObservablePartialEffect() {
    for (ErrorSemanticsTest.Row row : ErrorSemanticsTest.rows()) {
      ErrorSemanticsTest.assertRowRefusedWithoutEffect(row);
    }
  }

  @Test
  void guarantee4_aReservationEndsOnlyOnATriggerOrItsRecordedDispositionDefaultingToDefault() {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String tool = dvm.tool();
    String owner = dvm.spawnLaunched(tool, 1);
    String implicit = dvm.reserve(owner, null, "s1");
    String released = dvm.reserve(owner, AllocInheritance.CHILD.code(), "s2");
    String reclaimed = dvm.reserve(owner, AllocInheritance.CHILD.code(), "s3");
    String child = dvm.spawnLaunched(owner, 1, released);
    // losing every node of a reservation is not a trigger: it stays, empty
    dvm.handle(new Report.NodeLost("s1"));
    assertThat(dvm.allocation(implicit)).isPresent();
    // trigger 1: an owner's release; trigger 3: the scheduler's reclaim
    dvm.handle(dvm.allocate(child, AllocDirective.RELEASE).allocId(released).build());
    dvm.handle(new Report.SchedulerReclaimed(reclaimed, Report.ReclaimReason.ADMINISTRATIVE));
    assertThat(dvm.allocation(released)).isEmpty();
    assertThat(dvm.allocation(reclaimed)).isEmpty();
    // the recorded disposition, absent = DEFAULT: it ends when its owner terminates
    assertThat(dvm.allocation(implicit)).isPresent();
    dvm.exitAll(owner);
    assertThat(dvm.allocation(implicit)).isEmpty();
    // trigger 2: teardown ends every session
    String last = dvm.reserve(tool, null, "s4");
    dvm.handle(new Report.Teardown());
    assertThat(dvm.allocation(last)).isEmpty();
    assertThat(dvm.core.view().allocations()).isEmpty();
  }

  @Test
  void guarantee5_nodesReturnToTheSchedulerOnlyUnderNoneOrChildAnExplicitReleaseOrTeardown() {
    for (AllocInheritance i : AllocInheritance.values()) {
      TestDvm dvm = TestDvm.withNodes(1, 4);
      String tool = dvm.tool();
      String owner = dvm.spawnLaunched(tool, 1);
      dvm.reserve(owner, i.code(), "s1");
      Outcome end = dvm.exitAll(owner);
      boolean handedBack = !TestDvm.all(end, Effect.HandBackNodes.class).isEmpty();
      boolean shrunk = !TestDvm.all(end, Effect.ShrinkNodes.class).isEmpty();
      assertThat(handedBack).as("%s hands back", i).isEqualTo(i.returnsToScheduler());
      assertThat(shrunk).as("%s shrinks", i).isEqualTo(i.returnsToScheduler());
      assertThat(dvm.core.view().node("s1").isPresent()).isEqualTo(!i.returnsToScheduler());
    }
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String tool = dvm.tool();
    String r = dvm.reserve(tool, null, "s1");
    Outcome release = dvm.handle(dvm.allocate(tool, AllocDirective.RELEASE).allocId(r).build());
    assertThat(TestDvm.only(release, Effect.HandBackNodes.class).nodeNames()).containsExactly("s1");
    dvm.reserve(tool, null, "s2");
    Outcome teardown = dvm.handle(new Report.Teardown());
    assertThat(TestDvm.only(teardown, Effect.HandBackNodes.class).nodeNames())
        .containsExactly("s2");
  }

  @Test
  void guarantee6_aTimeoutWarningIsRelayedOnlyToTheRequesterAndAltersNothing() {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String owner = dvm.tool();
    dvm.tool();
    Request.Allocate ask =
        dvm.allocate(owner, AllocDirective.NEW).nodeCount(1).warnTimeoutSeconds(30L).build();
    Outcome asked = dvm.handle(ask);
    assertThat(TestDvm.only(asked, Effect.AskScheduler.class).warnTimeoutSeconds()).isEqualTo(30L);
    String r =
        dvm.allocateGranted(
            dvm.allocate(owner, AllocDirective.NEW).nodeCount(1).build(),
            List.of(new NodeSpec("s2", 1)));
    String before = dvm.digest();
    Outcome warned = dvm.handle(new Report.SchedulerTimeoutWarning(r, 30L));
    assertThat(warned.changes()).isEmpty();
    assertThat(dvm.digest()).isEqualTo(before);
    assertThat(warned.effects()).hasSize(1);
    Effect.NotifyProc n = TestDvm.only(warned, Effect.NotifyProc.class);
    assertThat(n.target()).isEqualTo(proc(owner));
    assertThat(n.status()).isEqualTo(PmixStatus.ALLOC_TIMEOUT_WARNING);
  }

  @Test
  void guarantee7_theDefaultsAndRejectionsHoldUnchangedWithoutAnyOfTheFiveAttributes() {
    for (int mask = 0; mask < 32; mask++) {
      Set<Feature> off = EnumSet.noneOf(Feature.class);
      for (Feature f : Feature.values()) {
        if ((mask & (1 << f.ordinal())) != 0) {
          off.add(f);
        }
      }
      assertDefaultsAndRejections(off);
    }
  }

  private static void assertDefaultsAndRejections(Set<Feature> off) {
    TestDvm dvm = new TestDvm(CoreConfig.of("jdvm", TestDvm.specs("n", 1, 4)).without(off));
    String tool = dvm.tool();
    String app = dvm.spawnLaunched(tool, 1);
    // no attribute: reserved to the requester, DEFAULT disposition
    String r = dvm.reserve(app, null, "s1");
    assertThat(dvm.allocation(r).orElseThrow().owner()).as("%s", off).isEqualTo(app);
    assertThat(dvm.allocation(r).orElseThrow().reserved()).isTrue();
    assertThat(dvm.allocation(r).orElseThrow().inheritance()).isEqualTo(AllocInheritance.DEFAULT);
    // the error rows that do not depend on a missing attribute hold unchanged
    Outcome noId = dvm.handle(dvm.allocate(tool, AllocDirective.EXTEND).nodeCount(1).build());
    assertThat(noId.rejection().status()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    Outcome notOwner =
        dvm.handle(dvm.allocate(tool, AllocDirective.EXTEND).allocId(r).nodeCount(1).build());
    assertThat(notOwner.rejection().status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    Outcome badInheritance =
        dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).inheritance(9).build());
    assertThat(badInheritance.rejection().status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    Outcome none =
        dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).inheritance(1).build());
    assertThat(none.rejected()).isEqualTo(off.contains(Feature.INHERITANCE));
    Outcome target =
        dvm.handle(dvm.allocate(app, AllocDirective.NEW).nodeCount(1).target(tool).build());
    assertThat(target.rejected()).isEqualTo(!off.contains(Feature.TARGET));
    // the owner's termination unreserves (DEFAULT): the node stays in the DVM
    dvm.exitAll(app);
    NodeView s1 = dvm.core.view().node("s1").orElseThrow();
    assertThat(s1.reserved()).isFalse();
  }

  private static List<String> nodesOf(TestDvm dvm, String job) {
    return dvm.core.view().job(job).orElseThrow().procs().stream()
        .map(org.jdvm.core.query.ProcView::node)
        .toList();
  }

  /** The allocations part of the state, rendered. */
  private static String allocations(TestDvm dvm) {
    StringBuilder out = new StringBuilder();
    for (var a : dvm.core.view().allocations()) {
      out.append(a.allocId()).append(a.inheritance()).append(a.reserved()).append(a.owner());
      a.nodes().forEach(n -> out.append(' ').append(n.name()));
      out.append('\n');
    }
    return out.toString();
  }
}
