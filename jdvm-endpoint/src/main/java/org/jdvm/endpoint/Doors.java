package org.jdvm.endpoint;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import jdk.net.ExtendedSocketOptions;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.ConnectionGate;
import org.jdvm.host.identity.LoopbackPeers;

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

  private final String ownUser = "uid:" + LoopbackPeers.ownUid();
  private final String ownUserName = ownUserName();
  private final ConnectionGate gate = new ConnectionGate(ConnectionGate.Limits.DEFAULT, ownUser);
  private final AtomicLong turnedAway = new AtomicLong();
  private final LoopbackPeers.Snapshot tcpPeers = new LoopbackPeers.Snapshot(); // accept-tcp only
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
    String user = userOf(channel, unix);
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

  /**
   * Whose connection this is, as the kernel says: the Unix socket's peer credentials, or the owner
   * of the peer's loopback socket; {@link ConnectionGate#UNKNOWN_USER} when the kernel does not
   * say.
   */
  private String userOf(SocketChannel channel, boolean unix) {
    try {
      if (unix) {
        String name = channel.getOption(ExtendedSocketOptions.SO_PEERCRED).user().getName();
        return name.equals(ownUserName) ? ownUser : "user:" + name;
      }
      return tcpPeers
          .uidOf(
              (InetSocketAddress) channel.getRemoteAddress(),
              (InetSocketAddress) channel.getLocalAddress())
          .map(uid -> "uid:" + uid)
          .orElse(ConnectionGate.UNKNOWN_USER);
    } catch (IOException | RuntimeException e) {
      return ConnectionGate.UNKNOWN_USER;
    }
  }

  private static void closeQuietly(SocketChannel c) {
    try {
      c.close();
    } catch (IOException e) {
      // A refused connection: nothing to learn from its close.
    }
  }

  private static String ownUserName() {
    try {
      return Files.getOwner(Path.of("/proc/self")).getName();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read this process's owner from /proc", e);
    }
  }
}
