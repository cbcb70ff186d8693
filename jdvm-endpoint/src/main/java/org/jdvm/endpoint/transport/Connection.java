package org.jdvm.endpoint.transport;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.host.identity.ConnectionGate;
import org.jdvm.host.os.Posix;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * One peer's connection, and nothing but the bytes (pmix-wire.md §2): a virtual thread reads it
 * (the handshake, then one framed message at a time, each handed to the {@link Handler}), and
 * whoever produces a message (the controller thread above all) never waits for the peer. When
 * nothing is waiting to be written and the socket's descriptor is known ({@link SocketFd}), the
 * producer sends the message itself with a {@code send(2)} that cannot block, which saves waking a
 * writer for each reply and event; whatever the socket does not take at once is queued, and a
 * virtual thread writes the queue, in order, before anything is sent directly again. Who the peer
 * is, which events it wants and what its messages mean are decided by the handler, not here.
 *
 * <p>Faults: a bad header, an oversized frame, a bad handshake or end of stream poisons the
 * connection, which is closed; a malformed body is the handler's to answer. A peer that lets more
 * than {@link #MAX_QUEUED_BYTES} of replies and events pile up unread is cut off rather than
 * allowed to exhaust memory. Output ({@link #sendOutput}) is counted apart and never counts toward
 * that cut: past {@link #OUTPUT_HIGH_WATER} unwritten output bytes, {@link #holdOutput} tells the
 * producer to stop (the host stops reading the job's pipes, docs/ARCHITECTURE.md "Output
 * back-pressure") until the writer has brought them under {@link #OUTPUT_LOW_WATER}; only output
 * nobody paces (past {@link #MAX_QUEUED_OUTPUT_BYTES}) still cuts a peer off. A body, the
 * handshake's included, is read in chunks from {@link #READ_CHUNK} up, doubling as its bytes
 * arrive, so announcing a large body and stalling costs the DVM nothing. A user over its {@link
 * ConnectionGate} bound is closed once its handshake is read. An {@link Error} on the reader closes
 * the connection and goes to the {@link Fatal} hook: the DVM cannot go on after one.
 */
public final class Connection {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** A peer that lets this much pile up unread is cut off rather than allowed to exhaust memory. */
  public static final long MAX_QUEUED_BYTES = 64L << 20;

  /** Unwritten output past which {@link #holdOutput} asks its producers to pause. */
  public static final long OUTPUT_HIGH_WATER = 4L << 20;

  /** Output bytes under which a paused producer is resumed. */
  public static final long OUTPUT_LOW_WATER = 1L << 20;

  /** Unwritten output that cuts the peer off all the same: only output nobody paces gets here. */
  public static final long MAX_QUEUED_OUTPUT_BYTES = 64L << 20;

  /** How long a peer has to complete its handshake. */
  public static final long HANDSHAKE_SECONDS = 30;

  /**
   * How much of an announced body is allocated before its bytes arrive: a body grows by doubling as
   * it is read, so a peer that announces a large body and stalls makes the DVM hold no more than
   * this, and memory follows the bytes actually sent.
   */
  public static final int READ_CHUNK = 16 << 10;

  /** A message waiting for the writer; {@code output}: counted in the output, not the replies. */
  private record Queued(byte[] bytes, boolean output) {}

  private static final Queued END = new Queued(new byte[0], false);
  private static final int GATHER = 64;

  /** Larger messages go through the writer: a partial send would copy the rest. */
  static final int DIRECT_MAX = 64 << 10;

  /** Who hears of an {@link Error} on a connection's thread: the DVM cannot go on after one. */
  public interface Fatal {
    void failed(Throwable t);
  }

  /** What a connection's reader hands on: the handshake, each message, the end. */
  public interface Handler {
    /**
     * The peer's connect request: decide who it is, reply with {@link #sendRaw} after {@link
     * #admitted}, or refuse.
     *
     * @return the peer, or {@code null} to refuse it (the connection is then closed)
     */
    Peer admit(Connection c, ConnectRequest request) throws IOException;

    /** One framed message of an admitted peer; called on the reader, one at a time. */
    void message(Connection c, int tag, byte[] body);

    /** The connection closed (once), for whatever reason; {@code c.peer()} may be null. */
    void closed(Connection c);
  }

  /**
   * The socket a connection reads and writes.
   *
   * @param unix whether the peer came over the Unix socket (else loopback TCP)
   * @param index the connection's number, for logs and as the client's server-side index
   */
  public record Link(SocketChannel channel, boolean unix, int index) {}

  /**
   * Where a carried connection's messages go: the node agent that admitted the peer and holds its
   * socket. Each message is the handshake reply or one frame (header and body), whole.
   */
  public interface Outlet {
    void write(List<byte[]> messages) throws IOException;

    /** The connection closed here. */
    void close();
  }

  private final Handler handler;
  private final ScheduledExecutorService timer;
  private final Link link;
  private final SocketChannel channel;
  private final Outlet outlet;
  private final LinkedBlockingQueue<Queued> queue = new LinkedBlockingQueue<>();

  /** Unwritten replies and events: past {@link #MAX_QUEUED_BYTES} the peer is cut off. */
  private final AtomicLong queuedBytes = new AtomicLong();

  /** Unwritten output ({@link #sendOutput}): paced at {@link #OUTPUT_HIGH_WATER}. */
  private final OutputPace output = new OutputPace();

  private final CountDownLatch writerDone = new CountDownLatch(1);
  private final ConnectionGate.Ticket ticket;
  private final Fatal fatal;

  /** The socket's descriptor for sends that skip the writer, or -1 (carried, or not known). */
  private final int fd;

  /** Guards {@link #pending} and the direct sends, and orders them with {@link #close}. */
  private final Object sendLock = new Object();

  /** Messages queued or being written by the writer: while any are, nothing is sent directly. */
  private int pending;

  private java.lang.foreign.MemorySegment callState;
  private volatile Peer peer;
  private volatile boolean closed;

  /**
   * A connection counted by no {@link ConnectionGate}, whose {@link Error}s end only itself.
   *
   * @param timer arms the handshake deadline
   */
  public Connection(Handler handler, ScheduledExecutorService timer, Link link) {
    this(handler, timer, link, null, null, t -> {});
  }

  /**
   * @param ticket the connection's place in its user's counts, released when it closes; {@code
   *     null} for none
   * @param fatal told of an {@link Error} on the reader (after the connection was closed)
   */
  public Connection(
      Handler handler,
      ScheduledExecutorService timer,
      Link link,
      ConnectionGate.Ticket ticket,
      Fatal fatal) {
    this(handler, timer, link, null, ticket, fatal);
  }

  private Connection(
      Handler handler,
      ScheduledExecutorService timer,
      Link link,
      Outlet outlet,
      ConnectionGate.Ticket ticket,
      Fatal fatal) {
    this.handler = handler;
    this.timer = timer;
    this.link = link;
    this.channel = link.channel();
    this.outlet = outlet;
    this.ticket = ticket;
    this.fatal = fatal;
    this.fd = outlet == null && link.channel() != null ? SocketFd.of(link.channel()) : -1;
  }

  /**
   * A connection whose socket another process holds and whose handshake it did (a node agent's
   * relay): it has no channel; the carrier hands in its messages ({@link #received}) once it is
   * {@link #admitted}, and what is queued for it goes to {@code outlet}.
   */
  public static Connection carried(Handler handler, int index, Outlet outlet) {
    Connection c =
        new Connection(handler, null, new Link(null, false, index), outlet, null, t -> {});
    Thread.ofVirtual().name("jdvm-peer-" + index + "-out").start(c::writeLoop);
    return c;
  }

  /** Whether another process holds the peer's socket ({@link #carried}). */
  public boolean isCarried() {
    return outlet != null;
  }

  /**
   * One framed message of a carried, admitted peer, as {@link #run} reads them from a socket: the
   * carrier calls it on one thread per connection, one message at a time.
   */
  public void received(int tag, byte[] body) {
    if (closed || peer == null) {
      return;
    }
    try {
      handler.message(this, tag, body);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "peer " + link.index() + " failed", e);
      close("internal error: " + e);
    }
  }

  public int index() {
    return link.index();
  }

  /** Whether the peer came over the Unix socket (else loopback TCP). */
  public boolean unix() {
    return link.unix();
  }

  public SocketChannel channel() {
    return link.channel();
  }

  /** Who the connection acts for; {@code null} until admitted. */
  public Peer peer() {
    return peer;
  }

  public boolean isClosed() {
    return closed;
  }

  public InetSocketAddress remoteTcp() throws IOException {
    return (InetSocketAddress) channel.getRemoteAddress();
  }

  public InetSocketAddress localTcp() throws IOException {
    return (InetSocketAddress) channel.getLocalAddress();
  }

  /** A packer in the peer's wire format. */
  public Packer packer() {
    return new Packer(peer.format());
  }

  // ---- reading -------------------------------------------------------------------------------

  /** Reads the connection until it ends; run on a thread of its own. */
  public void run() {
    Thread.ofVirtual().name("jdvm-peer-" + link.index() + "-out").start(this::writeLoop);
    ScheduledFuture<?> deadline = armHandshakeDeadline();
    try {
      ConnectRequest request = readConnect();
      if (ticket != null && !ticket.admit()) {
        close("user " + ticket.user() + " holds too many connections");
        return;
      }
      Peer admitted = handler.admit(this, request);
      if (deadline != null) {
        deadline.cancel(false);
      }
      if (admitted == null) {
        close("refused at the handshake");
        return;
      }
      while (!closed) {
        FrameHeader header = FrameHeader.decode(readFully(FrameHeader.BYTES), 0);
        byte[] body = readBody(header.nbytes());
        handler.message(this, header.tag(), body);
      }
    } catch (EOFException e) {
      close("end of stream");
    } catch (IOException e) {
      close("connection lost: " + e.getMessage());
    } catch (WireException e) {
      close("broken frame: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "peer " + link.index() + " failed", e);
      close("internal error: " + e);
    } catch (Error e) {
      close("internal error: " + e);
      fatal.failed(e);
    }
  }

  private ScheduledFuture<?> armHandshakeDeadline() {
    try {
      return timer.schedule(
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
    byte[] payload = readBody(header.nbytes());
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

  /**
   * Reads a body of {@code n} bytes into a buffer that starts at {@link #READ_CHUNK} and doubles as
   * it fills, so what is held is at most twice what the peer actually sent.
   */
  private byte[] readBody(int n) throws IOException {
    byte[] bytes = new byte[Math.min(n, READ_CHUNK)];
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (true) {
      while (b.hasRemaining()) {
        if (channel.read(b) < 0) {
          throw new EOFException();
        }
      }
      if (bytes.length == n) {
        return bytes;
      }
      int filled = bytes.length;
      bytes = Arrays.copyOf(bytes, (int) Math.min(n, 2L * filled));
      b = ByteBuffer.wrap(bytes);
      b.position(filled);
    }
  }

  /** Admission is done: messages may now be addressed to this peer. */
  public void admitted(Peer p) {
    this.peer = p;
  }

  // ---- writing -------------------------------------------------------------------------------

  /** Queues one framed message (pindex 0, as a 4.2.2 server sends every header). */
  public void send(int tag, byte[] body) {
    enqueue(framed(tag, body), false);
  }

  /**
   * Queues one framed message of a job's output: counted apart from replies and events, never a
   * reason to cut the peer off below {@link #MAX_QUEUED_OUTPUT_BYTES}; its producer paces itself
   * with {@link #holdOutput}.
   */
  public void sendOutput(int tag, byte[] body) {
    enqueue(framed(tag, body), true);
  }

  private static byte[] framed(int tag, byte[] body) {
    byte[] message = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(message, 0);
    System.arraycopy(body, 0, message, FrameHeader.BYTES, body.length);
    return message;
  }

  /** Queues raw bytes: the handshake reply, which has no frame. */
  public void sendRaw(byte[] bytes) {
    enqueue(bytes, false);
  }

  /** Output bytes queued and not yet written to the peer. */
  public long outputQueued() {
    return output.queued();
  }

  /**
   * Whether the peer is behind on output: more than {@link #OUTPUT_HIGH_WATER} bytes of it are
   * unwritten. If so, {@code resume} runs once (on the writer's thread, or the closer's) when they
   * are under {@link #OUTPUT_LOW_WATER} or the connection closes; the caller stops producing until
   * then.
   */
  public boolean holdOutput(Runnable resume) {
    return output.hold(resume);
  }

  private void enqueue(byte[] message, boolean isOutput) {
    if (closed) {
      return;
    }
    if (isOutput) {
      if (output.added(message.length) > MAX_QUEUED_OUTPUT_BYTES) {
        close(
            "more than "
                + MAX_QUEUED_OUTPUT_BYTES
                + " bytes of output queued that nobody paces: the peer does not read");
        return;
      }
    } else if (queuedBytes.addAndGet(message.length) > MAX_QUEUED_BYTES) {
      close("more than " + MAX_QUEUED_BYTES + " bytes queued: the peer does not read");
      return;
    }
    synchronized (sendLock) {
      if (closed) {
        return;
      }
      if (pending == 0 && fd >= 0 && message.length <= DIRECT_MAX) {
        int sent = sendNow(message);
        written(sent, isOutput);
        if (sent == message.length) {
          return;
        }
        if (sent > 0) {
          message = Arrays.copyOfRange(message, sent, message.length);
        }
      }
      pending++;
      queue.add(new Queued(message, isOutput));
    }
  }

  /** {@code n} bytes of one kind left the queue's count: written, or dropped. */
  private void written(long n, boolean isOutput) {
    if (n == 0) {
      return;
    }
    if (isOutput) {
      output.gone(n);
    } else {
      queuedBytes.addAndGet(-n);
    }
  }

  /**
   * Sends what the socket takes now, without blocking (under {@link #sendLock}, the connection
   * open, so the descriptor is still this socket's); an error is left to the writer to find.
   */
  private int sendNow(byte[] message) {
    if (callState == null) {
      callState = Posix.callState(java.lang.foreign.Arena.ofAuto());
    }
    int sent = 0;
    while (sent < message.length) {
      long n = Posix.sendNow(fd, message, sent, callState);
      if (n <= 0) {
        break;
      }
      sent += (int) n;
    }
    return sent;
  }

  private void writeLoop() {
    List<Queued> batch = new ArrayList<>(GATHER);
    try {
      while (true) {
        batch.clear();
        batch.add(queue.take());
        queue.drainTo(batch, GATHER - 1);
        int end = batch.indexOf(END);
        List<Queued> messages = end < 0 ? batch : batch.subList(0, end);
        write(messages);
        synchronized (sendLock) {
          pending -= messages.size();
        }
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

  private void write(List<Queued> messages) throws IOException {
    if (messages.isEmpty()) {
      return;
    }
    ByteBuffer[] buffers = new ByteBuffer[messages.size()];
    long total = 0;
    long outputBytes = 0;
    List<byte[]> bytes = outlet != null ? new ArrayList<>(messages.size()) : null;
    for (int i = 0; i < buffers.length; i++) {
      Queued q = messages.get(i);
      buffers[i] = ByteBuffer.wrap(q.bytes());
      total += q.bytes().length;
      outputBytes += q.output() ? q.bytes().length : 0;
      if (bytes != null) {
        bytes.add(q.bytes());
      }
    }
    if (outlet != null) {
      outlet.write(bytes);
    } else {
      long n = 0;
      while (n < total) {
        n += channel.write(buffers);
      }
    }
    written(total - outputBytes, false);
    written(outputBytes, true);
  }

  // ---- ending --------------------------------------------------------------------------------

  /** Closes at once: what is still queued is dropped. Idempotent. */
  public void close(String reason) {
    synchronized (sendLock) {
      // After this no send goes to the descriptor, which the channel's close frees for reuse.
      if (closed) {
        return;
      }
      closed = true;
    }
    if (ticket != null) {
      ticket.release();
    }
    queue.add(END);
    output.close(); // nothing more is written here: whoever paused for this peer goes on
    if (outlet != null) {
      outlet.close();
    } else {
      try {
        channel.close();
      } catch (IOException e) {
        // Nothing more to learn from a failing close.
      }
    }
    Peer p = peer;
    LOG.log(
        System.Logger.Level.DEBUG,
        "peer="
            + link.index()
            + " proc="
            + (p == null ? "-" : p.proc())
            + " closed="
            + quote(reason));
    handler.closed(this);
  }

  /** Lets the writer send what is queued (at most {@code nanos}), then closes. */
  public void closeAfterFlush(long nanos) {
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
    return "peer " + link.index() + (p == null ? "" : " (" + p.proc() + ", " + p.role() + ")");
  }
}
