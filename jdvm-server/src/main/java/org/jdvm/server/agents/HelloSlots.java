package org.jdvm.server.agents;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.jdvm.host.identity.LoopbackPeers;

/**
 * How many connections to the agent link may wait for their hello, that is, hold a thread and a
 * socket without having proved the DVM's secret (docs/protocol.md "Agent link"): at most {@link
 * #PER_PEER} per peer and {@link #TOTAL} in all. A peer is a local user where the kernel names the
 * owner of the peer's socket ({@code uid:<n>}), else its source address (an IPv6 address by its
 * /64). The controller's own user is not counted: its agents on this host (and simulated ones) are
 * never turned away here.
 *
 * <p>A new connection always gets a slot: past a peer's bound its own oldest unproven connection is
 * closed, past the total the oldest of the peer holding the most; so a flood of silent connections
 * holds a bounded number of slots, delays nobody else's hello, and a legitimate agent that shares a
 * peer with the flood (its host's address) is closed only if {@link #PER_PEER} newer connections of
 * that peer arrive before its hello, not because older ones sit idle. A connection leaves its slot
 * once its hello proved the secret ({@link Slot#release}), or when it closes. Thread-safe.
 */
final class HelloSlots {
  /** Unproven connections of one peer. */
  static final int PER_PEER = 32;

  /** Unproven connections in all. */
  static final int TOTAL = 256;

  private final int perPeer;
  private final int total;
  private final String owner;
  private final Map<String, ArrayDeque<Slot>> byPeer = new HashMap<>();
  private final LoopbackPeers.Snapshot localPeers = new LoopbackPeers.Snapshot(); // accept only
  private final Set<InetAddress> localAddresses = localAddresses();
  private int held;
  private long closedEarly;

  HelloSlots(int perPeer, int total, String owner) {
    if (perPeer < 1 || total < perPeer) {
      throw new IllegalArgumentException("hello slots: " + perPeer + " per peer, " + total);
    }
    this.perPeer = perPeer;
    this.total = total;
    this.owner = owner;
  }

  /** One connection's slot. */
  final class Slot {
    private final String peer;
    private final Closeable connection;
    private boolean released;

    private Slot(String peer, Closeable connection) {
      this.peer = peer;
      this.connection = connection;
    }

    String peer() {
      return peer;
    }

    /** Its hello proved the secret, or it closed: the slot is free. Idempotent. */
    void release() {
      synchronized (HelloSlots.this) {
        if (released) {
          return;
        }
        released = true;
        if (peer.equals(owner)) {
          return;
        }
        ArrayDeque<Slot> q = byPeer.get(peer);
        if (q != null && q.remove(this)) {
          held--;
          if (q.isEmpty()) {
            byPeer.remove(peer);
          }
        }
      }
    }
  }

  /**
   * A slot for a new connection of {@code peer}, closing the oldest unproven connection that must
   * give way (see the class comment).
   *
   * @return the slot, and whether a connection was closed to make room (for the log)
   */
  synchronized Entered enter(String peer, Closeable connection) {
    Slot slot = new Slot(peer, connection);
    if (peer.equals(owner)) {
      return new Entered(slot, false);
    }
    ArrayDeque<Slot> mine = byPeer.computeIfAbsent(peer, k -> new ArrayDeque<>());
    boolean evicted = false;
    if (mine.size() >= perPeer) {
      evict(mine);
      evicted = true;
    } else if (held >= total) {
      evict(largest());
      evicted = true;
    }
    byPeer.computeIfAbsent(peer, k -> new ArrayDeque<>()).addLast(slot);
    held++;
    return new Entered(slot, evicted);
  }

  /** A slot given, and whether an older connection was closed for it. */
  record Entered(Slot slot, boolean evicted) {}

  private ArrayDeque<Slot> largest() {
    ArrayDeque<Slot> most = null;
    for (ArrayDeque<Slot> q : byPeer.values()) {
      if (most == null || q.size() > most.size()) {
        most = q;
      }
    }
    return most;
  }

  private void evict(ArrayDeque<Slot> q) {
    Slot oldest = q.pollFirst();
    held--;
    oldest.released = true;
    if (q.isEmpty()) {
      byPeer.remove(oldest.peer);
    }
    closedEarly++;
    try {
      oldest.connection.close();
    } catch (IOException e) {
      // It is dropped either way.
    }
  }

  /**
   * The peer a connection counts for (the class comment): the local user owning its socket where
   * the kernel's table shows it (a peer on this host), else its source address, an IPv6 one by its
   * /64.
   */
  String peerOf(Socket s) {
    InetAddress a = s.getInetAddress();
    if (a.isLoopbackAddress() || localAddresses.contains(a)) {
      return localPeers
          .uidOf(
              (InetSocketAddress) s.getRemoteSocketAddress(),
              (InetSocketAddress) s.getLocalSocketAddress())
          .map(uid -> "uid:" + uid)
          .orElse("local:unknown");
    }
    byte[] b = a.getAddress();
    if (b.length == 16) {
      return "net6:" + HexFormat.of().formatHex(b, 0, 8) + "::/64";
    }
    return "addr:" + a.getHostAddress();
  }

  /** This host's addresses, read once: a peer from one of them is on this host. */
  private static Set<InetAddress> localAddresses() {
    Set<InetAddress> out = new HashSet<>();
    try {
      NetworkInterface.networkInterfaces().forEach(i -> i.inetAddresses().forEach(out::add));
    } catch (IOException e) {
      // Then every peer is counted by its address.
    }
    return out;
  }

  /** Unproven connections holding a slot (tests, the log). */
  synchronized int held() {
    return held;
  }

  /** Those of one peer. */
  synchronized int held(String peer) {
    ArrayDeque<Slot> q = byPeer.get(peer);
    return q == null ? 0 : q.size();
  }

  /** Connections closed to make room, since the hub opened. */
  synchronized long closedEarly() {
    return closedEarly;
  }
}
