package org.jdvm.core;

/**
 * The core failed on a command before changing anything: the state is exactly as it was. The shell
 * refuses this one command and goes on. The cause says what went wrong: an {@link
 * IllegalArgumentException} is input that breaks the contract (the controller's node reported lost,
 * say); anything else is a bug in deciding, worth a loud log line but no reason to stop a DVM whose
 * state is intact.
 *
 * <p>Whatever else {@link Core#handle} throws was thrown after changes were applied: the state can
 * no longer be trusted, and the DVM must stop.
 */
public final class CommandFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Command command;

  public CommandFailed(Command command, RuntimeException cause) {
    super(
        "the core failed on "
            + command.getClass().getSimpleName()
            + " before changing anything: "
            + cause,
        cause);
    this.command = command;
  }

  /** The command the core failed on. */
  public Command command() {
    return command;
  }
}
