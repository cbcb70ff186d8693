package org.jdvm.endpoint;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.jdvm.endpoint.serve.Admission;
import org.jdvm.endpoint.serve.MessageServer;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * The peers one node agent admitted on its host and carries to this endpoint over its link
 * (architecture.md §5, docs/protocol.md "Node agents"): each becomes a {@linkplain
 * Connection#carried carried} connection that the serving half cannot tell from a socket whose
 * handshake is done, acting for the identity the agent vouches for. The agent may vouch only for
 * processes placed on its own node ({@link Admission#admitVouched}).
 *
 * <p>Threads: the link's reader calls {@link #opened}, {@link #frame} and {@link #closed} and never
 * blocks here; each peer has a virtual thread that admits it and then serves its messages in order,
 * as a socket's reader would. An id the agent opens again while it is open closes both (the agent
 * lost count; neither side may keep it). Bounds: {@link #MAX_PEERS} peers per agent, {@link
 * #MAX_QUEUED_BYTES} of frames waiting per peer (past it the peer is cut off, as a socket's peer
 * that does not read), frames as {@link FrameHeader#MAX_MESSAGE_BYTES} allows.
 */
public final class RelayedPeers implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** The most peers one agent may have open here at once. */
  public static final int MAX_PEERS = 65_536;

  /** The most bytes of a peer's frames that may wait for its serving thread. */
  public static final long MAX_QUEUED_BYTES = Connection.MAX_QUEUED_BYTES;

  private static final byte[] END = new byte[0];

  /** Where what the endpoint sends a carried peer goes: the agent's link. */
  public interface Carrier {
    /** One message for peer {@code id}: its handshake reply first, then whole frames. */
    void send(long id, byte[] message);

    /** Peer {@code id} was closed here. */
    void closed(long id);
  }

  /** What the endpoint lends to its relayed peers. */
  record Parts(
      MessageServer server,
      IntSupplier nextIndex,
      Consumer<Connection> register,
      BooleanSupplier endpointClosed,
      int maxPeers) {}

  private final String node;
  private final Carrier carrier;
  private final Parts parts;
  private final Map<Long, Relayed> peers = new ConcurrentHashMap<>();

  RelayedPeers(String node, Carrier carrier, Parts parts) {
    this.node = Objects.requireNonNull(node, "node");
    this.carrier = Objects.requireNonNull(carrier, "carrier");
    this.parts = parts;
  }

  /** The node whose agent carries these peers. */
  public String node() {
    return node;
  }

  /** How many peers are open. */
  public int size() {
    return peers.size();
  }

  /**
   * The agent admitted a peer as {@code id}: admit it here for who the agent says it is. Refused
   * (an id in use, too many peers, a process not on the agent's node, ...): {@link Carrier#closed}.
   *
   * @param tool whether the peer is a tool (else a launched process or a helper acting for one)
   * @param proc the process it acts for; for a tool the name it chose, {@code null} for a new one
   * @param uid the uid owning the peer's socket on the agent's host
   * @param pid the process holding the peer's socket there, 0 when unknown
   */
  public void opened(long id, boolean tool, Proc proc, WireFormat format, long uid, long pid) {
    Admission.Vouched vouched;
    try {
      vouched = new Admission.Vouched(node, tool, proc, format, uid, pid);
    } catch (RuntimeException e) {
      refuse(id, "not an identity: " + e.getMessage());
      return;
    }
    if (parts.endpointClosed().getAsBoolean()) {
      refuse(id, "the endpoint is closed");
      return;
    }
    if (peers.size() >= parts.maxPeers()) {
      refuse(id, "more than " + parts.maxPeers() + " peers of one agent");
      return;
    }
    Relayed old = peers.remove(id); // only the link's reader adds: no race with this check
    if (old != null) {
      // The agent lost count of its ids: neither side may keep the id, so both ends close.
      old.end("the agent opened its id " + id + " again");
      refuse(id, "id " + id + " was in use: both closed");
      return;
    }
    Relayed r = new Relayed(id);
    r.connection =
        Connection.carried(parts.server(), parts.nextIndex().getAsInt(), new Outlet(id, r));
    peers.put(id, r);
    parts.register().accept(r.connection);
    Thread.ofVirtual().name("jdvm-relayed-" + r.connection.index()).start(() -> r.serve(vouched));
  }

  private void refuse(long id, String why) {
    LOG.log(
        System.Logger.Level.WARNING,
        "node=" + node + " relayed=" + id + " refused=\"" + why.replace('"', '\'') + "\"");
    carrier.closed(id);
  }

  /** One frame (header and body) from peer {@code id}; ignored when the peer is not open. */
  public void frame(long id, byte[] frame) {
    Relayed r = peers.get(id);
    if (r != null) {
      r.offer(frame);
    }
  }

  /** Peer {@code id} closed on the agent's side. */
  public void closed(long id) {
    Relayed r = peers.remove(id);
    if (r != null) {
      r.end("the peer closed on its node");
    }
  }

  /** The agent's link is gone: every peer it carried is closed. */
  @Override
  public void close() {
    for (Long id : List.copyOf(peers.keySet())) {
      Relayed r = peers.remove(id);
      if (r != null) {
        r.end("the link to the agent of " + node + " is gone");
      }
    }
  }

  /** One carried peer: its connection, and the frames waiting for its serving thread. */
  private final class Relayed {
    private final long id;
    private final LinkedBlockingQueue<byte[]> inbound = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private volatile Connection connection;

    Relayed(long id) {
      this.id = id;
    }

    void offer(byte[] frame) {
      if (queuedBytes.addAndGet(frame.length) > MAX_QUEUED_BYTES) {
        connection.close("more than " + MAX_QUEUED_BYTES + " bytes of frames waiting");
        return;
      }
      inbound.add(frame);
    }

    void end(String why) {
      inbound.add(END);
      connection.close(why);
    }

    void serve(Admission.Vouched vouched) {
      Connection c = connection;
      if (parts.server().admitVouched(c, vouched) == null) {
        c.close("refused");
        return;
      }
      try {
        while (!c.isClosed()) {
          byte[] frame = inbound.take();
          if (frame == END) {
            return;
          }
          queuedBytes.addAndGet(-frame.length);
          FrameHeader h = FrameHeader.decode(frame, 0);
          if (h.nbytes() != frame.length - FrameHeader.BYTES) {
            c.close("a frame of " + frame.length + " bytes announcing " + h.nbytes());
            return;
          }
          byte[] body = new byte[h.nbytes()];
          System.arraycopy(frame, FrameHeader.BYTES, body, 0, body.length);
          c.received(h.tag(), body);
        }
      } catch (WireException | IndexOutOfBoundsException e) {
        c.close("broken frame: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        c.close("interrupted");
      }
    }
  }

  /** Sends what the endpoint queued for a peer over the agent's link. */
  private final class Outlet implements Connection.Outlet {
    private final long id;
    private final Relayed relayed;

    Outlet(long id, Relayed relayed) {
      this.id = id;
      this.relayed = relayed;
    }

    @Override
    public void write(List<byte[]> messages) throws IOException {
      if (peers.get(id) != relayed) {
        throw new IOException("the peer closed on its node");
      }
      for (byte[] m : messages) {
        carrier.send(id, m);
      }
    }

    @Override
    public void close() {
      relayed.inbound.add(END);
      if (peers.remove(id, relayed)) {
        carrier.closed(id);
      }
    }
  }
}
