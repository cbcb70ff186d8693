package org.jdvm.server.journal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jdvm.core.Command;
import org.jdvm.core.Effect;
import org.jdvm.core.JobKind;
import org.jdvm.core.Report;
import org.jdvm.core.engine.Core;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.Reconciliation;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.scheduler.EmbeddedScheduler;
import org.jdvm.scheduler.EmbeddedSchedulerPort;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.scheduler.SchedulerRestart;
import org.jdvm.scheduler.slurm.SlurmRecovery;
import org.jdvm.scheduler.slurm.SlurmSchedulerPort;
import org.jdvm.server.shell.NodeRegistry;
import org.jdvm.server.shell.Shell;

/**
 * What a DVM does when it starts on a journal its controller left behind (docs/journal.md
 * "Recovery"), before its controller takes commands: agents for the nodes the state holds, the
 * effects the journal had not seen executed, the Slurm port's jobs re-adopted or reclaimed, the
 * scheduler asked again for every waiting request, a timeout warning that went out but never
 * reached the core sent again, tools given a grace period to reconnect, and the reports that
 * reconcile the state with the processes that still exist.
 */
public final class Recovering {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.journal");

  /** How long a tool's namespace waits for its client to reconnect after a restart. */
  public static final long REATTACH_GRACE_MILLIS = 60_000;

  /**
   * What agents still run after a restart, and what ended while the controller was away. On the
   * embedded default the agents lived in the controller's process, so nothing does; remote agents
   * that rejoined the restarted controller say ({@code org.jdvm.server.Rejoining}).
   */
  public interface AgentInventory {
    AgentInventory EMBEDDED = Set::of;

    Set<Reconciliation.Running> stillRunning();

    /** Processes that ended meanwhile, with their exit status as a shell reports it. */
    default Map<Reconciliation.Running, org.jdvm.core.ProcEnd> ended() {
      return Map.of();
    }
  }

  private Recovering() {}

  /** The notes that journal one step of the Slurm port: its state and its answers. */
  public static List<Entry.Note> slurmNotes(
      SlurmRecovery.Saved saved, List<SchedulerEvent> answers) {
    return SlurmSchedulerPort.notes(saved, answers);
  }

  /** The notes that journal one step of the embedded scheduler: its state and its answers. */
  public static List<Entry.Note> notes(
      EmbeddedScheduler.Saved saved, List<SchedulerEvent> answers) {
    return EmbeddedSchedulerPort.notes(saved, answers);
  }

  /**
   * The nodes the recovered core holds of each of its scheduler's allocations, by the scheduler's
   * id; {@code activeOnly} leaves out the allocations that are terminating.
   */
  private static Map<String, List<String>> schedulerHolds(Core core, boolean activeOnly) {
    Map<String, List<String>> holds = new java.util.HashMap<>();
    for (org.jdvm.core.query.AllocationView a : core.view().allocations()) {
      if (a.schedulerAllocId() != null
          && !a.schedulerAllocId().isEmpty()
          && (!activeOnly || "ACTIVE".equals(a.state()))) {
        holds.put(a.schedulerAllocId(), a.nodes().stream().map(NodeView::name).toList());
      }
    }
    return holds;
  }

  /**
   * Runs before the controller starts, on the starting thread (nothing else touches the core yet).
   * Returns the reconciling reports to submit once it runs.
   */
  public static List<Command> resume(
      RecoveredJournal r,
      NodeRegistry nodes,
      Shell shell,
      SchedulerPort scheduler,
      Set<String> awaitingReattach) {
    return resume(r, nodes, shell, scheduler, awaitingReattach, AgentInventory.EMBEDDED);
  }

