package org.jdvm.agent.link;

/**
 * A channel between a node agent and the controller that carries PMIx frames of the agent's local
 * peers, tagged by a connection id the agent chose.
 */
public interface RelayChannel {
  /** Sends one frame (header and body as on the wire) for connection {@code id}. */
  void send(long id, byte[] frame);

  /** Tells the other side that connection {@code id} closed. */
  void closed(long id);

  /** Registers what to do with frames and closes arriving from the other side. */
  void onReceive(RelayListener listener);

  /** What arrives on a relay channel. */
  interface RelayListener {
    void opened(long id, byte[] peerIdentity);

    void frame(long id, byte[] frame);

    void closed(long id);
  }
}
