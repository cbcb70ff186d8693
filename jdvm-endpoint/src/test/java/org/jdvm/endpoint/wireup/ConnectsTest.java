package org.jdvm.endpoint.wireup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdvm.endpoint.wireup.Connects.Entering;
import org.jdvm.endpoint.wireup.Connects.Kind;
import org.jdvm.endpoint.wireup.Connects.Refusal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;

/**
 * Connect and disconnect collectives (docs/wireup.md §c.5): one per kind and set of processes,
 * whatever order the members list them in; complete when every member entered; a lost member, a
 * timeout or a refusal gives an error, never a wait without end.
 */
class ConnectsTest {
  private static final Proc P0 = new Proc("p@1", 0);
  private static final Proc C0 = new Proc("c@2", 0);
  private static final Proc C1 = new Proc("c@2", 1);
  private static final List<Proc> ALL = List.of(P0, C0, C1);

  private final Connects connects = new Connects(8);
  private final List<String> answered = new ArrayList<>();

  private Entering enter(Kind kind, Proc caller, List<Proc> members, List<Proc> ended) {
    return connects.enter(
        kind,
        caller,
        members,
        ended,
        caller,
        (status, completion) -> answered.add(caller + "=" + PmixStatus.name(status)));
  }

  private Entering enter(Proc caller, List<Proc> members) {
    return enter(Kind.CONNECT, caller, members, List.of());
  }

  @Test
  void aConnectCompletesWhenTheLastMemberEntersWhateverOrderEachListsThem() {
    assertThat(enter(P0, List.of(P0, C0, C1))).isInstanceOf(Entering.Entered.class);
    assertThat(enter(C1, List.of(C0, C1, P0))).isInstanceOf(Entering.Entered.class);
    assertThat(answered).isEmpty();
    assertThat(connects.open()).isEqualTo(1);
    enter(C0, List.of(C1, P0, C0));
    assertThat(answered)
        .containsExactly("p@1.0=PMIX_SUCCESS", "c@2.1=PMIX_SUCCESS", "c@2.0=PMIX_SUCCESS");
    assertThat(connects.open()).isZero();
  }

  @Test
  void connectAndDisconnectOverTheSameSetAreDifferentCollectives() {
    enter(Kind.CONNECT, P0, List.of(P0, C0), List.of());
    enter(Kind.DISCONNECT, C0, List.of(P0, C0), List.of());
    assertThat(answered).isEmpty();
    assertThat(connects.open()).isEqualTo(2);
  }

  @Test
  void everyMemberSharesOneCompletionAndItsMemo() {
    List<Connects.Completion> seen = new ArrayList<>();
    AtomicInteger made = new AtomicInteger();
    for (Proc p : List.of(P0, C0)) {
      connects.enter(
          Kind.CONNECT,
          p,
          List.of(P0, C0),
          List.of(),
          p,
          (s, c) -> {
            seen.add(c);
            c.once(made::incrementAndGet);
          });
    }
    assertThat(seen).hasSize(2);
    assertThat(seen.get(0)).isSameAs(seen.get(1));
    assertThat(made).hasValue(1);
    assertThat(seen.get(0).namespaces()).containsExactly("c@2", "p@1");
  }

  @Test
  void aMemberThatEndsBeforeEnteringMakesThePartialSuccessOfTheOthers() {
    enter(P0, ALL);
    enter(C0, ALL);
    connects.procsEnded("c@2", List.of(1));
    assertThat(answered)
        .containsExactly("p@1.0=PMIX_ERR_PARTIAL_SUCCESS", "c@2.0=PMIX_ERR_PARTIAL_SUCCESS");
  }

  @Test
  void aMemberKnownToHaveEndedIsLostFromTheStart() {
    enter(Kind.CONNECT, P0, List.of(P0, C1), List.of(C1));
    assertThat(answered).containsExactly("p@1.0=PMIX_ERR_PARTIAL_SUCCESS");
  }

  @Test
  void aMemberWhoseConnectionGoesAfterEnteringIsLostAndNotAnswered() {
    enter(P0, ALL);
    enter(C0, ALL);
    connects.ownerGone(C0);
    assertThat(answered).isEmpty();
    enter(C1, ALL);
    assertThat(answered)
        .containsExactly("p@1.0=PMIX_ERR_PARTIAL_SUCCESS", "c@2.1=PMIX_ERR_PARTIAL_SUCCESS");
  }

  @Test
  void aJobThatEndsIsLostWholeAndACollectiveOfNobodyLeftClosesQuietly() {
    enter(C0, List.of(C0, C1));
    connects.jobEnded("c@2");
    assertThat(answered).isEmpty();
    assertThat(connects.open()).isZero();
  }

  @Test
  void aTimeoutAnswersEveryoneWhoEnteredOnce() {
    Entering.Entered e = (Entering.Entered) enter(P0, ALL);
    enter(C0, ALL);
    assertThat(connects.expire(e.id())).isTrue();
    assertThat(connects.expire(e.id())).isFalse();
    assertThat(answered).containsExactly("p@1.0=PMIX_ERR_TIMEOUT", "c@2.0=PMIX_ERR_TIMEOUT");
    enter(C1, ALL);
    assertThat(answered).as("a new collective over the same set").hasSize(2);
  }

  @Test
  void refusalsComeAtOnceInTheirOrderAndChangeNothing() {
    assertThat(enter(P0, List.of(C0, C1))).isEqualTo(new Entering.Refused(Refusal.NOT_A_MEMBER));
    enter(P0, ALL);
    assertThat(enter(P0, ALL)).isEqualTo(new Entering.Refused(Refusal.ALREADY_ENTERED));
    Connects one = new Connects(1);
    one.enter(Kind.CONNECT, P0, List.of(P0, C0), List.of(), P0, (s, c) -> {});
    assertThat(one.enter(Kind.CONNECT, P0, List.of(P0, C1), List.of(), P0, (s, c) -> {}))
        .isEqualTo(new Entering.Refused(Refusal.TOO_MANY_OPEN));
    assertThat(one.open()).isEqualTo(1);
    assertThat(answered).isEmpty();
  }
}
