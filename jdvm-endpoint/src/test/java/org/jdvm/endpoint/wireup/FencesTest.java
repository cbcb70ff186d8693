package org.jdvm.endpoint.wireup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;

/** The open fences (docs/wireup.md §c.2), with a hand-driven clock. */
class FencesTest {
  private final ManualTimer timer = new ManualTimer();
  private final Fences fences = new Fences(4, timer);
  private final Map<Proc, List<Integer>> answers = new HashMap<>();

  private static final String A = "dvm@2";
  private static final String B = "dvm@3";

  private static FenceSet set(Map<String, Integer> sizes, Proc... procs) {
    return FenceSet.of(List.of(procs), sizes);
  }

  private static FenceSet wholeJob(String ns, int size) {
    return set(Map.of(ns, size), Proc.wildcard(ns));
  }

  private int enter(FenceSet s, Proc caller, boolean collect, long timeoutMs) {
    return fences.enter(
        s,
        caller,
        collect,
        timeoutMs,
        status -> answers.computeIfAbsent(caller, k -> new ArrayList<>()).add(status));
  }

  private List<Integer> answersOf(Proc p) {
    return answers.getOrDefault(p, List.of());
  }

  @Test
  void everyOrderOfEntriesCompletesEachFenceExactlyOnceForEveryEntrant() {
    long seed = Long.getLong("jdvm.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      answers.clear();
      int sizeA = 1 + random.nextInt(6);
      int sizeB = 1 + random.nextInt(4);
      // three concurrent fences: all of A, all of B, and A's rank 0 with every rank of B
      FenceSet all = wholeJob(A, sizeA);
      FenceSet other = wholeJob(B, sizeB);
      FenceSet mixed = set(Map.of(A, sizeA, B, sizeB), new Proc(A, 0), Proc.wildcard(B));
      List<Object[]> entries = new ArrayList<>();
      for (int r = 0; r < sizeA; r++) {
        entries.add(new Object[] {all, new Proc(A, r)});
      }
      for (int r = 0; r < sizeB; r++) {
        entries.add(new Object[] {other, new Proc(B, r)});
        entries.add(new Object[] {mixed, new Proc(B, r)});
      }
      entries.add(new Object[] {mixed, new Proc(A, 0)});
      Collections.shuffle(entries, random);
      Map<FenceSet, Integer> entered = new HashMap<>();
      for (Object[] e : entries) {
        FenceSet s = (FenceSet) e[0];
        Proc p = (Proc) e[1];
        int before = answersOf(p).size();
        assertThat(enter(s, p, true, 0)).as("seed " + seed).isEqualTo(PmixStatus.SUCCESS);
        int n = entered.merge(s, 1, Integer::sum);
        if (n < s.count()) {
          assertThat(answersOf(p)).as("seed %d: %s answered early", seed, p).hasSize(before);
        }
      }
      for (Map.Entry<Proc, List<Integer>> a : answers.entrySet()) {
        int fencesOfProc =
            (int) List.of(all, other, mixed).stream().filter(s -> s.includes(a.getKey())).count();
        assertThat(a.getValue())
            .as("seed %d: %s", seed, a.getKey())
            .hasSize(fencesOfProc)
            .containsOnly(PmixStatus.SUCCESS);
      }
      assertThat(answers).as("seed " + seed).hasSize(sizeA + sizeB);
      assertThat(fences.open()).as("seed " + seed).isZero();
    }
  }

