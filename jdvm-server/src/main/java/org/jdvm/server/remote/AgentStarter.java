package org.jdvm.server.remote;

import java.io.IOException;
import java.util.List;

/** Starts the node agent process ({@code jdvm agent ...}) on a host. */
public interface AgentStarter {
  /**
   * Starts {@code argv} on {@code host} without a shell on this side; {@code secret} is written to
   * the agent's stdin, never placed on a command line or in the environment.
   */
  StartedAgent start(String host, List<String> argv, byte[] secret) throws IOException;

  /** A started agent's local handle (the ssh or srun process). */
  interface StartedAgent {
    /** The local process carrying the agent (ssh or srun). */
    long pid();

    /** Ends the carrier process and with it the agent. */
    void stop();
  }
}
