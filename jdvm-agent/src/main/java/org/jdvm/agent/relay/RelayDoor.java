package org.jdvm.agent.relay;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.host.identity.PeerUsers;

/**
 * The relay's front door (docs/protocol.md "Node agents"): before a byte of a new connection is
 * read, the kernel names its user ({@link PeerUsers}: {@code SO_PEERCRED}, or the owner of the
 * peer's socket in this host's TCP table) and jdvm-host's {@link ConnectionGate} counts it, with
 * the bounds the controller's endpoint keeps ({@link ConnectionGate.Limits#DEFAULT}: 64 connections
 * of one other user not yet admitted, 512 of all other users together, 1,024 admitted per other
 * user); a connection past them is closed at once. The agent's own user, whose processes the relay
 * serves, is bounded only by {@link PmixRelay#MAX_PEERS}. Refusals are logged once per episode: the
 * first, then their count once a peer is admitted again.
 */
final class RelayDoor {
  private static final System.Logger LOG = System.getLogger("org.jdvm.agent.relay");

  private final PeerUsers users = new PeerUsers();
  private final ConnectionGate gate =
      new ConnectionGate(ConnectionGate.Limits.DEFAULT, users.own());

  /** Connections refused since a peer was last admitted: one log line per episode. */
  private final AtomicLong refusedInEpisode = new AtomicLong();

  /** The new connection's place in its user's counts, or {@code null} (it was refused). */
  ConnectionGate.Ticket enter(SocketChannel s, boolean overUnix) {
    String user = users.userOf(s, overUnix);
    ConnectionGate.Ticket ticket = gate.enter(user);
    if (ticket == null) {
      refuse(s, "user=" + user + " holds too many connections not yet admitted");
    }
    return ticket;
  }

  /** A peer was admitted: the episode of refusals, if any, ends with its count. */
  void admitted() {
    long refusedBefore = refusedInEpisode.getAndSet(0);
    if (refusedBefore > 1) {
      LOG.log(System.Logger.Level.WARNING, "relay refused connections: " + refusedBefore);
    }
  }

  /** Connections of other users not yet admitted. */
  int pendingOthers() {
    return gate.pendingOthers();
  }

  /** Closes a refused connection; logs the first refusal of an episode, counts the rest. */
  void refuse(SocketChannel s, String why) {
    closeQuietly(s);
    if (refusedInEpisode.getAndIncrement() == 0) {
      LOG.log(
          System.Logger.Level.WARNING,
          "relay refused=\""
              + why.replace('"', '\'')
              + "\" (logged once until a peer is admitted again)");
    }
  }

  /** What to do with a connection the door let in, with its place in its user's counts. */
  interface Entered {
    void serve(SocketChannel s, ConnectionGate.Ticket ticket);
  }

  /**
   * Accepts on {@code server} on a platform thread named {@code name} until {@code closed} says so
   * (or the listener closes), passing each connection through this door and serving each one it
   * lets in on a virtual thread.
   */
  void acceptLoop(
      ServerSocketChannel server,
      boolean overUnix,
      String name,
      java.util.function.BooleanSupplier closed,
      Entered entered) {
    Thread.ofPlatform()
        .daemon()
        .name(name)
        .start(
            () -> {
              while (!closed.getAsBoolean()) {
                SocketChannel s;
                try {
                  s = server.accept();
                } catch (java.nio.channels.ClosedChannelException e) {
                  return;
                } catch (IOException e) {
                  if (!closed.getAsBoolean()) {
                    LOG.log(System.Logger.Level.WARNING, name + " failed: " + e);
                  }
                  continue;
                }
                ConnectionGate.Ticket ticket = enter(s, overUnix);
                if (ticket != null) {
                  Thread.ofVirtual().name(name + "-peer").start(() -> entered.serve(s, ticket));
                }
              }
            });
  }

  static void closeQuietly(SocketChannel s) {
    try {
      s.close();
    } catch (IOException e) {
      // Nothing to learn from a failing close.
    }
  }
}
