package org.jdvm.agent.link;

/**
 * One side's {@link RelayChannel} for the life of a node, whichever agent link is current: an agent
 * joining again after a broken link gets a new {@link Link}, and the relay's listener moves to it.
 * Frames sent while no link is up are dropped; the relay's connections stay open on both sides
 * across the rejoin (docs/protocol.md "Node agents": a broken link).
 */
public final class RelayPort implements RelayChannel {
  private volatile Link link;
  private volatile RelayListener listener;

  /** The link is now {@code l}: arriving relay messages go to the listener, if one is set. */
  public void attach(Link l) {
    RelayListener r = listener;
    if (r != null) {
      l.onReceive(r);
    }
    link = l;
  }

  /** {@code l} is gone. */
  public void detach(Link l) {
    if (link == l) {
      link = null;
    }
  }

  /** Whether a link is up. */
  public boolean isUp() {
    Link l = link;
    return l != null && l.isOpen();
  }

  @Override
  public void send(long id, byte[] frame) {
    Link l = link;
    if (l != null) {
      l.send(id, frame);
    }
  }

  @Override
  public void closed(long id) {
    Link l = link;
    if (l != null) {
      l.closed(id);
    }
  }

  /** The agent's side: a local peer connected (see {@link RelayChannel}). */
  public void opened(long id, byte[] peerIdentity) {
    Link l = link;
    if (l != null) {
      l.opened(id, peerIdentity);
    }
  }

  @Override
  public void onReceive(RelayListener listener) {
    this.listener = listener;
    Link l = link;
    if (l != null) {
      l.onReceive(listener);
    }
  }
}
