package org.jdvm.server.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A virtual node of the embedded default: its processes are real processes of this host, started
 * through the shared {@link ProcessHost}. The node is a name and a set of processes; slots are the
 * core's business.
 */
public final class LocalNodeAgent implements NodeAgent {
  private final String node;
  private final ProcessHost host;
  private final NodeEvents events;
  private final Map<String, Map<Integer, ProcessHost.RunningProc>> procsByJob =
      new ConcurrentHashMap<>();
  private volatile boolean closed;

  public LocalNodeAgent(String node, ProcessHost host, NodeEvents events) {
    this.node = node;
    this.host = host;
    this.events = events;
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
              request,
              new ProcListener() {
                @Override
                public void output(Stream stream, byte[] chunk) {
                  events.output(node, nspace, rank, stream, chunk);
                }

                @Override
                public void exited(int exitStatus) {
                  awaitUninterruptibly(registered);
                  forget(nspace, rank);
                  events.exited(node, nspace, rank, exitStatus);
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
  public int runningProcs() {
    int n = 0;
    for (Map<Integer, ProcessHost.RunningProc> job : procsByJob.values()) {
      n += job.size();
    }
    return n;
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
