package org.jdvm.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.core.journal.Entry;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;
import org.jdvm.server.journal.Recovering;
import org.junit.jupiter.api.Test;

/**
 * docs/journal.md "The embedded scheduler": journaled after each step, the scheduler comes back
 * with its grants, queue, time limits and warnings sent; an ask made again gets the answer it got;
 * a warning is not sent twice; what the state holds that the recovered DVM does not (a release
 * whose step the crash lost) goes back to the pool, and nothing an ask still waits for does.
 */
class EmbeddedSchedulerRestartTest {
  private static final long S = 1_000_000_000L;

  private static List<NodeGrant> pool(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> new NodeGrant("x" + i, 2)).toList();
  }

  /** Through the journal's encoding, as a restart sees it. */
  private static EmbeddedScheduler restart(EmbeddedScheduler s, List<SchedulerEvent> answers) {
    List<Entry.Note> notes = Recovering.notes(s.save(), answers);
    EmbeddedScheduler.Saved saved =
        (EmbeddedScheduler.Saved)
            RecordCodec.read(new Bytes.In(notes.get(0).value()), EmbeddedScheduler.Saved.class);
    List<SchedulerEvent> kept =
        notes.stream()
            .filter(n -> n.kind().equals(SchedulerNotes.SCHEDULER_ANSWER))
            .map(
                n ->
                    (SchedulerEvent)
                        RecordCodec.read(new Bytes.In(n.value()), SchedulerEvent.class))
            .toList();
    return EmbeddedScheduler.restore(saved, kept);
  }

  @Test
  void grantsQueueAndTimeLimitsComeBackAndARepeatedAskGetsTheSameAnswer() {
    EmbeddedScheduler s = new EmbeddedScheduler(pool(3));
    List<SchedulerEvent> a1 =
        s.ask(new Ask("1", Ask.Kind.NEW, null, 2, List.of(), 100L, 10L, true), 0);
    List<SchedulerEvent> a2 =
        s.ask(new Ask("2", Ask.Kind.NEW, null, 2, List.of(), null, null, false), 0);
    assertThat(a2.get(0)).isInstanceOf(SchedulerEvent.Queued.class);

    EmbeddedScheduler r = restart(s, a1);
    assertThat(r.nodesOf("s1")).isEqualTo(s.nodesOf("s1"));
    assertThat(r.queued()).containsExactly("2");
    assertThat(r.nextDeadlineNs()).isEqualTo(s.nextDeadlineNs()).isEqualTo(90 * S);
    assertThat(r.ask(new Ask("1", Ask.Kind.NEW, null, 2, List.of(), 100L, 10L, true), 5 * S))
        .isEqualTo(a1);
    assertThat(r.ask(new Ask("2", Ask.Kind.NEW, null, 2, List.of(), null, null, false), 5 * S))
        .isEmpty();
    assertThat(r.nodesOf("s1")).hasSize(2);
  }

  @Test
  void aWarningSentBeforeTheRestartIsNotSentAgainAndTheExpiryStillComes() {
    EmbeddedScheduler s = new EmbeddedScheduler(pool(2));
    s.ask(new Ask("1", Ask.Kind.NEW, null, 1, List.of(), 100L, 10L, true), 0);
    assertThat(s.tick(90 * S)).containsExactly(new SchedulerEvent.Warning("s1", 10));

    EmbeddedScheduler r = restart(s, List.of());
    assertThat(r.warned()).containsExactly("s1");
    assertThat(r.warningOf("s1", 95 * S)).isEqualTo(new SchedulerEvent.Warning("s1", 5));
    assertThat(r.tick(95 * S)).isEmpty();
    assertThat(r.tick(100 * S))
        .containsExactly(new SchedulerEvent.Reclaimed("s1", List.of("x0"), true));
  }

  @Test
  void anAllocationTheRecoveredDvmDoesNotHoldIsEndedAndAWaitingAskServedFromIt() {
    EmbeddedScheduler s = new EmbeddedScheduler(pool(2));
    s.ask(new Ask("1", Ask.Kind.NEW, null, 2, List.of(), null, null, true), 0);
    s.ask(new Ask("2", Ask.Kind.NEW, null, 1, List.of(), null, null, false), 0);
    // The DVM released s1 and marked it done; the scheduler's step for it was lost in the crash.
    EmbeddedScheduler r = restart(s, List.of());
    assertThat(r.freeNodes()).isEmpty();

    List<SchedulerEvent> served = r.reconcile(java.util.Map.of(), java.util.Set.of("2"), S);

    assertThat(r.nodesOf("s1")).isEmpty();
    assertThat(served).hasSize(1).first().isInstanceOf(SchedulerEvent.Granted.class);
    assertThat(((SchedulerEvent.Granted) served.get(0)).askId()).isEqualTo("2");
    assertThat(r.freeNodes()).hasSize(1);
  }

  @Test
  void nodesOfAKnownAllocationTheDvmNoLongerHoldsAreReleasedAndTheRestKept() {
    EmbeddedScheduler s = new EmbeddedScheduler(pool(3));
    s.ask(new Ask("1", Ask.Kind.NEW, null, 3, List.of(), null, null, true), 0);
    EmbeddedScheduler r = restart(s, List.of());

    assertThat(r.reconcile(java.util.Map.of("s1", List.of("x0", "x2")), java.util.Set.of(), S))
        .isEmpty();

    assertThat(r.nodesOf("s1")).containsExactly("x0", "x2");
    assertThat(r.freeNodes()).containsExactly("x1");
  }

  @Test
  void anAllocationGrantedToAnAskTheDvmStillWaitsOnIsLeftForThatAskAgain() {
    EmbeddedScheduler s = new EmbeddedScheduler(pool(2));
    List<SchedulerEvent> granted =
        s.ask(new Ask("7", Ask.Kind.NEW, null, 2, List.of(), null, null, true), 0);
    s.remember(granted);
    // The grant's step reached the journal; the DVM's batch for the grant did not.
    EmbeddedScheduler r = restart(s, granted);

    assertThat(r.reconcile(java.util.Map.of(), java.util.Set.of("7"), S)).isEmpty();

    assertThat(r.nodesOf("s1")).hasSize(2);
    assertThat(r.ask(new Ask("7", Ask.Kind.NEW, null, 2, List.of(), null, null, true), S))
        .isEqualTo(granted);
  }
}
