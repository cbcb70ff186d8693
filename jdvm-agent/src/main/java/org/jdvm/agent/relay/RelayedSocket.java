package org.jdvm.agent.relay;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * One local peer of a {@link PmixRelay}: its socket, read by a virtual thread that hands each frame
 * to the relay, and written by another from a bounded queue, so the link's reader only queues. The
 * first message from the controller is the handshake reply; the peer's frames are read only once it
 * was written (a refused peer's socket is closed without one, the only refusal libpmix 4.2.2
 * notices).
 */
final class RelayedSocket {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /** A peer that lets this much pile up unread is cut off. */
  static final long MAX_QUEUED_BYTES = 64L << 20;

  /** The most job-data requests of one peer that wait for the controller's reply. */
  static final int MAX_PENDING_REQS = 16;

  private static final byte[] END = new byte[0];

  private final long id;
  private final SocketChannel socket;
  private final PeerIdentity identity;
  private final PmixRelay relay;
  private final ConnectionGate.Ticket ticket;
  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final CountDownLatch answered = new CountDownLatch(1);
  private final Set<Integer> pendingReqs = ConcurrentHashMap.newKeySet();
  private volatile boolean replied;
  private volatile boolean closed;

  RelayedSocket(long id, SocketChannel socket, PeerIdentity identity, PmixRelay relay) {
    this(id, socket, identity, relay, null);
  }

  /**
   * @param ticket the peer's place in its user's count of connections, released when its socket
   *     closes; {@code null} for a peer counted nowhere (tests)
   */
  RelayedSocket(
      long id,
      SocketChannel socket,
      PeerIdentity identity,
      PmixRelay relay,
      ConnectionGate.Ticket ticket) {
    this.id = id;
    this.socket = socket;
    this.identity = identity;
    this.relay = relay;
    this.ticket = ticket;
  }

  long id() {
    return id;
  }

  PeerIdentity identity() {
    return identity;
  }

  boolean isClosed() {
    return closed;
  }

  /** Reads the peer until it ends; run on the peer's own thread after the controller was told. */
  void run() {
    Thread.ofVirtual().name("jdvm-relay-" + id + "-out").start(this::writeLoop);
    try {
      if (!answered.await(PmixRelay.HANDSHAKE_MS, TimeUnit.MILLISECONDS)) {
        close("the controller did not answer the handshake");
        return;
      }
      while (!closed) {
        byte[] header = readFully(socket, FrameHeader.BYTES);
        FrameHeader h = FrameHeader.decode(header, 0);
        byte[] frame = new byte[FrameHeader.BYTES + h.nbytes()];
        System.arraycopy(header, 0, frame, 0, FrameHeader.BYTES);
        readInto(socket, ByteBuffer.wrap(frame, FrameHeader.BYTES, h.nbytes()));
        relay.fromPeer(this, h.tag(), frame);
      }
    } catch (EOFException e) {
      close("end of stream");
    } catch (IOException e) {
      close("connection lost: " + e.getMessage());
    } catch (WireException e) {
      close("broken frame: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close("interrupted");
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "relayed peer " + id + " failed", e);
      close("internal error: " + e);
    }
  }

  /**
   * Whether this message from the controller is the handshake reply (the first one), which is
   * written as it is and lets the peer's frames through.
   */
  boolean handshakeReply() {
    if (replied) {
      return false;
    }
    replied = true;
    return true;
  }

  /** The peer asked for its job data on {@code tag}; false past {@link #MAX_PENDING_REQS}. */
  boolean awaitsJobData(int tag) {
    return pendingReqs.size() < MAX_PENDING_REQS && pendingReqs.add(tag);
  }

  /** Whether the reply on {@code tag} answers a job-data request (it no longer waits). */
  boolean jobDataAnswered(int tag) {
    return pendingReqs.remove(tag);
  }

  /** Queues a message (the handshake reply, or a whole frame) for the peer. */
  void write(byte[] message) {
    if (closed) {
      return;
    }
    if (queuedBytes.addAndGet(message.length) > MAX_QUEUED_BYTES) {
      close("more than " + MAX_QUEUED_BYTES + " bytes queued: the peer does not read");
      return;
    }
    queue.add(message);
    answered.countDown();
  }

  private void writeLoop() {
    List<byte[]> batch = new ArrayList<>();
    try {
      while (true) {
        batch.clear();
        batch.add(queue.take());
        queue.drainTo(batch, 63);
        int end = batch.indexOf(END);
        List<byte[]> messages = end < 0 ? batch : batch.subList(0, end);
        ByteBuffer[] buffers = new ByteBuffer[messages.size()];
        long total = 0;
        for (int i = 0; i < buffers.length; i++) {
          buffers[i] = ByteBuffer.wrap(messages.get(i));
          total += buffers[i].remaining();
        }
        long written = 0;
        while (written < total) {
          written += socket.write(buffers);
        }
        queuedBytes.addAndGet(-total);
        if (end >= 0) {
          close("closed by the controller");
          return;
        }
      }
    } catch (IOException e) {
      close("write failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The next message queued for the peer, taken off the queue; for tests of a peer not run. */
  byte[] pollQueued() {
    return queue.poll();
  }

  /** The controller closed the peer: what is queued is written first. */
  void closeAfterFlush() {
    queue.add(END);
  }

  /** Closes at once; the controller hears of it unless it closed the peer itself. Idempotent. */
  void close(String reason) {
    if (closed) {
      return;
    }
    closed = true;
    queue.add(END);
    answered.countDown();
    PmixRelay.closeQuietly(socket);
    if (ticket != null) {
      ticket.release();
    }
    LOG.log(
        System.Logger.Level.DEBUG,
        "relayed=" + id + " proc=" + identity.proc() + " closed=\"" + reason + "\"");
    relay.peerEnded(this);
  }

  static byte[] readFully(SocketChannel s, int n) throws IOException {
    byte[] bytes = new byte[n];
    readInto(s, ByteBuffer.wrap(bytes));
    return bytes;
  }

  private static void readInto(SocketChannel s, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      if (s.read(b) < 0) {
        throw new EOFException();
      }
    }
  }
}