  @Test
  void aFenceCompletesOnlyWhenItsLastParticipantEnters() {
    FenceSet s = wholeJob(A, 3);
    enter(s, new Proc(A, 2), false, 0);
    enter(s, new Proc(A, 0), false, 0);
    assertThat(answers).isEmpty();
    enter(s, new Proc(A, 1), false, 0);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.SUCCESS);
    assertThat(answersOf(new Proc(A, 1))).containsExactly(PmixStatus.SUCCESS);
    assertThat(answersOf(new Proc(A, 2))).containsExactly(PmixStatus.SUCCESS);
    assertThat(fences.open()).isZero();
  }

  @Test
  void theSameSetNamedInAnotherOrderIsTheSameFence() {
    Map<String, Integer> sizes = Map.of(A, 2, B, 1);
    enter(set(sizes, new Proc(B, 0), new Proc(A, 1), new Proc(A, 0)), new Proc(B, 0), false, 0);
    enter(set(sizes, new Proc(A, 0), new Proc(A, 1), new Proc(B, 0)), new Proc(A, 0), false, 0);
    enter(set(sizes, new Proc(A, 1), new Proc(B, 0), new Proc(A, 0)), new Proc(A, 1), false, 0);
    assertThat(answers.values()).hasSize(3).allMatch(a -> a.equals(List.of(PmixStatus.SUCCESS)));
  }

  @Test
  void aCallerThatIsNotAParticipantIsRefusedAndChangesNothing() {
    FenceSet s = set(Map.of(A, 3), new Proc(A, 0), new Proc(A, 1));
    assertThat(enter(s, new Proc(A, 2), false, 0)).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(fences.open()).isZero();
  }

  @Test
  void enteringTheSameOpenFenceTwiceIsRefused() {
    FenceSet s = wholeJob(A, 2);
    enter(s, new Proc(A, 0), false, 0);
    assertThat(enter(s, new Proc(A, 0), false, 0)).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    enter(s, new Proc(A, 1), false, 0);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.SUCCESS);
  }

  @Test
  void participantsDisagreeingAboutCollectingDataAllGetInvalidArg() {
    FenceSet s = wholeJob(A, 2);
    enter(s, new Proc(A, 0), true, 0);
    enter(s, new Proc(A, 1), false, 0);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.ERR_INVALID_ARG);
    assertThat(answersOf(new Proc(A, 1))).containsExactly(PmixStatus.ERR_INVALID_ARG);
  }

  @Test
  void theFirstTimeoutGivenEndsTheFenceForEveryEntrantWithTimeout() {
    FenceSet s = wholeJob(A, 3);
    enter(s, new Proc(A, 0), false, 0);
    enter(s, new Proc(A, 1), false, 1000);
    timer.advance(999);
    assertThat(answers).isEmpty();
    timer.advance(1);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.ERR_TIMEOUT);
    assertThat(answersOf(new Proc(A, 1))).containsExactly(PmixStatus.ERR_TIMEOUT);
    assertThat(fences.open()).isZero();
    // the late participant starts a new fence
    enter(s, new Proc(A, 2), false, 0);
    assertThat(fences.open()).isOne();
  }

  @Test
  void aCompletedFenceCancelsItsClock() {
    FenceSet s = wholeJob(A, 2);
    enter(s, new Proc(A, 0), false, 5000);
    enter(s, new Proc(A, 1), false, 0);
    assertThat(timer.pending()).isZero();
    timer.advance(10_000);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.SUCCESS);
  }

  @Test
  void aParticipantThatEndsCompletesTheOthersWithPartialSuccessOnceTheyAllEntered() {
    FenceSet s = wholeJob(A, 3);
    enter(s, new Proc(A, 0), false, 0);
    fences.procsEnded(A, List.of(2));
    assertThat(answers).isEmpty();
    enter(s, new Proc(A, 1), false, 0);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.ERR_PARTIAL_SUCCESS);
    assertThat(answersOf(new Proc(A, 1))).containsExactly(PmixStatus.ERR_PARTIAL_SUCCESS);
  }

  @Test
  void aParticipantThatEndedBeforeTheFenceOpenedCountsAsGone() {
    fences.procsEnded(A, List.of(1));
    enter(wholeJob(A, 2), new Proc(A, 0), false, 0);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.ERR_PARTIAL_SUCCESS);
  }

  @Test
  void anEntrantThatEndsIsNotAnsweredButTheFenceStillCompletes() {
    FenceSet s = wholeJob(A, 3);
    enter(s, new Proc(A, 0), false, 0);
    enter(s, new Proc(A, 1), false, 0);
    fences.procsEnded(A, List.of(0));
    enter(s, new Proc(A, 2), false, 0);
    assertThat(answersOf(new Proc(A, 0))).isEmpty();
    assertThat(answersOf(new Proc(A, 1))).containsExactly(PmixStatus.ERR_PARTIAL_SUCCESS);
    assertThat(answersOf(new Proc(A, 2))).containsExactly(PmixStatus.ERR_PARTIAL_SUCCESS);
  }

  @Test
  void aJobThatEndsReleasesTheFencesOfOtherJobsThatWaitForIt() {
    FenceSet s = set(Map.of(A, 1, B, 2), new Proc(A, 0), Proc.wildcard(B));
    enter(s, new Proc(A, 0), false, 0);
    fences.jobEnded(B);
    assertThat(answersOf(new Proc(A, 0))).containsExactly(PmixStatus.ERR_PARTIAL_SUCCESS);
    assertThat(fences.open()).isZero();
  }

  @Test
  void openFencesNamingANamespaceAreBoundedAndARefusalChangesNothing() {
    Map<String, Integer> sizes = Map.of(A, 8);
    for (int r = 1; r <= 4; r++) {
      assertThat(enter(set(sizes, new Proc(A, 0), new Proc(A, r)), new Proc(A, 0), false, 0))
          .isEqualTo(PmixStatus.SUCCESS);
    }
    assertThat(enter(set(sizes, new Proc(A, 0), new Proc(A, 5)), new Proc(A, 0), false, 0))
        .isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(fences.open()).isEqualTo(4);
    // joining one of the open fences is still possible, and frees a place
    enter(set(sizes, new Proc(A, 0), new Proc(A, 1)), new Proc(A, 1), false, 0);
    assertThat(enter(set(sizes, new Proc(A, 0), new Proc(A, 5)), new Proc(A, 0), false, 0))
        .isEqualTo(PmixStatus.SUCCESS);
  }

  @Test
  void aFenceSetCountsEachParticipantOnceWhateverTheWayItIsNamed() {
    FenceSet s =
        set(Map.of(A, 3, B, 2), Proc.wildcard(A), new Proc(A, 1), new Proc(B, 1), new Proc(B, 1));
    assertThat(s.count()).isEqualTo(4);
    assertThat(s.procs()).hasSize(3);
    assertThat(s.includes(new Proc(A, 2))).isTrue();
    assertThat(s.includes(new Proc(B, 0))).isFalse();
  }
}
