package org.jdvm.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.SchedulerEvent.Cancelled;
import org.jdvm.scheduler.SchedulerEvent.Granted;
import org.jdvm.scheduler.SchedulerEvent.Queued;
import org.jdvm.scheduler.SchedulerEvent.Reclaimed;
import org.jdvm.scheduler.SchedulerEvent.Refused;
import org.jdvm.scheduler.SchedulerEvent.Warning;
import org.junit.jupiter.api.Test;

class EmbeddedSchedulerTest {
  private static final long S = 1_000_000_000L;

  private static EmbeddedScheduler pool(int n) {
    List<NodeGrant> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(new NodeGrant("node" + (4 + i), 2));
    }
    return new EmbeddedScheduler(nodes);
  }

  private static Ask count(String id, int n, boolean required) {
    return new Ask(id, Ask.Kind.NEW, null, n, List.of(), null, null, required);
  }

  private static Ask timed(String id, int n, long limit, Long warn) {
    return new Ask(id, Ask.Kind.NEW, null, n, List.of(), limit, warn, true);
  }

  private static Granted granted(List<SchedulerEvent> events) {
    assertThat(events).hasSize(1).first().isInstanceOf(Granted.class);
    return (Granted) events.get(0);
  }

  private static List<String> names(Granted g) {
    return g.nodes().stream().map(NodeGrant::name).toList();
  }

  @Test
  void aGrantByCountTakesFreeNodesInPoolOrder() {
    EmbeddedScheduler s = pool(4);
    Granted g = granted(s.ask(count("a1", 2, true), 0));
    assertThat(names(g)).containsExactly("node4", "node5");
    assertThat(g.nodes()).allMatch(n -> n.slots() == 2);
    assertThat(g.deadlineNs()).isNull();
    assertThat(names(granted(s.ask(count("a2", 1, true), 0)))).containsExactly("node6");
    assertThat(g.allocation())
        .isNotEqualTo(((Granted) s.ask(count("a3", 1, true), 0).get(0)).allocation());
  }

  @Test
  void aGrantByNameTakesExactlyThoseNodes() {
    EmbeddedScheduler s = pool(4);
    Ask ask = new Ask("a1", Ask.Kind.NEW, null, 0, List.of("node7", "node5"), null, null, true);
    assertThat(names(granted(s.ask(ask, 0)))).containsExactly("node7", "node5");
    assertThat(s.freeNodes()).containsExactly("node4", "node6");
  }

  @Test
  void anAskNamingANodeThePoolDoesNotHaveIsRefusedAsNotFound() {
    EmbeddedScheduler s = pool(2);
    Ask ask =
        new Ask("a1", Ask.Kind.NEW, null, 0, List.of("node4", "elsewhere"), null, null, false);
    List<SchedulerEvent> out = s.ask(ask, 0);
    assertThat(out).singleElement().isInstanceOf(Refused.class);
    assertThat(((Refused) out.get(0)).status()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
    assertThat(s.freeNodes()).hasSize(2);
  }

  @Test
  void anAskForMoreNodesThanThePoolHoldsIsRefusedEvenWhenItMayWait() {
    EmbeddedScheduler s = pool(2);
    List<SchedulerEvent> out = s.ask(count("a1", 3, false), 0);
    assertThat(out).singleElement().isInstanceOf(Refused.class);
    assertThat(((Refused) out.get(0)).status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(s.queued()).isEmpty();
  }

  @Test
  void aRequiredAskThatCannotBeServedNowIsRefusedAndChangesNothing() {
    EmbeddedScheduler s = pool(3);
    granted(s.ask(count("a1", 2, true), 0));
    List<SchedulerEvent> out = s.ask(count("a2", 2, true), 0);
    assertThat(out).singleElement().isInstanceOf(Refused.class);
    assertThat(((Refused) out.get(0)).reason()).contains("1 free, 2 asked for");
    assertThat(s.freeNodes()).containsExactly("node6");
    assertThat(s.queued()).isEmpty();
  }

  @Test
  void asksThatMayWaitAreServedInArrivalOrderAsNodesFreeUp() {
    EmbeddedScheduler s = pool(3);
    Granted first = granted(s.ask(count("a1", 3, true), 0));
    assertThat(s.ask(count("q1", 2, false), 0)).containsExactly(new Queued("q1", 1));
    assertThat(s.ask(count("q2", 1, false), 0)).containsExactly(new Queued("q2", 2));
    // One node back: the head wants two, so nobody moves, not even the smaller q2 behind it.
    assertThat(s.release(first.allocation(), List.of("node4"), 1)).isEmpty();
    List<SchedulerEvent> out = s.release(first.allocation(), List.of("node5", "node6"), 2);
    assertThat(out).hasSize(2);
    assertThat(((Granted) out.get(0)).askId()).isEqualTo("q1");
    assertThat(((Granted) out.get(1)).askId()).isEqualTo("q2");
    assertThat(s.queued()).isEmpty();
  }

  @Test
  void whileAsksWaitANewcomerCannotOvertakeThemEvenIfItsNodesAreFree() {
    EmbeddedScheduler s = pool(2);
    granted(s.ask(count("a1", 1, true), 0));
    assertThat(s.ask(count("q1", 2, false), 0)).containsExactly(new Queued("q1", 1));
    List<SchedulerEvent> out = s.ask(count("r1", 1, true), 0);
    assertThat(out).singleElement().isInstanceOf(Refused.class);
    assertThat(((Refused) out.get(0)).reason()).contains("earlier request(s) are waiting");
    assertThat(s.ask(count("q2", 1, false), 0)).containsExactly(new Queued("q2", 2));
  }

  @Test
  void cancellingAQueuedAskWithdrawsItAndLetsTheNextOneIn() {
    EmbeddedScheduler s = pool(2);
    granted(s.ask(count("a1", 1, true), 0));
    s.ask(count("q1", 2, false), 0);
    s.ask(count("q2", 1, false), 0);
    List<SchedulerEvent> out = s.cancel("q1", 1);
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).isEqualTo(new Cancelled("q1"));
    assertThat(((Granted) out.get(1)).askId()).isEqualTo("q2");
    assertThat(s.cancel("q1", 2)).isEmpty();
  }

  @Test
  void anAllocationIsReclaimedWholeAtItsDeadlineAfterTheRequestedWarning() {
    EmbeddedScheduler s = pool(2);
    Granted g = granted(s.ask(timed("a1", 2, 60, 10L), 5 * S));
    assertThat(g.deadlineNs()).isEqualTo(65 * S);
    assertThat(s.nextDeadlineNs()).isEqualTo(55 * S);
    assertThat(s.tick(54 * S)).isEmpty();
    assertThat(s.tick(55 * S)).containsExactly(new Warning(g.allocation(), 10));
    assertThat(s.tick(56 * S)).isEmpty();
    assertThat(s.nextDeadlineNs()).isEqualTo(65 * S);
    assertThat(s.tick(65 * S))
        .containsExactly(new Reclaimed(g.allocation(), List.of("node4", "node5"), true));
    assertThat(s.freeNodes()).hasSize(2);
    assertThat(s.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void extendingAddsTimeAndRenewsTheWarning() {
    EmbeddedScheduler s = pool(2);
    Granted g = granted(s.ask(timed("a1", 1, 60, 10L), 0));
    s.tick(50 * S);
    Ask extend = new Ask("e1", Ask.Kind.EXTEND, g.allocation(), 0, List.of(), 30L, 5L, true);
    Granted e = granted(s.ask(extend, 52 * S));
    assertThat(e.nodes()).isEmpty();
    assertThat(e.deadlineNs()).isEqualTo(90 * S);
    assertThat(s.tick(85 * S)).containsExactly(new Warning(g.allocation(), 5));
  }

  @Test
  void extendingWithNodesAddsThemToTheSameAllocation() {
    EmbeddedScheduler s = pool(3);
    Granted g = granted(s.ask(count("a1", 1, true), 0));
    Ask extend = new Ask("e1", Ask.Kind.EXTEND, g.allocation(), 2, List.of(), null, null, true);
    Granted e = granted(s.ask(extend, 0));
    assertThat(e.allocation()).isEqualTo(g.allocation());
    assertThat(s.nodesOf(g.allocation())).containsExactly("node4", "node5", "node6");
  }

  @Test
  void releasingEveryNodeEndsTheAllocation() {
    EmbeddedScheduler s = pool(2);
    Granted g = granted(s.ask(count("a1", 2, true), 0));
    s.release(g.allocation(), List.of("node4", "node5"), 0);
    Ask extend = new Ask("e1", Ask.Kind.EXTEND, g.allocation(), 1, List.of(), null, null, true);
    assertThat(s.ask(extend, 0)).singleElement().isInstanceOf(Refused.class);
  }

  @Test
  void aBorrowerLosesALentNodeWhenTheClaimFallsDueAndTheLenderReacquiresIt() {
    EmbeddedScheduler s = pool(2);
    Granted lender = granted(s.ask(count("a1", 1, true), 0)); // node4
    s.lend(lender.allocation(), List.of("node4"), 100, 0);
    Granted borrower = granted(s.ask(count("b1", 2, true), 1 * S)); // node5, then lent node4
    assertThat(names(borrower)).containsExactly("node5", "node4");
    Ask reacquire =
        new Ask("r1", Ask.Kind.REAQUIRE, lender.allocation(), 0, List.of(), null, null, true);
    assertThat(s.ask(reacquire, 2 * S)).singleElement().isInstanceOf(Refused.class);
    assertThat(s.nextDeadlineNs()).isEqualTo(100 * S);
    assertThat(s.tick(100 * S))
        .containsExactly(new Reclaimed(borrower.allocation(), List.of("node4"), false));
    // Held for the lender now: nobody else gets it.
    assertThat(s.ask(count("c1", 1, true), 101 * S)).singleElement().isInstanceOf(Refused.class);
    Granted back = granted(s.ask(reacquire, 102 * S));
    assertThat(back.allocation()).isEqualTo(lender.allocation());
    assertThat(names(back)).containsExactly("node4");
  }

  @Test
  void aQueuedReacquireIsServedWhenTheClaimFallsDue() {
    EmbeddedScheduler s = pool(1);
    Granted lender = granted(s.ask(count("a1", 1, true), 0));
    s.lend(lender.allocation(), List.of("node4"), 10, 0);
    Granted borrower = granted(s.ask(count("b1", 1, true), 0));
    Ask reacquire =
        new Ask("r1", Ask.Kind.REAQUIRE, lender.allocation(), 0, List.of(), null, null, false);
    assertThat(s.ask(reacquire, 1 * S)).containsExactly(new Queued("r1", 1));
    List<SchedulerEvent> out = s.tick(10 * S);
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).isEqualTo(new Reclaimed(borrower.allocation(), List.of("node4"), false));
    assertThat(((Granted) out.get(1)).askId()).isEqualTo("r1");
  }

  @Test
  void endingTheLenderLetsItsClaimsLapse() {
    EmbeddedScheduler s = pool(1);
    Granted lender = granted(s.ask(count("a1", 1, true), 0));
    s.lend(lender.allocation(), List.of("node4"), 10, 0);
    s.end(lender.allocation(), 1 * S);
    assertThat(s.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    assertThat(names(granted(s.ask(count("b1", 1, true), 20 * S)))).containsExactly("node4");
  }

  /**
   * Random operations under a fixed seed; after each step every node has at most one holder, every
   * ask is answered at most once, and every ask not queued has been answered.
   */
  @Test
  void randomOperationsKeepEveryNodeWithOneHolderAndAnswerEveryAskOnce() {
    long seed = Long.getLong("jdvm.seed", 20261121L);
    Random rnd = new Random(seed);
    EmbeddedScheduler s = pool(6);
    Map<String, Integer> answers = new HashMap<>();
    Set<String> live = new HashSet<>();
    long now = 0;
    for (int step = 0; step < 5000; step++) {
      now += rnd.nextInt(5) * S;
      List<SchedulerEvent> out;
      String askId = "x" + step;
      switch (rnd.nextInt(6)) {
        case 0, 1 ->
            out =
                s.ask(
                    new Ask(
                        askId,
                        Ask.Kind.NEW,
                        null,
                        1 + rnd.nextInt(3),
                        List.of(),
                        rnd.nextBoolean() ? null : (long) rnd.nextInt(30),
                        rnd.nextBoolean() ? null : 3L,
                        rnd.nextBoolean()),
                    now);
        case 2 ->
            out =
                live.isEmpty()
                    ? List.of()
                    : s.release(pick(live, rnd), s.nodesOf(pick(live, rnd)), now);
        case 3 ->
            out =
                live.isEmpty()
                    ? List.of()
                    : s.lend(
                        pick(live, rnd),
                        s.nodesOf(pick(live, rnd)).stream().limit(1).toList(),
                        rnd.nextInt(20),
                        now);
        case 4 -> out = s.queued().isEmpty() ? List.of() : s.cancel(s.queued().get(0), now);
        default -> out = s.tick(now);
      }
      for (SchedulerEvent e : out) {
        String id =
            switch (e) {
              case Granted g -> {
                live.add(g.allocation());
                yield g.askId();
              }
              case Refused r -> r.askId();
              case Cancelled c -> c.askId();
              default -> null;
            };
        if (id != null) {
          assertThat(answers.merge(id, 1, Integer::sum))
              .as("seed %d step %d: %s answered once", seed, step, id)
              .isEqualTo(1);
        }
      }
      Set<String> held = new HashSet<>();
      for (String a : live) {
        for (String n : s.nodesOf(a)) {
          assertThat(held.add(n)).as("seed %d step %d: %s held twice", seed, step, n).isTrue();
        }
      }
      assertThat(held.size() + s.freeNodes().size()).as("seed %d step %d", seed, step).isEqualTo(6);
    }
  }

  private static String pick(Set<String> set, Random rnd) {
    List<String> l = new ArrayList<>(set);
    l.sort(null);
    return l.get(rnd.nextInt(l.size()));
  }

  @Test
  void aLoanIsAcceptedAtOnceWithNoNodesAndTakesNothingFromThePool() {
    EmbeddedScheduler s = pool(2);
    Granted g = granted(s.ask(count("a1", 1, true), 0));
    Granted loan =
        granted(
            s.ask(new Ask("l1", Ask.Kind.LEND, g.allocation(), 0, names(g), null, null, true), 0));
    assertThat(loan.askId()).isEqualTo("l1");
    assertThat(loan.nodes()).isEmpty();
    assertThat(s.nodesOf(g.allocation())).as("the nodes follow with lend()").isEqualTo(names(g));
    assertThat(s.freeNodes()).containsExactly("node5");
  }

  @Test
  void aLoanFromAnAllocationTheSchedulerGaveNothingToIsAcceptedToo() {
    EmbeddedScheduler s = pool(1);
    Granted loan =
        granted(s.ask(new Ask("l1", Ask.Kind.LEND, null, 0, List.of("n1"), null, null, true), 0));
    assertThat(loan.nodes()).isEmpty();
  }
}
