package org.jdvm.host;

import java.util.Objects;

/**
 * A process could not be started; nothing is left running. What went wrong is a {@link Kind},
 * carried from where it is found to where the shell chooses the PMIx status; the message is for
 * people only and nothing parses it.
 */
public final class LaunchException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a launch failed. */
  public enum Kind {
    /** The command does not exist, or is not an executable file. */
    EXE_NOT_FOUND,
    /** The command exists, but the operating system refused to start it. */
    START_REFUSED,
    /** The launching thread was interrupted (the DVM is stopping). */
    INTERRUPTED,
    /** The node has left the DVM. */
    NODE_GONE,
    /** The host is at its limit (open files, processes, memory). */
    OUT_OF_RESOURCE
  }

  private final Kind kind;

  public LaunchException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public Kind kind() {
    return kind;
  }
}
