package org.jdvm.scheduler;

import java.util.List;
import java.util.function.Consumer;
import org.jdvm.pmix.PmixStatus;

/**
 * No workload manager ({@code --scheduler none}): the DVM has only its start-up nodes. Every ask is
 * refused with {@code PMIX_ERR_NOT_SUPPORTED} and a sentence saying why, so a request that needs
 * new nodes fails plainly instead of waiting forever.
 */
public final class NoSchedulerPort implements SchedulerPort {
  private Consumer<SchedulerEvent> listener;

  @Override
  public void start(Consumer<SchedulerEvent> listener) {
    this.listener = listener;
  }

  @Override
  public void ask(Ask ask) {
    listener.accept(
        new SchedulerEvent.Refused(
            ask.askId(),
            PmixStatus.ERR_NOT_SUPPORTED,
            "this DVM has no scheduler (started with --scheduler none): only its start-up nodes"
                + " can be reserved"));
  }

  @Override
  public void cancel(String askId) {}

  @Override
  public void release(String allocation, List<String> nodes) {}

  @Override
  public void lend(String allocation, List<String> nodes, long seconds) {
    throw new UnsupportedOperationException("no scheduler to lend nodes to");
  }

  @Override
  public void end(String allocation) {}

  @Override
  public String describe() {
    return "no scheduler";
  }

  @Override
  public void close() {}
}
