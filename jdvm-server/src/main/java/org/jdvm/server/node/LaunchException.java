package org.jdvm.server.node;

/** A process could not be started: the command is missing or not executable, or the OS refused. */
public final class LaunchException extends Exception {
  private static final long serialVersionUID = 1L;

  public LaunchException(String message, Throwable cause) {
    super(message, cause);
  }
}
