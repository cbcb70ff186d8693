package org.jdvm.server.node;

/**
 * What a node agent reports about the processes it runs. Calls arrive on the agent's reader
 * threads; for one process every output call precedes its exit call.
 */
public interface NodeEvents {
  /** Output of a process, to be forwarded to whoever follows its job. */
  void output(String node, String nspace, int rank, ProcListener.Stream stream, byte[] chunk);

  /** A process has ended; {@code exitStatus} is as a shell reports it (128 + signal if killed). */
  void exited(String node, String nspace, int rank, int exitStatus);
}
