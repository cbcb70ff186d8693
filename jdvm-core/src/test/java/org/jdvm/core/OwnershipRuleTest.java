package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.alloc.Ownership;
import org.jdvm.core.engine.CoreInternals;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The owner-set rule (spec §8.2.1.7; decisions.md #10, #15) as a table, and spawn targeting held to
 * it: {@link Ownership} is the only implementation, so a spawn is refused for want of ownership
 * exactly when {@link Ownership#mayTarget} says no.
 */
class OwnershipRuleTest {

  enum Who {
    /** The tool the allocations were made for. */
    OWNER,
    /** A job the owner spawned into the reservation, which joined its owner set. */
    JOINED,
    /** Another tool. */
    STRANGER,
    /** The scheduler, implicit owner of every session. */
    SCHEDULER
  }

  enum Session {
    RESERVATION,
    SHARED,
    DEFAULT
  }

  static Stream<Arguments> rule() {
    return Stream.of(
        Arguments.of(Who.OWNER, Session.RESERVATION, true, true),
        Arguments.of(Who.JOINED, Session.RESERVATION, true, true),
        Arguments.of(Who.STRANGER, Session.RESERVATION, false, false),
        Arguments.of(Who.SCHEDULER, Session.RESERVATION, true, true),
        Arguments.of(Who.OWNER, Session.SHARED, true, true),
        Arguments.of(Who.JOINED, Session.SHARED, false, true),
        Arguments.of(Who.STRANGER, Session.SHARED, false, true),
        Arguments.of(Who.SCHEDULER, Session.SHARED, true, true),
        Arguments.of(Who.OWNER, Session.DEFAULT, null, true),
        Arguments.of(Who.JOINED, Session.DEFAULT, null, true),
        Arguments.of(Who.STRANGER, Session.DEFAULT, null, true),
        Arguments.of(Who.SCHEDULER, Session.DEFAULT, null, true));
  }

  @ParameterizedTest(name = "{0} on {1}: act={2} target={3}")
  @MethodSource("rule")
  void whoMayActOnAndSpawnIntoASessionIsWhatTheOwnerSetRuleSays(
      Who who, Session session, Boolean mayAct, boolean mayTarget) {
    TestDvm dvm = TestDvm.withNodes(1, 4);
    String scheduler = dvm.scheduler();
    String owner = dvm.tool();
    String stranger = dvm.tool();
    String reservation = dvm.reserve(owner, null, "r1");
    String shared =
        dvm.allocateGranted(
            dvm.allocate(owner, AllocDirective.NEW).nodeCount(1).share(true).build(),
            List.of(new NodeSpec("s1", 4)));
    String joined = dvm.spawnLaunched(owner, 1, reservation);
    String requester =
        switch (who) {
          case OWNER -> owner;
          case JOINED -> joined;
          case STRANGER -> stranger;
          case SCHEDULER -> scheduler;
        };
    String target =
        switch (session) {
          case RESERVATION -> reservation;
          case SHARED -> shared;
          case DEFAULT -> "";
        };
    Allocation a =
        target.isEmpty() ? null : CoreInternals.state(dvm.core).allocations().byAllocId(target);
    Job r = CoreInternals.state(dvm.core).jobs().get(requester);

    if (mayAct != null) {
      assertThat(Ownership.mayActOn(a, r)).as("mayActOn").isEqualTo(mayAct);
    }
    assertThat(Ownership.mayTarget(a, r)).as("mayTarget").isEqualTo(mayTarget);

    Outcome spawn =
        dvm.handle(
            Request.Spawn.of(dvm.rid(), TestDvm.proc(requester), TestDvm.apps(1))
                .withTarget(List.of(target)));
    if (mayTarget) {
      assertThat(spawn.rejected()).as("spawn refused: %s", spawn.rejection()).isFalse();
    } else {
      assertThat(spawn.rejection().status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
      assertThat(spawn.changes()).isEmpty();
    }
  }
}
