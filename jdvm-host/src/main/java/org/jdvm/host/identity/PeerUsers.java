package org.jdvm.host.identity;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import jdk.net.ExtendedSocketOptions;

/**
 * Whose connection an accepted socket is, as the kernel says, before a byte of it is read: the Unix
 * socket's peer credentials ({@code SO_PEERCRED}), or the owner of the peer's socket in this host's
 * TCP tables ({@link LoopbackPeers.Snapshot}). The key {@link ConnectionGate} counts connections
 * by; the controller's endpoint and a node agent's relay both name their peers by it.
 *
 * <p>Keys: {@code uid:<n>} (this process's own user is always {@link #own}), {@code user:<name>}
 * for another user on the Unix socket, {@link ConnectionGate#UNKNOWN_USER} when the kernel does not
 * say (a peer in another network namespace, say). Thread-safe.
 */
public final class PeerUsers {
  private final String ownUser = "uid:" + LoopbackPeers.ownUid();
  private final String ownUserName = ownUserName();
  private final LoopbackPeers.Snapshot tcpPeers = new LoopbackPeers.Snapshot();

  /** The key of this process's own user. */
  public String own() {
    return ownUser;
  }

  /** The key of the user holding the peer's end of {@code channel}. */
  public String userOf(SocketChannel channel, boolean unix) {
    try {
      if (unix) {
        String name = channel.getOption(ExtendedSocketOptions.SO_PEERCRED).user().getName();
        return name.equals(ownUserName) ? ownUser : "user:" + name;
      }
      InetSocketAddress peer = (InetSocketAddress) channel.getRemoteAddress();
      InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
      synchronized (tcpPeers) {
        return tcpPeers
            .uidOf(peer, local)
            .map(uid -> "uid:" + uid)
            .orElse(ConnectionGate.UNKNOWN_USER);
      }
    } catch (IOException | RuntimeException e) {
      return ConnectionGate.UNKNOWN_USER;
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