  /**
   * As {@link #resume(RecoveredJournal, NodeRegistry, Shell, SchedulerPort, Set)}, with what the
   * agents that rejoined still run: a job whose processes all still run stays running, one whose
   * processes ended meanwhile ends now with their statuses. The scheduler port recovers around the
   * effects executed again and the asks made again ({@link SchedulerPort#recover}).
   */
  public static List<Command> resume(
      RecoveredJournal r,
      NodeRegistry nodes,
      Shell shell,
      SchedulerPort scheduler,
      Set<String> awaitingReattach,
      AgentInventory inventory) {
    Core core = r.core();
    for (NodeView n : core.view().nodes()) {
      if (nodes.get(n.name()) == null) {
        nodes.add(n.name());
      }
    }
    Restart restart = new Restart(r, shell);
    SchedulerRestart.Summary recovered = scheduler.recover(restart);
    restart.finish();
    if (recovered.logLine() != null) {
      LOG.log(System.Logger.Level.WARNING, recovered.logLine());
    }
    for (JobView j : core.view().jobs()) {
      if (j.kind() != JobKind.APPLICATION && j.state() != JobView.State.TERMINATED) {
        awaitingReattach.add(j.namespace());
      }
    }
    Set<String> relaunching = Set.of(); // the embedded default launches nothing again
    List<Report> reports =
        Reconciliation.afterRestart(
            core.view(), inventory.stillRunning(), inventory.ended(), relaunching);
    LOG.log(
        System.Logger.Level.WARNING,
        "recovered=journal batches="
            + r.batches()
            + " snapshot="
            + r.snapshotSeq()
            + " ms="
            + r.recoveryMillis()
            + " allocations="
            + core.view().allocationIds().size()
            + " jobs="
            + core.view().jobs().size()
            + " redispatched="
            + restart.redispatched
            + " reasked="
            + restart.reasked
            + " warnings_resent="
            + recovered.warningsResent()
            + " tools_awaited="
            + awaitingReattach.size()
            + " procs_still_running="
            + inventory.stillRunning().size()
            + " procs_reconciled="
            + reports.size());
    return new ArrayList<>(reports);
  }

  /** A restart as the scheduler port sees it: the recovered core, and the shell to act through. */
  private static final class Restart implements SchedulerRestart {
    private final RecoveredJournal r;
    private final Shell shell;
    private int redispatched = -1;
    private int reasked = -1;

    Restart(RecoveredJournal r, Shell shell) {
      this.r = r;
      this.shell = shell;
    }

    @Override
    public Set<String> waitingAsks() {
      Set<String> waiting = new HashSet<>();
      r.core().pendingAsks().forEach(a -> waiting.add(Shell.askId(a.askId())));
      return waiting;
    }

    @Override
    public Map<String, List<String>> holds(boolean activeOnly) {
      return schedulerHolds(r.core(), activeOnly);
    }

    @Override
    public Set<String> relayedWarnings() {
      Set<String> relayed = new HashSet<>();
      for (String key : r.notes().keySet()) {
        if (key.startsWith(Notes.WARNED + "\u0000")) {
          relayed.add(key.substring(Notes.WARNED.length() + 1));
        }
      }
      return relayed;
    }

    @Override
    public void redispatch() {
      if (redispatched >= 0) {
        return;
      }
      List<Effect> again = new ArrayList<>();
      for (Effect e : r.undispatched()) {
        switch (e) {
          // Their clients' connections died with the controller: nobody to tell.
          case Effect.Reply x -> {}
          case Effect.NotifyProc x -> {}
          case Effect.AddNodes x -> {}
          // On the embedded default the agents died with the controller and cannot say whether
          // they started the processes; launching again could run a program twice, so the launch
          // failed (Reconciliation). An agent that outlives the controller knows, and takes it at
          // most once.
          case Effect.LaunchProcs l -> {}
          default -> again.add(e);
        }
      }
      redispatched = again.size();
      shell.execute(again);
    }

    @Override
    public void askAgain() {
      if (reasked >= 0) {
        return;
      }
      redispatch();
      List<Effect.AskScheduler> asks = r.core().pendingAsks();
      reasked = asks.size();
      shell.execute(new ArrayList<>(asks));
    }

    /** Whatever the port left undone of the restart is done now, in order. */
    void finish() {
      askAgain();
    }
  }

  /** After the grace period, a tool that did not reconnect departs (its dispositions apply). */
  public static void departUnlessReattached(Set<String> awaiting, Consumer<Command> submit) {
    Thread.ofVirtual()
        .name("jdvm-reattach-grace")
        .start(
            () -> {
              try {
                Thread.sleep(REATTACH_GRACE_MILLIS);
              } catch (InterruptedException e) {
                return;
              }
              for (String ns : List.copyOf(awaiting)) {
                if (awaiting.remove(ns)) {
                  LOG.log(System.Logger.Level.INFO, "tool=" + ns + " did not reconnect: departed");
                  submit.accept(new Report.ToolDeparted(ns, true));
                }
              }
            });
  }
}
