package org.jdvm.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A virtual node of the embedded default: its processes are real processes of this host, started
 * through the shared {@link ProcessHost}, each job's in one containment group ({@code
 * node/nspace}), so that what they leave behind ends with the job's last process here. The node is
 * a name and a set of processes; slots are the core's business.
 */
public final class LocalNodeAgent implements NodeAgent {
  /** Cleanup registrations one node keeps at once, across its jobs. */
  public static final int MAX_CLEANUPS = 65_536;

  private final String node;
  private final ProcessHost host;
  private final NodeEvents events;
  private final Cleanup cleanup;
  private final Map<String, Map<Integer, ProcessHost.RunningProc>> procsByJob =
      new ConcurrentHashMap<>();
  private final Map<String, List<Cleanup.Registration>> cleanups = new HashMap<>();
  private int cleanupCount;
  private volatile boolean closed;

  public LocalNodeAgent(String node, ProcessHost host, NodeEvents events) {
    this(node, host, events, null);
  }

  /**
   * @param cleanup where this node removes what jobs register ({@code null}: it refuses them)
   */
  public LocalNodeAgent(String node, ProcessHost host, NodeEvents events, Cleanup cleanup) {
    this.node = node;
    this.host = host;
    this.events = events;
    this.cleanup = cleanup;
  }

  private volatile org.jdvm.host.topology.Topology topology;

  /** This node runs its processes on these cpus ({@code null}: unknown, they are not bound). */
  public LocalNodeAgent withTopology(org.jdvm.host.topology.Topology t) {
    this.topology = t;
    return this;
  }

  @Override
  public org.jdvm.host.topology.Topology topology() {
    return topology;
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public long launch(String nspace, int rank, LaunchRequest request) throws LaunchException {
    if (closed) {
      throw new LaunchException(
          LaunchException.Kind.NODE_GONE, "node " + node + " has left the DVM", null);
    }
    // The exit report must not overtake the registration below, or a fast process would be
    // forgotten before it is recorded and then linger in the table as a ghost.
    CountDownLatch registered = new CountDownLatch(1);
    ProcessHost.RunningProc proc;
    try {
      proc =
          host.start(
              node + "/" + nspace,
              request,
              new ProcListener() {
                @Override
                public void output(Stream stream, byte[] chunk) {
                  events.output(node, nspace, rank, stream, chunk);
                }

                @Override
                public boolean holdOutput(Runnable resume) {
                  return events.holdOutput(node, nspace, resume);
                }

                @Override
                public void exited(int exitCode, int signal) {
                  exited(exitCode, signal, null);
                }

                @Override
                public void exited(int exitCode, int signal, Rusage usage) {
                  awaitUninterruptibly(registered);
                  forget(nspace, rank);
                  events.exited(node, nspace, rank, exitCode, signal, usage);
                }
              });
      procsByJob.computeIfAbsent(nspace, k -> new ConcurrentHashMap<>()).put(rank, proc);
    } finally {
      registered.countDown();
    }
    return proc.pid();
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void forget(String nspace, int rank) {
    procsByJob.computeIfPresent(
        nspace,
        (k, job) -> {
          job.remove(rank);
          return job.isEmpty() ? null : job;
        });
    if (!procsByJob.containsKey(nspace)) {
      runCleanups(nspace);
    }
  }

  @Override
  public String registerCleanup(String nspace, Cleanup.Registration r) {
    if (cleanup == null) {
      return "this node removes no files";
    }
    String why = r.keep() ? null : cleanup.refusal(r.path().toString());
    if (why != null) {
      return why;
    }
    synchronized (cleanups) {
      if (cleanupCount >= MAX_CLEANUPS) {
        return "more than " + MAX_CLEANUPS + " cleanup registrations on node " + node;
      }
      cleanups.computeIfAbsent(nspace, k -> new ArrayList<>()).add(r);
      cleanupCount++;
    }
    if (!procsByJob.containsKey(nspace)) {
      runCleanups(nspace); // the job's processes here are gone already
    }
    return null;
  }

  /** Removes what the job registered, off the caller's thread: its processes here are gone. */
  private void runCleanups(String nspace) {
    List<Cleanup.Registration> due;
    synchronized (cleanups) {
      due = cleanups.remove(nspace);
      if (due == null) {
        return;
      }
      cleanupCount -= due.size();
    }
    List<String> keep = new ArrayList<>();
    for (Cleanup.Registration r : due) {
      if (r.keep()) {
        keep.add(r.path().toString());
      }
    }
    Thread.ofVirtual()
        .name("jdvm-cleanup-" + nspace)
        .start(() -> due.forEach(r -> cleanup.remove(r.ignoring(keep))));
  }

  @Override
  public void signalJob(String nspace, int signal) {
    Map<Integer, ProcessHost.RunningProc> job = procsByJob.get(nspace);
    if (job != null) {
      host.signal(List.copyOf(job.values()), signal);
    }
  }

  @Override
  public void signalProc(String nspace, int rank, int signal) {
    Map<Integer, ProcessHost.RunningProc> job = procsByJob.get(nspace);
    ProcessHost.RunningProc p = job == null ? null : job.get(rank);
    if (p != null) {
      host.signal(List.of(p), signal);
    }
  }

  @Override
  public CompletableFuture<Void> writeStdin(String nspace, int rank, byte[] chunk, long maxWaitMs) {
    Map<Integer, ProcessHost.RunningProc> job = procsByJob.get(nspace);
    ProcessHost.RunningProc p = job == null ? null : job.get(rank);
    if (p == null || p.stdin() == null) {
      return CompletableFuture.failedFuture(
          new StdinPipe.Closed(
              nspace
                  + "."
                  + rank
                  + (p == null ? " is not running on " + node : " reads /dev/null")));
    }
    return p.stdin().write(chunk, maxWaitMs);
  }

  @Override
  public int runningProcs() {
    int n = 0;
    for (Map<Integer, ProcessHost.RunningProc> job : procsByJob.values()) {
      n += job.size();
    }
    return n;
  }

  @Override
  public boolean closesAtOnce() {
    return runningProcs() == 0;
  }

  @Override
  public void terminateAll(long graceMillis) {
    List<ProcessHost.RunningProc> all = new ArrayList<>();
    for (Map<Integer, ProcessHost.RunningProc> job : procsByJob.values()) {
      all.addAll(job.values());
    }
    host.terminate(all, graceMillis);
  }

  @Override
  public void close() {
    closed = true;
    terminateAll(1000);
  }
}
