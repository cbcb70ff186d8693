package org.jdvm.host;

/**
 * What a node agent reports about the processes it runs. Calls arrive on the agent's reader
 * threads; for one process every output call precedes its exit call.
 */
public interface NodeEvents {
  /** Output of a process, to be forwarded to whoever follows its job. */
  void output(String node, String nspace, int rank, ProcListener.Stream stream, byte[] chunk);

  /**
   * Whether the output of {@code nspace}'s processes should stop being read until {@code resume}
   * runs ({@link ProcListener#holdOutput}).
   */
  default boolean holdOutput(String node, String nspace, Runnable resume) {
    return false;
  }

  /**
   * A process has ended: it exited with {@code exitCode}, or {@code signal} (non-zero) killed it,
   * whoever sent that signal.
   */
  void exited(String node, String nspace, int rank, int exitCode, int signal);

  /** As the exit above, with what the process used ({@code null}: not known). */
  default void exited(
      String node, String nspace, int rank, int exitCode, int signal, Rusage usage) {
    exited(node, nspace, rank, exitCode, signal);
  }

  /**
   * A process has ended; {@code exitStatus} is as a shell reports it (128 + signal if killed), for
   * an agent that cannot tell the two apart: a status of 128 + n is taken for a kill by n only if
   * jdvm sent n to the process.
   */
  void exited(String node, String nspace, int rank, int exitStatus);
}
