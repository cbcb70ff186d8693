package org.jdvm.host;

import java.util.concurrent.CompletableFuture;

/**
 * Runs the processes of one node (architecture.md §5). The embedded default runs one agent per
 * virtual node inside the controller ({@link LocalNodeAgent}); each launches real processes on this
 * host.
 */
public interface NodeAgent extends AutoCloseable {
  /** The node's name, as jobs see it in {@code PMIX_HOSTNAME}. */
  String node();

  /**
   * Starts one process of a job on this node and returns its pid.
   *
   * @throws LaunchException if the process cannot start; nothing is left running
   */
  long launch(String nspace, int rank, LaunchRequest request) throws LaunchException;

  /** Sends a signal to every process of a job on this node (and to their descendants). */
  void signalJob(String nspace, int signal);

  /** Sends a signal to one process of a job (and its descendants). */
  void signalProc(String nspace, int rank, int signal);

  /**
   * Forwards a chunk of its spawner's stdin to a process (empty: end of file); completes when the
   * process's pipe took it, or fails with {@link StdinPipe.Closed} when the process is gone, closed
   * its stdin, reads {@code /dev/null}, or took nothing for {@code maxWaitMs} while {@link
   * StdinPipe#MAX_QUEUED_BYTES} waited. May block the caller up to {@code maxWaitMs} for room.
   */
  CompletableFuture<Void> writeStdin(String nspace, int rank, byte[] chunk, long maxWaitMs);

  /**
   * Registers a path for removal when the job's last process on this node has ended ({@link
   * Cleanup}); returns why it was refused (outside the allowed places, too many), or {@code null}.
   */
  String registerCleanup(String nspace, Cleanup.Registration registration);

  /** The number of processes still running on this node. */
  int runningProcs();

  /**
   * Whether {@link #close} would end nothing and wait for no one (a local node with no process):
   * the shell then ends the agent on the spot, so the node is back with its scheduler before the
   * release that let it go is answered. An agent that cannot tell without asking says {@code
   * false}.
   */
  /**
   * The processor topology this node's processes run on (a virtual node's share of its host, an
   * agent's host as it reported it), or {@code null} when unknown: its processes are then not
   * bound.
   */
  default org.jdvm.host.topology.Topology topology() {
    return null;
  }

  default boolean closesAtOnce() {
    return false;
  }

  /**
   * Ends every process on the node — TERM, then KILL after {@code graceMillis} — and waits for
   * them; used when the node leaves the DVM and when the DVM stops.
   */
  void terminateAll(long graceMillis);

  /** Ends every process and releases the agent's resources. */
  @Override
  void close();
}
