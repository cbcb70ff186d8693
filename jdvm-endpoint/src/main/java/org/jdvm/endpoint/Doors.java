package org.jdvm.endpoint;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.host.identity.PeerUsers;

/**
 * The endpoint's doors: one accept thread per listener, and before a byte is read, the count of
 * each user's connections ({@link ConnectionGate}: Unix peer credentials, or the owner of the
 * peer's loopback socket). A connection its user may hold goes to the {@link Entrant}; one its user
 * may not is closed at once, with one log line per episode of refusals.
 */
final class Doors {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** The longest pause between two failing accepts (out of file descriptors, say). */
  private static final long MAX_BACKOFF_MS = 1000;

  /** Where a connection goes once its user may hold it. */
  interface Entrant {
    void enter(SocketChannel channel, boolean unix, ConnectionGate.Ticket ticket);
  }

  private final PeerUsers users = new PeerUsers();
  private final ConnectionGate gate =
      new ConnectionGate(ConnectionGate.Limits.DEFAULT, users.own());
  private final AtomicLong turnedAway = new AtomicLong();
  private final BooleanSupplier closed;
  private final Connection.Fatal fatal;
  private final Entrant entrant;

  Doors(BooleanSupplier closed, Connection.Fatal fatal, Entrant entrant) {
    this.closed = closed;
    this.fatal = fatal;
    this.entrant = entrant;
  }

  ConnectionGate gate() {
    return gate;
  }

  /** Accepts on {@code server} from now on, on its own daemon thread, until the endpoint closes. */
  void open(ServerSocketChannel server, boolean unix) {
    Thread.ofPlatform()
        .daemon()
        .name(unix ? "jdvm-accept-unix" : "jdvm-accept-tcp")
        .start(
            () -> {
              try {
                acceptLoop(server, unix);
              } catch (Throwable t) {
                // The listener must never end silently: without it the DVM serves nobody.
                fatal.failed(t);
              }
            });
  }

  /**
   * Accepts until closed. A failing accept (above all {@code EMFILE}, out of file descriptors)
   * backs off, doubling up to {@link #MAX_BACKOFF_MS}, and is logged once per episode: when it
   * starts, and when accepting works again.
   */
  private void acceptLoop(ServerSocketChannel server, boolean unix) throws InterruptedException {
    long backoffMs = 0;
    long failures = 0;
    while (!closed.getAsBoolean()) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        if (closed.getAsBoolean()) {
          return;
        }
        if (failures++ == 0) {
          LOG.log(
              System.Logger.Level.WARNING,
              "accept="
                  + (unix ? "unix" : "tcp")
                  + " failed=\""
                  + e.getMessage()
                  + "\": backing off until it works again");
        }
        backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(1, backoffMs * 2));
        Thread.sleep(backoffMs);
        continue;
      }
      if (failures > 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "accept=" + (unix ? "unix" : "tcp") + " works again after " + failures + " failures");
        failures = 0;
        backoffMs = 0;
      }
      admit(channel, unix);
    }
  }

  /**
   * Counts the new connection for its user, or closes it at once when that user (another than the
   * DVM's owner) already holds as many as allowed ({@link ConnectionGate}); one log line per
   * episode of refusals.
   */
  private void admit(SocketChannel channel, boolean unix) {
    String user = users.userOf(channel, unix);
    ConnectionGate.Ticket ticket = gate.enter(user);
    if (ticket == null) {
      closeQuietly(channel);
      if (turnedAway.getAndIncrement() == 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "user="
                + user
                + " refused=\"too many connections not yet admitted\" (logged once until one is"
                + " admitted again)");
      }
      return;
    }
    long refusedBefore = turnedAway.getAndSet(0);
    if (refusedBefore > 0) {
      LOG.log(
          System.Logger.Level.WARNING,
          "connections turned away for holding too many: " + refusedBefore);
    }
    entrant.enter(channel, unix, ticket);
  }

  private static void closeQuietly(SocketChannel c) {
    try {
      c.close();
    } catch (IOException e) {
      // A refused connection: nothing to learn from its close.
    }
  }
}
