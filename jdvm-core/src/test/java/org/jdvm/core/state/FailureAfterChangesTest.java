package org.jdvm.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jdvm.core.CommandFailed;
import org.jdvm.core.Request;
import org.jdvm.core.TestDvm;
import org.junit.jupiter.api.Test;

/**
 * What {@code Core.handle} throws says whether the state can still be trusted: a failure before the
 * first change is a {@link CommandFailed} (see {@code CoreContractTest}); one after changes were
 * applied is thrown as it is, for the shell to stop the DVM.
 */
class FailureAfterChangesTest {

  @Test
  void aBrokenInvariantFoundAfterAChangeWasAppliedIsNotACommandFailure() {
    TestDvm dvm = TestDvm.withNodes(1, 2);
    String tool = dvm.tool();
    String a = dvm.reserve(tool, null, "s1");
    State state = TestDvm.state(dvm);
    String next = state.jobs().nextNamespace();
    // Break the state behind the core's back: the job a spawn will create already owns A.
    state.allocations().byAllocId(a).owners.add(next);
    Request.Spawn spawn =
        Request.Spawn.of(dvm.rid(), TestDvm.proc(tool), TestDvm.apps(1)).withTarget(List.of(a));
    assertThatThrownBy(() -> dvm.core().handle(spawn, 0))
        .isNotInstanceOf(CommandFailed.class)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("owner added twice");
    assertThat(state.jobs().get(next)).as("the job was recorded before the failure").isNotNull();
  }

  @Test
  void aBugFoundWhileDecidingIsACommandFailureAndTheStateIsIntact() {
    TestDvm dvm = TestDvm.withNodes(1, 2);
    String tool = dvm.tool();
    // The node looks full, its pool still counts room: the mapper finds out before any change.
    Node n0 = TestDvm.state(dvm).nodes().get("n0");
    n0.slotsInUse = n0.slots();
    String before = dvm.digest();
    Request.Spawn spawn = Request.Spawn.of(dvm.rid(), TestDvm.proc(tool), TestDvm.apps(1));
    assertThatThrownBy(() -> dvm.core().handle(spawn, 0))
        .isInstanceOf(CommandFailed.class)
        .cause()
        .hasMessageContaining("mapper asked to place more processes than fit");
    assertThat(dvm.digest()).isEqualTo(before);
  }
}
