package org.jdvm.agent.relay;

import org.jdvm.agent.link.RelayChannel;
import org.jdvm.pmix.Proc;

/** What a node agent's relays ({@link PmixRelay}, {@link PmiRelay}) need of their agent. */
public final class RelayHooks {
  private RelayHooks() {}

  /**
   * How the agent's link announces a new local peer to the controller: the side of the link that
   * {@link RelayChannel} leaves to the agent (the controller's end hears it as {@link
   * RelayChannel.RelayListener#opened}).
   */
  public interface Opener {
    void opened(long id, byte[] peerIdentity);
  }

  /** The pids of the processes the agent launched. */
  public interface Pids {
    /**
     * The pid of {@code proc}, waiting at most {@code timeoutMs} for its launch; 0 when not known
     * in time, -1 when the agent runs no such process. Blocks.
     */
    long awaitPid(Proc proc, long timeoutMs);
  }
}
