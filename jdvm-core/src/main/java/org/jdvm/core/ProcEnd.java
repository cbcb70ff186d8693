package org.jdvm.core;

import org.jdvm.pmix.Signal;

/** How a process ended. */
public record ProcEnd(int exitCode, int signal, Cause cause) {
  /** What ended it. */
  public enum Cause {
    /** It exited, or a signal killed it, as its agent reported. */
    EXITED,
    /** Its agent could not start it. */
    FAILED_TO_START,
    /** Its node left the DVM (shrunk out, lost, or torn down). */
    NODE_DEPARTED
  }

  public static ProcEnd exited(int exitCode, int signal) {
    return new ProcEnd(exitCode, signal, Cause.EXITED);
  }

  /**
   * A process its agent could not start: exit code 127, as a shell reports a command it cannot run.
   */
  public static final ProcEnd FAILED = new ProcEnd(127, 0, Cause.FAILED_TO_START);

  public static final ProcEnd DEPARTED = new ProcEnd(0, Signal.KILL.number(), Cause.NODE_DEPARTED);

  /** Whether this end makes the job's status an error. */
  public boolean abnormal() {
    return cause != Cause.EXITED || exitCode != 0 || signal != 0;
  }

  /** The exit code as a shell reports it: the code, or 128 + the signal. */
  public int shellExitCode() {
    return signal > 0 ? Signal.shellExitStatus(signal) : exitCode;
  }
}
