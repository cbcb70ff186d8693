package org.jdvm.endpoint.deliver;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.core.Change;
import org.jdvm.core.Outcome;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.pmix.Proc;

/**
 * What the endpoint learns from the DVM's outcomes, on the controller thread, right after each
 * outcome's effects were dispatched: which connection spawned a job (so its output and its end find
 * that connection, even output read before the spawn is answered), when a job's processes have pids
 * (for the kernel's word on who a connecting client is), which jobs the core forgot, every change
 * for the operator feed, and, for the wire-up ({@link JobLife}), who spawned a job, which processes
 * ended and which jobs ended.
 *
 * <p>A job an application process spawned without asking for its output ({@code MPI_Comm_spawn})
 * inherits its parent job's forwarding: its output reaches the tool that ran the parent, as mpirun
 * prints every job's output. While such a job lives, the end of the job whose tool it reports to is
 * held back from that tool ({@link EventRouter#inheritorStarted}), so that {@code jdvm run} waits
 * for the children and shows all of their output, as mpirun does.
 */
public final class OutcomeWatcher {
  /**
   * Who else follows jobs' lives: the wire-up state (fences stop waiting for ended processes; a
   * job's committed data and directories go when it ends; a spawned job's job data names its
   * spawner). Called on the controller thread; it must not block.
   */
  public interface JobLife {
    /** A job was spawned by {@code spawner} ({@code null} when no process asked). */
    void spawned(String nspace, Proc spawner);

    /** Processes of a job ended. */
    void procsEnded(String nspace, List<Integer> ranks);

    /** A job ended: its last process ended, or it was told to terminate and did. */
    void ended(String nspace);
  }

  /**
   * What a spawn's requester asked to hear of the job, until the core has accepted it.
   *
   * @param conn the requester's connection; {@code null} for a process's spawn that came by no PMIx
   *     connection (simple PMI's {@code mcmd=spawn}), which inherits its parent's forwarding
   */
  public record SpawnIntent(
      Connection conn, int channels, boolean notifyCompletion, JobOutput output) {
    /** An application's spawn over simple PMI: the parent job's forwarding goes on. */
    public static final SpawnIntent INHERIT = new SpawnIntent(null, 0, false);

    public SpawnIntent(Connection conn, int channels, boolean notifyCompletion) {
      this(conn, channels, notifyCompletion, JobOutput.PLAIN);
    }
  }

  private final EventRouter events;
  private final OutputRouter output;
  private final JobLife life;
  private final Map<Long, SpawnIntent> spawns = new ConcurrentHashMap<>();

  /** Formatted spawns' forwarding waiting for their answer, by request id (lock: itself). */
  private final Map<Long, Runnable> deferred = new java.util.HashMap<>();

  /** A job's forwarding waiting for its spawn's answer; its end waits with it. */
  private record Deferred(String nspace, Runnable start, EventRouter events) implements Runnable {
    @Override
    public void run() {
      start.run();
      events.inheritorEnded(nspace);
    }
  }

  /** The request id of each job in {@link #deferred} (lock: {@link #deferred}). */
  private final Map<String, Long> deferredJobs = new java.util.HashMap<>();

  /** Formatted spawns answered before their job was seen spawned (lock: {@link #deferred}). */
  private final java.util.Set<Long> replied = new java.util.HashSet<>();

  private final Map<String, CompletableFuture<Void>> started = new ConcurrentHashMap<>();

  /** Live jobs that inherited their forwarding, and the job whose tool they report to. */
  private final Map<String, String> inheritedFrom = new ConcurrentHashMap<>();

  public OutcomeWatcher(EventRouter events, OutputRouter output, JobLife life) {
    this.events = events;
    this.output = output;
    this.life = life;
  }

  /** A spawn is about to be submitted under {@code id}. */
  public void expectSpawn(RequestId id, SpawnIntent intent) {
    spawns.put(id.value(), intent);
  }

  /** The spawn was answered (a refused one never produced a job). */
  public void spawnAnswered(RequestId id) {
    spawns.remove(id.value());
  }

