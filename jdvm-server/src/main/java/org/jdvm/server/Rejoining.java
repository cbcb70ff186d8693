package org.jdvm.server;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.query.CoreView;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.journal.RecoveredJournal;
import org.jdvm.server.journal.Recovering;

/**
 * A restarted controller takes back the agents that outlived it (docs/journal.md "Agents that
 * outlive the controller"): it waits, bounded, for each to rejoin with what still runs and what
 * ended meanwhile, and turns their report into the reconciliation's inventory.
 */
final class Rejoining {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server");

  private Rejoining() {}

  /**
   * A restarted controller's agents (docs/journal.md "Agents that outlive the controller"): each
   * node the recovered state holds may rejoin with the processes the state counts on it; waits,
   * bounded, for them.
   */
  static AgentHub.Rejoined await(AgentHub hub, RecoveredJournal recovered) {
    Map<String, Map<String, Long>> counted = new java.util.HashMap<>();
    if (recovered.found()) {
      CoreView view = recovered.core().view();
      view.nodes().forEach(n -> counted.put(n.name(), new java.util.HashMap<>()));
      for (org.jdvm.core.query.JobView j : view.jobs()) {
        for (org.jdvm.core.query.ProcView p : j.procs()) {
          Map<String, Long> on = counted.get(p.node());
          if (p.state() == org.jdvm.core.query.ProcView.State.RUNNING && on != null) {
            on.put(j.namespace() + "." + p.rank(), p.pid());
          }
        }
      }
    }
    long t0 = System.nanoTime();
    try {
      AgentHub.Rejoined back = hub.rejoin(counted);
      LOG.log(
          System.Logger.Level.WARNING,
          "agents rejoined="
              + back.stillRunning().size()
              + " missing="
              + back.missing().size()
              + " procs_running="
              + back.stillRunning().values().stream().mapToInt(List::size).sum()
              + " procs_ended_meanwhile="
              + back.ended().size()
              + " ms="
              + (System.nanoTime() - t0) / 1_000_000);
      return back;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the agents to rejoin", e);
    }
  }

  static Recovering.AgentInventory inventory(AgentHub.Rejoined back) {
    Set<org.jdvm.core.journal.Reconciliation.Running> still = new java.util.HashSet<>();
    back.stillRunning()
        .values()
        .forEach(
            l ->
                l.forEach(
                    r ->
                        still.add(
                            new org.jdvm.core.journal.Reconciliation.Running(
                                r.nspace(), r.rank()))));
    Map<org.jdvm.core.journal.Reconciliation.Running, org.jdvm.core.ProcEnd> ended =
        new java.util.HashMap<>();
    back.ended()
        .forEach(
            (r, status) ->
                ended.put(
                    new org.jdvm.core.journal.Reconciliation.Running(r.nspace(), r.rank()),
                    status));
    return new Recovering.AgentInventory() {
      @Override
      public Set<org.jdvm.core.journal.Reconciliation.Running> stillRunning() {
        return still;
      }

      @Override
      public Map<org.jdvm.core.journal.Reconciliation.Running, org.jdvm.core.ProcEnd> ended() {
        return ended;
      }
    };
  }
}
