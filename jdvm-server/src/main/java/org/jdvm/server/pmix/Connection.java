package org.jdvm.server.pmix;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.core.Report;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * One peer's connection: a virtual thread reads it (the handshake, then one message at a time, each
 * handed to the {@link Dispatcher}), and a virtual thread writes it from a queue, so whoever
 * produces a message (the controller thread above all) only queues it.
 *
 * <p>Faults: a malformed body poisons only its message (the dispatcher answers it with the
 * decoder's status); a bad header, an oversized frame, a bad handshake or end of stream poisons the
 * connection, which is closed. A closed tool or scheduler connection that did not finalize is that
 * namespace's departure (decisions.md 11).
 */
final class Connection {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** A peer that lets this much pile up unread is cut off rather than allowed to exhaust memory. */
  static final long MAX_QUEUED_BYTES = 64L << 20;

  /** How long a peer has to complete its handshake. */
  static final long HANDSHAKE_SECONDS = 30;

  private static final byte[] END = new byte[0];
  private static final int GATHER = 64;

  private final PmixEndpoint endpoint;
  private final SocketChannel channel;
  private final boolean unix;
  private final int index;
  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final CountDownLatch writerDone = new CountDownLatch(1);
  private final Set<String> completionWanted = ConcurrentHashMap.newKeySet();
  private final Set<Integer> codes = new HashSet<>();
  private boolean defaultHandler;
  private volatile boolean feed;
  private volatile Peer peer;
  private volatile boolean closed;
  private final java.util.concurrent.atomic.AtomicBoolean departed =
      new java.util.concurrent.atomic.AtomicBoolean();

  Connection(PmixEndpoint endpoint, SocketChannel channel, boolean unix, int index) {
    this.endpoint = endpoint;
    this.channel = channel;
    this.unix = unix;
    this.index = index;
  }

  int index() {
    return index;
  }

  boolean unix() {
    return unix;
  }

  SocketChannel channel() {
    return channel;
  }

  /** Who the connection acts for; {@code null} until admitted. */
  Peer peer() {
    return peer;
  }

  boolean isClosed() {
    return closed;
  }

  InetSocketAddress remoteTcp() throws IOException {
    return (InetSocketAddress) channel.getRemoteAddress();
  }

  InetSocketAddress localTcp() throws IOException {
    return (InetSocketAddress) channel.getLocalAddress();
  }

  // ---- reading -------------------------------------------------------------------------------

  void run() {
    Thread.ofVirtual().name("jdvm-peer-" + index + "-out").start(this::writeLoop);
    ScheduledFuture<?> deadline = armHandshakeDeadline();
    try {
      ConnectRequest request = readConnect();
      Peer admitted = endpoint.admission().admit(this, request);
      if (deadline != null) {
        deadline.cancel(false);
      }
      if (admitted == null) {
        close("refused at the handshake");
        return;
      }
      while (!closed) {
        FrameHeader header = FrameHeader.decode(readFully(FrameHeader.BYTES), 0);
        byte[] body = readFully(header.nbytes());
        endpoint.dispatcher().handle(this, header.tag(), body);
      }
    } catch (EOFException e) {
      close("end of stream");
    } catch (IOException e) {
      close("connection lost: " + e.getMessage());
    } catch (WireException e) {
      close("broken frame: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "peer " + index + " failed", e);
      close("internal error: " + e);
    }
  }

  private ScheduledFuture<?> armHandshakeDeadline() {
    try {
      return endpoint.timer.schedule(
          () -> {
            if (peer == null) {
              close("no handshake within " + HANDSHAKE_SECONDS + " s");
            }
          },
          HANDSHAKE_SECONDS,
          TimeUnit.SECONDS);
    } catch (RejectedExecutionException e) {
      close("the endpoint is closing");
      return null;
    }
  }

  private ConnectRequest readConnect() throws IOException {
    FrameHeader header = FrameHeader.decodeConnect(readFully(FrameHeader.BYTES), 0);
    byte[] payload = readFully(header.nbytes());
    try {
      return ConnectRequest.decodePayload(payload, 0, payload.length);
    } catch (WireException e) {
      throw e.poisonsConnection() ? e : e.inConnection(0);
    }
  }

  private byte[] readFully(int n) throws IOException {
    byte[] bytes = new byte[n];
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      if (channel.read(b) < 0) {
        throw new EOFException();
      }
    }
    return bytes;
  }

  /** Admission is done: events and output may now be addressed to this peer. */
  void admitted(Peer p) {
    this.peer = p;
  }

  // ---- writing -------------------------------------------------------------------------------

  /** Queues one framed message (pindex 0, as a 4.2.2 server sends every header). */
  void send(int tag, byte[] body) {
    byte[] message = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(message, 0);
    System.arraycopy(body, 0, message, FrameHeader.BYTES, body.length);
    enqueue(message);
  }

  /** Queues raw bytes: the handshake reply, which has no frame. */
  void sendRaw(byte[] bytes) {
    enqueue(bytes);
  }

  private void enqueue(byte[] message) {
    if (closed) {
      return;
    }
    if (queuedBytes.addAndGet(message.length) > MAX_QUEUED_BYTES) {
      close("more than " + MAX_QUEUED_BYTES + " bytes queued: the peer does not read");
      return;
    }
    queue.add(message);
  }

  private void writeLoop() {
    List<byte[]> batch = new ArrayList<>(GATHER);
    try {
      while (true) {
        batch.clear();
        batch.add(queue.take());
        queue.drainTo(batch, GATHER - 1);
        int end = batch.indexOf(END);
        List<byte[]> messages = end < 0 ? batch : batch.subList(0, end);
        write(messages);
        if (end >= 0) {
          return;
        }
      }
    } catch (IOException e) {
      close("write failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      writerDone.countDown();
    }
  }

  private void write(List<byte[]> messages) throws IOException {
    if (messages.isEmpty()) {
      return;
    }
    ByteBuffer[] buffers = new ByteBuffer[messages.size()];
    long total = 0;
    for (int i = 0; i < buffers.length; i++) {
      buffers[i] = ByteBuffer.wrap(messages.get(i));
      total += buffers[i].remaining();
    }
    long written = 0;
    while (written < total) {
      written += channel.write(buffers);
    }
    queuedBytes.addAndGet(-total);
  }

  // ---- events a peer registered for ----------------------------------------------------------

  /** REGEVENTS: these codes, or (none) a default handler; optionally the operator feed. */
  synchronized void register(List<Integer> eventCodes, boolean operatorFeed) {
    if (eventCodes.isEmpty() && !operatorFeed) {
      defaultHandler = true;
    }
    codes.addAll(eventCodes);
    if (operatorFeed) {
      feed = true;
    }
  }

  /** DEREGEVENTS of one code; {@code Integer.MIN_VALUE} is the last default handler. */
  synchronized void deregister(int code) {
    if (code == Integer.MIN_VALUE) {
      defaultHandler = false;
    } else {
      codes.remove(code);
    }
    if (code == JdvmProtocol.EVENT_CHANGE) {
      feed = false;
    }
  }

  /** Whether the peer has a handler for an event with this status. */
  synchronized boolean wants(int status) {
    return defaultHandler || codes.contains(status);
  }

  boolean followsFeed() {
    return feed;
  }

  /** The peer spawned this job with PMIX_NOTIFY_COMPLETION: it hears of the job's end. */
  void wantCompletion(String nspace) {
    completionWanted.add(nspace);
  }

  boolean takeCompletion(String nspace) {
    return completionWanted.remove(nspace);
  }

  // ---- ending --------------------------------------------------------------------------------

  /** FINALIZE of a tool or the scheduler: its namespace terminates now, cleanly. */
  void depart(boolean connectionLost) {
    Peer p = peer;
    if (p == null || !p.role().isToolClass() || !departed.compareAndSet(false, true)) {
      return;
    }
    var dvm = endpoint.dvm();
    if (dvm != null) {
      dvm.submit(new Report.ToolDeparted(p.proc().nspace(), connectionLost));
    }
  }

  /** Closes at once: what is still queued is dropped. Idempotent. */
  void close(String reason) {
    if (closed) {
      return;
    }
    closed = true;
    queue.add(END);
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing more to learn from a failing close.
    }
    Peer p = peer;
    LOG.log(
        System.Logger.Level.DEBUG,
        "peer=" + index + " proc=" + (p == null ? "-" : p.proc()) + " closed=" + quote(reason));
    endpoint.forget(this);
    depart(true);
  }

  /** Lets the writer send what is queued (at most {@code nanos}), then closes. */
  void closeAfterFlush(long nanos) {
    if (!closed) {
      queue.add(END);
      try {
        writerDone.await(nanos, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    close("the endpoint closed");
  }

  private static String quote(String s) {
    return '"' + s.replace("\"", "'") + '"';
  }

  @Override
  public String toString() {
    Peer p = peer;
    return "peer " + index + (p == null ? "" : " (" + p.proc() + ", " + p.role() + ")");
  }
}
