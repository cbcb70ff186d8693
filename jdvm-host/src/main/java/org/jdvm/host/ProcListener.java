package org.jdvm.host;

/**
 * What a launched process reports. Calls come from the process's own reader threads; for one
 * process, every {@link #output} call happens before its {@link #exited} call.
 */
public interface ProcListener {
  /** Standard output or standard error of the process. */
  enum Stream {
    STDOUT,
    STDERR
  }

  /** A chunk of output. The array is the listener's to keep. */
  void output(Stream stream, byte[] chunk);

  /**
   * Whether whoever receives the output is behind (docs/ARCHITECTURE.md "Output back-pressure"),
   * asked after each chunk: if so, the host reads none of the process's pipes — its writes block
   * once a pipe is full — until {@code resume} has run (once, on any thread). Its exit is still
   * reaped meanwhile; it is reported after its output, as always.
   */
  default boolean holdOutput(Runnable resume) {
    return false;
  }

  /**
   * The process has ended and its output is drained.
   *
   * @param exitCode the code it passed to {@code exit} (0 if a signal ended it)
   * @param signal the signal that ended it, or 0 if it exited
   */
  void exited(int exitCode, int signal);

  /**
   * As {@link #exited(int, int)}, with what the process used ({@code null}: not known).
   *
   * @param usage its CPU times, peak memory and wall time ({@link Rusage})
   */
  default void exited(int exitCode, int signal, Rusage usage) {
    exited(exitCode, signal);
  }
}
