package org.jdvm.host.identity;

import java.util.HashMap;
import java.util.Map;

/**
 * How many connections each local user may hold open (architecture.md §4): the bound that keeps
 * another user from exhausting the DVM's file descriptors, memory or threads before, or after, it
 * is admitted. The DVM's owner is not bounded here (a job of a thousand ranks connects at once, and
 * the owner can end the DVM anyway); every other user, and peers whose user the kernel does not
 * name, is.
 *
 * <p>A connection {@link #enter enters} when it is accepted, before a byte is read, and is then
 * <em>pending</em>: at most {@link Limits#pendingPerUser} per user and {@link Limits#pendingOthers}
 * for all other users together. It is counted as <em>admitted</em> from the moment its handshake
 * was read and admission begins ({@link Ticket#admit}), at most {@link Limits#admittedPerUser} per
 * user. A connection over a bound is closed at once, before anything of it is read or allocated.
 *
 * <p>Thread-safe; every count is released exactly once, when the connection closes.
 */
public final class ConnectionGate {
  /**
   * The bounds.
   *
   * @param pendingPerUser connections of one other user that may be accepted but not yet admitted
   * @param pendingOthers such connections of all other users together
   * @param admittedPerUser admitted connections of one other user (only a peer with the DVM secret
   *     is ever admitted from another user)
   */
  public record Limits(int pendingPerUser, int pendingOthers, int admittedPerUser) {
    /** Far above what a peer of another user has reason to hold, far below the fd limit. */
    public static final Limits DEFAULT = new Limits(64, 512, 1024);

    public Limits {
      if (pendingPerUser < 1 || pendingOthers < pendingPerUser || admittedPerUser < 1) {
        throw new IllegalArgumentException("connection limits must be at least 1: " + this);
      }
    }
  }

  /** The user of a peer the kernel does not name (another network namespace, say). */
  public static final String UNKNOWN_USER = "unknown";

  private final Limits limits;
  private final String owner;
  private final Map<String, int[]> pending = new HashMap<>();
  private final Map<String, int[]> admitted = new HashMap<>();
  private int pendingOthers;

  /**
   * @param owner the key of the DVM's own user, never bounded
   */
  public ConnectionGate(Limits limits, String owner) {
    this.limits = limits;
    this.owner = owner;
  }

  /**
   * Counts a new connection of {@code user} as pending.
   *
   * @return its ticket, or {@code null} when the user, or all other users, already hold as many
   *     pending connections as allowed (the caller closes it)
   */
  public synchronized Ticket enter(String user) {
    if (!user.equals(owner)) {
      int[] n = pending.computeIfAbsent(user, k -> new int[1]);
      if (n[0] >= limits.pendingPerUser() || pendingOthers >= limits.pendingOthers()) {
        if (n[0] == 0) {
          pending.remove(user);
        }
        return null;
      }
      n[0]++;
      pendingOthers++;
    }
    return new Ticket(user);
  }

  /** Pending connections of users other than the owner, for tests and the log. */
  public synchronized int pendingOthers() {
    return pendingOthers;
  }

  /** One accepted connection's place in the counts. */
  public final class Ticket {
    private final String user;
    private boolean admitted;
    private boolean released;

    private Ticket(String user) {
      this.user = user;
    }

    /** The user the connection was counted for. */
    public String user() {
      return user;
    }

    /**
     * The handshake was read: from pending to admitted.
     *
     * @return false when the user already holds as many admitted connections as allowed (the
     *     connection stays pending until it is closed)
     */
    public boolean admit() {
      synchronized (ConnectionGate.this) {
        if (released || admitted) {
          return !released;
        }
        if (user.equals(owner)) {
          admitted = true;
          return true;
        }
        int[] a = ConnectionGate.this.admitted.computeIfAbsent(user, k -> new int[1]);
        if (a[0] >= limits.admittedPerUser()) {
          return false;
        }
        a[0]++;
        decrement(pending, user);
        pendingOthers--;
        admitted = true;
        return true;
      }
    }

    /** The connection closed; idempotent. */
    public void release() {
      synchronized (ConnectionGate.this) {
        if (released) {
          return;
        }
        released = true;
        if (user.equals(owner)) {
          return;
        }
        if (admitted) {
          decrement(ConnectionGate.this.admitted, user);
        } else {
          decrement(pending, user);
          pendingOthers--;
        }
      }
    }
  }

  private static void decrement(Map<String, int[]> counts, String user) {
    int[] n = counts.get(user);
    if (n != null && --n[0] <= 0) {
      counts.remove(user);
    }
  }
}
