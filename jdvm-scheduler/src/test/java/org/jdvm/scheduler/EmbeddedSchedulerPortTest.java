package org.jdvm.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

class EmbeddedSchedulerPortTest {
  @Test
  void theTimerDeliversTheWarningAndThenTheReclaimInOrder() throws Exception {
    LinkedBlockingQueue<SchedulerEvent> events = new LinkedBlockingQueue<>();
    try (EmbeddedSchedulerPort port =
        new EmbeddedSchedulerPort(List.of(new NodeGrant("node4", 1)), System::nanoTime)) {
      port.start(events::add);
      port.ask(new Ask("a1", Ask.Kind.NEW, null, 1, List.of(), 1L, 1L, true));
      SchedulerEvent granted = events.poll(10, TimeUnit.SECONDS);
      assertThat(granted).isInstanceOf(SchedulerEvent.Granted.class);
      String alloc = ((SchedulerEvent.Granted) granted).allocation();
      assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo(new SchedulerEvent.Warning(alloc, 1));
      assertThat(events.poll(10, TimeUnit.SECONDS))
          .isEqualTo(new SchedulerEvent.Reclaimed(alloc, List.of("node4"), true));
    }
  }

  @Test
  void withoutASchedulerEveryAskIsRefusedAsNotSupported() {
    LinkedBlockingQueue<SchedulerEvent> events = new LinkedBlockingQueue<>();
    try (NoSchedulerPort port = new NoSchedulerPort()) {
      port.start(events::add);
      port.ask(new Ask("a1", Ask.Kind.NEW, null, 1, List.of(), null, null, false));
      assertThat(events.poll())
          .isInstanceOfSatisfying(
              SchedulerEvent.Refused.class,
              r -> assertThat(r.reason()).contains("--scheduler none"));
      port.ask(new Ask("l1", Ask.Kind.LEND, "s1", 0, List.of("node4"), null, null, true));
      assertThat(events.poll())
          .as("no scheduler takes no loan")
          .isInstanceOfSatisfying(
              SchedulerEvent.Refused.class,
              r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED));
    }
  }
}
