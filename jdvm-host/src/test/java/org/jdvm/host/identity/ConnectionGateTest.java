package org.jdvm.host.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionGateTest {
  private final ConnectionGate gate =
      new ConnectionGate(new ConnectionGate.Limits(2, 3, 1), "uid:1000");

  @Test
  void anotherUserHoldsAtMostItsBoundOfPendingConnectionsAndAClosedOneFreesItsPlace() {
    ConnectionGate.Ticket a = gate.enter("uid:7");
    ConnectionGate.Ticket b = gate.enter("uid:7");
    assertThat(a).isNotNull();
    assertThat(b).isNotNull();
    assertThat(gate.enter("uid:7")).isNull();
    a.release();
    a.release(); // idempotent: frees one place, not two
    assertThat(gate.enter("uid:7")).isNotNull();
    assertThat(gate.enter("uid:7")).isNull();
  }

  @Test
  void allOtherUsersTogetherAreBoundedButTheOwnerNeverIs() {
    assertThat(gate.enter("uid:7")).isNotNull();
    assertThat(gate.enter("uid:7")).isNotNull();
    assertThat(gate.enter("uid:8")).isNotNull();
    assertThat(gate.enter("uid:9")).isNull();
    assertThat(gate.enter(ConnectionGate.UNKNOWN_USER)).isNull();
    List<ConnectionGate.Ticket> mine = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      mine.add(gate.enter("uid:1000"));
    }
    assertThat(mine).doesNotContainNull();
    assertThat(mine).allMatch(ConnectionGate.Ticket::admit);
  }

  @Test
  void anotherUserIsBoundedAfterAdmissionTooAndAnAdmittedConnectionLeavesThePendingCount() {
    ConnectionGate.Ticket first = gate.enter("uid:7");
    assertThat(first.admit()).isTrue();
    assertThat(gate.pendingOthers()).isZero();
    ConnectionGate.Ticket second = gate.enter("uid:7");
    assertThat(second.admit()).isFalse();
    assertThat(gate.pendingOthers()).isEqualTo(1);
    second.release();
    first.release();
    assertThat(gate.pendingOthers()).isZero();
    assertThat(gate.enter("uid:7").admit()).isTrue();
  }
}
