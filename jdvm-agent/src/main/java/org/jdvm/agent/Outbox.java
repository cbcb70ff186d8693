package org.jdvm.agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;

/**
 * Reports go out on the current link, or wait for the next one: exits up to {@link
 * AgentDaemon#MAX_HELD_EXITS}, output up to {@link #MAX_HELD_OUTPUT_BYTES} (the rest is dropped and
 * counted).
 */
final class Outbox {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  private final ArrayDeque<LinkMessage> held = new ArrayDeque<>();
  private Link current;
  private long heldOutputBytes;
  private long droppedOutputBytes;

  synchronized void send(LinkMessage m) {
    if (current != null && held.isEmpty() && current.send(m)) {
      return;
    }
    if (m instanceof LinkMessage.Output o) {
      if (heldOutputBytes + o.chunk().length > AgentDaemon.MAX_HELD_OUTPUT_BYTES) {
        droppedOutputBytes += o.chunk().length;
        return;
      }
      heldOutputBytes += o.chunk().length;
    } else if (held.size() >= AgentDaemon.MAX_HELD_EXITS) {
      return;
    }
    held.add(m);
  }

  /** The exit reports held for the next link, in order. */
  public synchronized List<LinkMessage.Exited> heldExits() {
    List<LinkMessage.Exited> out = new ArrayList<>();
    for (LinkMessage m : held) {
      if (m instanceof LinkMessage.Exited x) {
        out.add(x);
      }
    }
    return out;
  }

  /** Drops held exit reports the controller received another way (a hello). */
  synchronized void forget(List<LinkMessage.Exited> sent) {
    Set<LinkMessage> gone = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    gone.addAll(sent);
    held.removeIf(gone::contains);
  }

  synchronized void attach(Link l) {
    if (droppedOutputBytes > 0) {
      LOG.log(
          System.Logger.Level.WARNING,
          droppedOutputBytes + " bytes of output dropped while the controller was unreachable");
      droppedOutputBytes = 0;
    }
    while (!held.isEmpty()) {
      if (!l.send(held.peek())) {
        return;
      }
      if (held.poll() instanceof LinkMessage.Output o) {
        heldOutputBytes -= o.chunk().length;
      }
    }
    current = l;
  }

  synchronized void detach(Link l) {
    if (current == l) {
      current = null;
    }
  }
}
