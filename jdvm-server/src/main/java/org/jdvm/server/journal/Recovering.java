package org.jdvm.server.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jdvm.core.Command;
import org.jdvm.core.Effect;
import org.jdvm.core.JobKind;
import org.jdvm.core.Report;
import org.jdvm.core.engine.Core;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.Reconciliation;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;
import org.jdvm.scheduler.EmbeddedScheduler;
import org.jdvm.scheduler.EmbeddedSchedulerPort;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerPort;
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
   * that rejoined the restarted controller say (org.jdvm.server.remote.Rejoin).
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

  /** The embedded scheduler as the journal left it, or a fresh one. */
  public static EmbeddedSchedulerPort embeddedScheduler(
      RecoveredJournal r, List<NodeGrant> spare, LongSupplier clockNs) {
    Entry.Note n = r.notes().get(Notes.EMBEDDED_SCHEDULER + "\u0000");
    if (n == null) {
      return new EmbeddedSchedulerPort(spare, clockNs);
    }
    EmbeddedScheduler.Saved saved =
        (EmbeddedScheduler.Saved)
            RecordCodec.read(new Bytes.In(n.value()), EmbeddedScheduler.Saved.class);
    List<SchedulerEvent> answers = new ArrayList<>();
    for (Entry.Note a : r.notes().values()) {
      if (a.kind().equals(Notes.SCHEDULER_ANSWER)) {
        answers.add(
            (SchedulerEvent) RecordCodec.read(new Bytes.In(a.value()), SchedulerEvent.class));
      }
    }
    return new EmbeddedSchedulerPort(EmbeddedScheduler.restore(saved, answers), clockNs);
  }

  /**
   * Gives {@code port} the state the journal left (docs/journal.md "Slurm"), if any, and journals
   * its state and answers from now on when {@code journal} is not null. Before the port starts.
   */
  public static void slurmScheduler(RecoveredJournal r, SlurmSchedulerPort port, Journal journal) {
    Entry.Note n = r.notes().get(Notes.SLURM_SCHEDULER + "\u0000");
    if (n != null) {
      port.restore(
          (SlurmRecovery.Saved)
              RecordCodec.read(new Bytes.In(n.value()), SlurmRecovery.Saved.class),
          answers(r));
    }
    if (journal != null) {
      // The DVM's stop closes the journal before the port gives its jobs back: nothing to keep.
      port.persistWith(
          (saved, answers) -> {
            if (!journal.isClosed()) {
              journal.notes(slurmNotes(saved, answers));
            }
          });
    }
  }

  private static List<SchedulerEvent> answers(RecoveredJournal r) {
    List<SchedulerEvent> answers = new ArrayList<>();
    for (Entry.Note a : r.notes().values()) {
      if (a.kind().equals(Notes.SCHEDULER_ANSWER) && a.value().length > 0) {
        answers.add(
            (SchedulerEvent) RecordCodec.read(new Bytes.In(a.value()), SchedulerEvent.class));
      }
    }
    return answers;
  }

  /** The notes that journal one step of the Slurm port: its state and its answers. */
  public static List<Entry.Note> slurmNotes(
      SlurmRecovery.Saved saved, List<SchedulerEvent> answers) {
    return stepNotes(Notes.SLURM_SCHEDULER, SlurmRecovery.Saved.class, saved, answers);
  }

  /** The notes that journal one step of the embedded scheduler: its state and its answers. */
  public static List<Entry.Note> notes(
      EmbeddedScheduler.Saved saved, List<SchedulerEvent> answers) {
    return stepNotes(Notes.EMBEDDED_SCHEDULER, EmbeddedScheduler.Saved.class, saved, answers);
  }

  /** A scheduler's saved state as a note of {@code kind}, then one note per answer, by its ask. */
  private static List<Entry.Note> stepNotes(
      String kind, Class<?> type, Object saved, List<SchedulerEvent> answers) {
    List<Entry.Note> out = new ArrayList<>(1 + answers.size());
    Bytes.Out b = new Bytes.Out(1024);
    RecordCodec.write(b, type, saved);
    out.add(new Entry.Note(kind, "", b.toByteArray()));
    for (SchedulerEvent a : answers) {
      b.reset();
      RecordCodec.write(b, SchedulerEvent.class, a);
      out.add(new Entry.Note(Notes.SCHEDULER_ANSWER, SchedulerEvent.askIdOf(a), b.toByteArray()));
    }
    return out;
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
   * processes ended meanwhile ends now with their statuses.
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
    SlurmSchedulerPort.Recovered slurm = null;
    if (scheduler instanceof SlurmSchedulerPort port) {
      // Before anything is asked again: each journaled Slurm job re-adopted, reclaimed or
      // cancelled by what Slurm says of it now.
      Set<String> waiting = new java.util.HashSet<>();
      core.pendingAsks().forEach(a -> waiting.add(Long.toString(a.askId())));
      // A terminating allocation already gave its nodes back (the port's end or release).
      Map<String, List<String>> holds = schedulerHolds(core, true);
      Set<String> relayed = new java.util.HashSet<>();
      for (String key : r.notes().keySet()) {
        if (key.startsWith(Notes.WARNED + "\u0000")) {
          relayed.add(key.substring(Notes.WARNED.length() + 1));
        }
      }
      slurm = port.recover(waiting, holds, relayed);
    }
    List<Effect> again = new ArrayList<>();
    Set<String> relaunching = Set.of(); // the embedded default launches nothing again
    for (Effect e : r.undispatched()) {
      switch (e) {
        // Their clients' connections died with the controller: nobody to tell.
        case Effect.Reply x -> {}
        case Effect.NotifyProc x -> {}
        case Effect.AddNodes x -> {}
        // On the embedded default the agents died with the controller and cannot say whether they
        // started the processes; launching again could run a program twice, so the launch failed
        // (Reconciliation). An agent that outlives the controller knows, and takes it at most once.
        case Effect.LaunchProcs l -> {}
        default -> again.add(e);
      }
    }
    shell.execute(again);
    List<Effect.AskScheduler> asks = core.pendingAsks();
    if (scheduler instanceof EmbeddedSchedulerPort port) {
      // A release whose scheduler step the crash lost, though the journal had marked it done.
      Map<String, List<String>> held = schedulerHolds(core, false);
      Set<String> waiting = new java.util.HashSet<>();
      asks.forEach(a -> waiting.add(Shell.askId(a.askId())));
      port.reconcile(held, waiting);
    }
    shell.execute(new ArrayList<>(asks));
    int warnings = 0;
    if (scheduler instanceof EmbeddedSchedulerPort port) {
      for (String alloc : port.warned()) {
        if (!r.notes().containsKey(Notes.WARNED + "\u0000" + alloc)) {
          port.redeliverWarning(alloc);
          warnings++;
        }
      }
      port.resume();
    }
    if (slurm != null) {
      warnings = slurm.resent();
      LOG.log(
          System.Logger.Level.WARNING,
          "recovered=slurm jobs_readopted="
              + slurm.adopted()
              + " reclaimed="
              + slurm.reclaimed()
              + " asks_still_queued="
              + slurm.waiting()
              + " jobs_cancelled="
              + slurm.cancelled());
    }
    for (JobView j : core.view().jobs()) {
      if (j.kind() != JobKind.APPLICATION && j.state() != JobView.State.TERMINATED) {
        awaitingReattach.add(j.namespace());
      }
    }
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
            + again.size()
            + " reasked="
            + asks.size()
            + " warnings_resent="
            + warnings
            + " tools_awaited="
            + awaitingReattach.size()
            + " procs_still_running="
            + inventory.stillRunning().size()
            + " procs_reconciled="
            + reports.size());
    return new ArrayList<>(reports);
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