  /** Called with every outcome that changed the state. */
  public void observed(Outcome outcome) {
    for (Change change : outcome.changes()) {
      switch (change) {
        case Change.JobSpawned js -> {
          life.spawned(js.namespace(), js.spawner());
          jobSpawned(js);
        }
        case Change.ProcsEnded pe -> {
          output.procsEnded(pe.namespace(), pe.ranks());
          life.procsEnded(pe.namespace(), pe.ranks());
        }
        case Change.JobRetired jr -> {
          releaseDeferred(jr.namespace());
          output.jobRetired(jr.namespace());
        }
        case Change.JobTerminated jt -> {
          life.ended(jt.namespace());
          for (Connection c : output.jobEnded(jt.namespace(), jt.status(), jt.exitCode())) {
            events.followEnded(c, jt.namespace(), jt.status(), jt.exitCode());
          }
          String root = inheritedFrom.remove(jt.namespace());
          if (root != null) {
            events.inheritorEnded(root);
          }
        }
        case Change.ProcsStarted ps -> {
          CompletableFuture<Void> f = started.remove(ps.namespace());
          if (f != null) {
            f.complete(null);
          }
        }
        default -> {}
      }
    }
    events.feed(outcome.changes());
  }

  private void jobSpawned(Change.JobSpawned js) {
    SpawnIntent intent = js.replyTo() == null ? null : spawns.remove(js.replyTo().value());
    if (intent == null) {
      output.jobSpawned(js.namespace(), OutputRouter.Forward.NONE);
      return;
    }
    if (intent.channels() == 0
        && intent.output().files() == null
        && (intent.conn() == null
            || (intent.conn().peer() != null && !intent.conn().peer().role().isToolClass()))) {
      inherit(js, intent);
      return;
    }
    if (intent.notifyCompletion()) {
      events.wantCompletion(intent.conn(), js.namespace());
    }
    OutputRouter.Forward forward =
        intent.channels() == 0
            ? OutputRouter.Forward.NONE
            : new OutputRouter.Forward(intent.conn(), intent.channels());
    Runnable start = () -> output.jobSpawned(js.namespace(), forward, intent.output());
    if (!intent.output().formatted()) {
      start.run();
      return;
    }
    long id = js.replyTo().value();
    synchronized (deferred) {
      if (!replied.remove(id)) {
        // Held (bounded, OutputRouter.EARLY_HOLD_BYTES) until the answer; the job's end waits
        // too, so that a job that ends before its answer still has its output reach the tool
        // before its end (JobEndAfterOutputTest).
        events.inheritorStarted(js.namespace());
        deferred.put(id, new Deferred(js.namespace(), start, events));
        deferredJobs.put(js.namespace(), id);
        return;
      }
    }
    start.run();
  }

  /**
   * The answer to a spawn whose requester formats its output ({@link JobOutput#formatted}) is
   * queued on its connection ({@code ok}: a success): the job's output may follow it now. libpmix
   * 4.2.2 learns what to format by only from that answer; the core answers a spawn once its
   * processes are launched, after they may have written.
   */
  public void spawnReplied(RequestId id, boolean ok) {
    Runnable start;
    synchronized (deferred) {
      start = deferred.remove(id.value());
      if (start instanceof Deferred d) {
        deferredJobs.remove(d.nspace());
      }
      if (start == null) {
        if (ok) {
          replied.add(id.value()); // its JobSpawned is still to be observed
        }
        return;
      }
    }
    start.run();
  }

  /**
   * A job retired whose spawn was never answered (its requester went first): what was held for it
   * goes out (to nobody, or its files) and its end is no longer held.
   */
  private void releaseDeferred(String nspace) {
    Runnable start;
    synchronized (deferred) {
      Long id = deferredJobs.remove(nspace);
      start = id == null ? null : deferred.remove(id);
    }
    if (start != null) {
      start.run();
    }
  }

  /** An application's spawn without forwarding: the parent job's forwarding goes on. */
  private void inherit(Change.JobSpawned js, SpawnIntent intent) {
    if (intent.notifyCompletion()) {
      events.wantCompletion(intent.conn(), js.namespace());
    }
    OutputRouter.Forward parent = output.forwardOf(js.parent());
    output.jobSpawned(js.namespace(), parent);
    if (parent.conn() != null) {
      String root = inheritedFrom.getOrDefault(js.parent(), js.parent());
      inheritedFrom.put(js.namespace(), root);
      events.inheritorStarted(root);
    }
  }

  /** Completes when the core next records launched processes of this job. */
  public CompletableFuture<Void> procsStarted(String nspace) {
    return started.computeIfAbsent(nspace, k -> new CompletableFuture<>());
  }
}
