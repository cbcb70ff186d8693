package org.jdvm.client;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.agent.link.RelayChannel;

/**
 * A node agent's link to the controller, in memory: the agent's end and the controller's end of a
 * {@link RelayChannel}, each delivering what the other sent to its listener in order, on a thread
 * of its own, as a socket's reader would. It counts what it carries.
 */
final class MemoryLink implements AutoCloseable {
  final End agent = new End("agent");
  final End controller = new End("controller");
  final AtomicLong opened = new AtomicLong();
  final AtomicLong framesUp = new AtomicLong();
  final AtomicLong framesDown = new AtomicLong();

  MemoryLink() {
    agent.other = controller;
    controller.other = agent;
  }

  /** One end of the link. */
  final class End implements RelayChannel {
    private final ExecutorService inbox;
    private volatile RelayListener listener;
    private End other;

    End(String name) {
      inbox =
          Executors.newSingleThreadExecutor(
              Thread.ofPlatform().daemon().name("memory-link-" + name).factory());
    }

    @Override
    public void send(long id, byte[] frame) {
      (this == agent ? framesUp : framesDown).incrementAndGet();
      other.inbox.execute(() -> other.listener.frame(id, frame));
    }

    @Override
    public void closed(long id) {
      other.inbox.execute(() -> other.listener.closed(id));
    }

    @Override
    public void onReceive(RelayListener l) {
      this.listener = l;
    }

    /** The agent's announcement of a new local peer (only the agent's end opens). */
    void opened(long id, byte[] peerIdentity) {
      opened.incrementAndGet();
      other.inbox.execute(() -> other.listener.opened(id, peerIdentity));
    }
  }

  @Override
  public void close() {
    agent.inbox.shutdownNow();
    controller.inbox.shutdownNow();
  }
}
