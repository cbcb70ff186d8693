package org.jdvm.server.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The slots of connections to the agent link that have not sent their hello yet. */
class HelloSlotsTest {
  private final HelloSlots slots = new HelloSlots(2, 3, "uid:1000");
  private final List<String> closed = new ArrayList<>();

  private Closeable conn(String name) {
    return () -> closed.add(name);
  }

  @Test
  void aPeerPastItsBoundGivesUpItsOwnOldestAndOthersKeepTheirs() {
    slots.enter("addr:10.0.0.9", conn("other"));
    slots.enter("addr:10.0.0.7", conn("a"));
    slots.enter("addr:10.0.0.7", conn("b"));
    HelloSlots.Entered c = slots.enter("addr:10.0.0.7", conn("c"));
    assertThat(c.evicted()).isTrue();
    assertThat(closed).containsExactly("a");
    assertThat(slots.held("addr:10.0.0.7")).isEqualTo(2);
    assertThat(slots.held("addr:10.0.0.9")).isEqualTo(1);
  }

  @Test
  void pastTheTotalThePeerHoldingTheMostGivesWay() {
    slots.enter("addr:10.0.0.7", conn("a"));
    slots.enter("addr:10.0.0.7", conn("b"));
    slots.enter("addr:10.0.0.9", conn("x"));
    HelloSlots.Entered y = slots.enter("addr:10.0.0.5", conn("agent"));
    assertThat(y.evicted()).isTrue();
    assertThat(closed).containsExactly("a");
    assertThat(slots.held()).isEqualTo(3);
    assertThat(slots.held("addr:10.0.0.5")).isEqualTo(1);
  }

  @Test
  void theOwnerIsNeverCountedAndASlotIsReleasedOnce() {
    for (int i = 0; i < 10; i++) {
      slots.enter("uid:1000", conn("mine" + i));
    }
    assertThat(slots.held()).isZero();
    HelloSlots.Slot s = slots.enter("uid:7", conn("s")).slot();
    HelloSlots.Slot t = slots.enter("uid:7", conn("t")).slot();
    s.release();
    s.release();
    assertThat(slots.held("uid:7")).isEqualTo(1);
    slots.enter("uid:7", conn("u"));
    t.release();
    assertThat(slots.held()).isEqualTo(1);
    assertThat(closed).isEmpty();
  }

  @Test
  void aSlotEvictedIsNotReleasedTwice() {
    HelloSlots.Slot a = slots.enter("uid:7", conn("a")).slot();
    slots.enter("uid:7", conn("b"));
    slots.enter("uid:7", conn("c")); // a gives way
    a.release(); // its handshake thread sees the close
    assertThat(slots.held("uid:7")).isEqualTo(2);
    assertThat(slots.closedEarly()).isEqualTo(1);
  }
}
