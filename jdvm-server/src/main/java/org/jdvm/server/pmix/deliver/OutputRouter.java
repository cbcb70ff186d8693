package org.jdvm.server.pmix.deliver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.frame.Tags;
import org.jdvm.server.node.ProcListener;
import org.jdvm.server.pmix.transport.Connection;

/**
 * Where a process's output goes (pmix-interop-notes.md §3): to the connection that spawned its job,
 * with requester id 0, on the channels it asked for; and to every IOF_PULL registration that covers
 * it, with the id the puller chose. Each chunk reaches each (connection, id) once. Output is queued
 * on the same connection queue as the job's end, and the agent reports an exit only after the
 * process's output was handed over, so a peer sees a job's output before its end.
 *
 * <p>A job's forwarding is known once the core has accepted its spawn (the endpoint learns it from
 * the outcome); output that an agent reads before that is held, bounded, and released then.
 */
public final class OutputRouter {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** The IOF channel bits ({@code pmix_iof_channel_t}). */
  public static final int STDIN_CHANNEL = 0x01;

  public static final int STDOUT_CHANNEL = 0x02;
  public static final int STDERR_CHANNEL = 0x04;

  /** Output held for jobs whose forwarding is not known yet, across all of them. */
  public static final int MAX_EARLY_BYTES = 4 << 20;

  /** The spawner's forwarding of one job; {@code conn} is null when nobody forwards it. */
  public record Forward(Connection conn, int channels) {
    public static final Forward NONE = new Forward(null, 0);
  }

  private record Pull(
      Connection conn, long serverId, long localId, int channels, List<Proc> procs) {
    boolean covers(String nspace, int rank, int channel) {
      if ((channels & channel) == 0) {
        return false;
      }
      for (Proc p : procs) {
        if (p.nspace().equals(nspace) && (p.rank() == Proc.RANK_WILDCARD || p.rank() == rank)) {
          return true;
        }
      }
      return false;
    }
  }

  private record Chunk(int rank, int channel, byte[] bytes) {}

  private final Map<String, Forward> forwards = new HashMap<>();
  private final Map<String, List<Chunk>> early = new HashMap<>();
  private final List<Pull> pulls = new ArrayList<>();
  private long earlyBytes;
  private long nextServerId;
  private boolean warned;

  /** The core accepted the spawn of {@code nspace}: from now on its output goes here. */
  public synchronized void jobSpawned(String nspace, Forward forward) {
    forwards.put(nspace, forward);
    List<Chunk> held = early.remove(nspace);
    if (held != null) {
      for (Chunk c : held) {
        earlyBytes -= c.bytes.length;
        route(nspace, c.rank, c.channel, c.bytes);
      }
    }
  }

  /**
   * The core forgot the job (it retired). Until then late output, from descendants that kept the
   * job's pipes open after its end, still reaches its spawner.
   */
  public synchronized void jobRetired(String nspace) {
    forwards.remove(nspace);
    List<Chunk> held = early.remove(nspace);
    if (held != null) {
      for (Chunk c : held) {
        earlyBytes -= c.bytes.length;
      }
    }
  }

  public synchronized void output(
      String nspace, int rank, ProcListener.Stream stream, byte[] chunk) {
    int channel = stream == ProcListener.Stream.STDOUT ? STDOUT_CHANNEL : STDERR_CHANNEL;
    if (forwards.containsKey(nspace)) {
      route(nspace, rank, channel, chunk);
      return;
    }
    if (earlyBytes + chunk.length > MAX_EARLY_BYTES) {
      if (!warned) {
        warned = true;
        LOG.log(System.Logger.Level.WARNING, "output of jobs not yet known is being dropped");
      }
      return;
    }
    earlyBytes += chunk.length;
    early.computeIfAbsent(nspace, k -> new ArrayList<>()).add(new Chunk(rank, channel, chunk));
  }

  private void route(String nspace, int rank, int channel, byte[] bytes) {
    Proc source = new Proc(nspace, rank);
    List<Connection> sentTo = new ArrayList<>(2);
    List<Long> sentIds = new ArrayList<>(2);
    Forward f = forwards.get(nspace);
    if (f != null && f.conn != null && (f.channels & channel) != 0) {
      deliver(f.conn, source, channel, 0, bytes);
      sentTo.add(f.conn);
      sentIds.add(0L);
    }
    for (Pull p : pulls) {
      if (!p.covers(nspace, rank, channel) || delivered(sentTo, sentIds, p.conn, p.localId)) {
        continue;
      }
      deliver(p.conn, source, channel, p.localId, bytes);
      sentTo.add(p.conn);
      sentIds.add(p.localId);
    }
  }

  private static boolean delivered(List<Connection> to, List<Long> ids, Connection c, long id) {
    for (int k = 0; k < to.size(); k++) {
      if (to.get(k) == c && ids.get(k) == id) {
        return true;
      }
    }
    return false;
  }

  /** Tag 2: {@code PROC | IOF_CHANNEL | SIZE requester id | SIZE 0 | BYTE_OBJECT}. */
  private static void deliver(Connection c, Proc source, int channel, long id, byte[] bytes) {
    if (c.isClosed()) {
      return;
    }
    byte[] body =
        new Packer(c.peer().format(), bytes.length + 64)
            .packProc(source)
            .packInteger(DataType.IOF_CHANNEL, channel)
            .packSize(id)
            .packSize(0)
            .pack(DataType.BYTE_OBJECT, ByteObject.of(bytes))
            .toByteArray();
    c.send(Tags.IOF, body);
  }

  /** IOF_PULL: returns the server's id, which the peer sends back in IOF_DEREG. */
  public synchronized long pull(Connection c, List<Proc> procs, int channels, long localId) {
    long serverId = ++nextServerId;
    pulls.add(new Pull(c, serverId, localId, channels, List.copyOf(procs)));
    return serverId;
  }

  /** How many IOF_PULL registrations the connection holds. */
  public synchronized int pulls(Connection c) {
    int n = 0;
    for (Pull p : pulls) {
      n += p.conn == c ? 1 : 0;
    }
    return n;
  }

  /** IOF_DEREG of one of the connection's pulls. */
  public synchronized boolean deregister(Connection c, long serverId) {
    return pulls.removeIf(p -> p.conn == c && p.serverId == serverId);
  }

  public synchronized void connectionClosed(Connection c) {
    pulls.removeIf(p -> p.conn == c);
    forwards.replaceAll((ns, f) -> f.conn == c ? Forward.NONE : f);
  }

  /** Output held for jobs whose spawn the endpoint has not seen accepted yet. */
  public synchronized int heldBytes() {
    return (int) earlyBytes;
  }
}
