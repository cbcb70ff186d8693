package org.jdvm.server.shell;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jdvm.core.Command;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Report;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * Turns what the scheduler port says into reports for the core. A grant's absolute deadline becomes
 * the time limit left; a reclaim of a whole allocation is the spec's trigger 3, and its nodes then
 * leave the DVM even where the core's allocation had already ended and left them in the default
 * session; a reclaim of single nodes (a lender's claim falling due, a Slurm job losing nodes) takes
 * those nodes out of the DVM like a lost node, after the shell has ended their processes.
 */
public final class SchedulerBridge implements Consumer<SchedulerEvent> {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.scheduler");
  private static final long NS_PER_SECOND = 1_000_000_000L;

  private final Consumer<Command> submit;
  private final LongSupplier clockNs;
  private final Consumer<List<String>> endProcessesOn;

  /**
   * @param submit hands a report to the controller
   * @param endProcessesOn ends every process on nodes the scheduler took back, before the core
   *     hears of it
   */
  public SchedulerBridge(
      Consumer<Command> submit, LongSupplier clockNs, Consumer<List<String>> endProcessesOn) {
    this.submit = submit;
    this.clockNs = clockNs;
    this.endProcessesOn = endProcessesOn;
  }

  @Override
  public void accept(SchedulerEvent event) {
    switch (event) {
      case SchedulerEvent.Granted g ->
          submit.accept(
              new Report.SchedulerGranted(
                  Long.parseLong(g.askId()),
                  g.nodes().stream().map(n -> new NodeSpec(n.name(), n.slots())).toList(),
                  g.allocation(),
                  g.deadlineNs() == null
                      ? null
                      : Math.max(
                          0, Math.ceilDiv(g.deadlineNs() - clockNs.getAsLong(), NS_PER_SECOND))));
      case SchedulerEvent.Refused r -> {
        LOG.log(System.Logger.Level.INFO, "scheduler refused ask " + r.askId() + ": " + r.reason());
        submit.accept(new Report.SchedulerRefused(Long.parseLong(r.askId()), r.status()));
      }
      case SchedulerEvent.Queued q ->
          submit.accept(new Report.SchedulerQueued(Long.parseLong(q.askId())));
      case SchedulerEvent.Cancelled c ->
          submit.accept(new Report.SchedulerCancelled(Long.parseLong(c.askId())));
      case SchedulerEvent.Warning w ->
          submit.accept(new Report.SchedulerTimeoutWarning(w.allocation(), w.secondsRemaining()));
      case SchedulerEvent.Reclaimed r when r.whole() -> {
        submit.accept(new Report.SchedulerReclaimed(r.allocation(), Report.ReclaimReason.EXPIRED));
        // Nodes of an allocation the core has already ended (unreserved into the default session)
        // are still DVM nodes, but no longer the DVM's: they leave as lost nodes. For nodes the
        // reclaim itself took out of the DVM, the loss is a no-op.
        endProcessesOn.accept(r.nodes());
        r.nodes().forEach(n -> submit.accept(new Report.NodeLost(n)));
      }
      case SchedulerEvent.Reclaimed r -> {
        endProcessesOn.accept(r.nodes());
        r.nodes().forEach(n -> submit.accept(new Report.NodeLost(n)));
      }
    }
  }
}
