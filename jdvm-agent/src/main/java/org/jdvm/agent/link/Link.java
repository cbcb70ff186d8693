package org.jdvm.agent.link;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One side of an agent link after its handshake (docs/protocol.md "Agent link"): messages out,
 * written whole and in order by any thread; messages in, read by one virtual thread and handed to
 * the side's handler, except the relay's, which go to the {@link RelayChannel.RelayListener}. The
 * first failure — end of stream, a malformed message, a write error, or {@link #close} — closes the
 * socket and runs the close action once.
 */
public final class Link implements RelayChannel, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final LongSupplier clockNs;
  private final String peer;
  private volatile long lastHeardNs;
  private volatile RelayListener relay;
  private volatile boolean closed;
  private Runnable onClose = () -> {};

  /**
   * @param peer who is on the other side, for messages
   */
  public Link(Socket socket, LongSupplier clockNs, String peer) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    this.clockNs = clockNs;
    this.peer = peer;
    this.lastHeardNs = clockNs.getAsLong();
  }

  /** Reads one message in the handshake, before {@link #start}. */
  public LinkMessage readNow() throws IOException {
    LinkMessage m = LinkCodec.read(in, LinkCodec.MAX_HANDSHAKE_BYTES);
    lastHeardNs = clockNs.getAsLong();
    return m;
  }

  /**
   * Starts reading: every message but the relay's goes to {@code handler}, on the reader thread;
   * {@code onClose} runs once when the link closes.
   */
  public void start(Consumer<LinkMessage> handler, Runnable onClose) {
    synchronized (this) {
      this.onClose = onClose;
    }
    Thread.ofVirtual()
        .name("jdvm-link-" + peer)
        .start(
            () -> {
              try {
                while (!closed) {
                  LinkMessage m = LinkCodec.read(in);
                  lastHeardNs = clockNs.getAsLong();
                  dispatch(m, handler);
                }
              } catch (IOException e) {
                if (!closed) {
                  LOG.log(System.Logger.Level.DEBUG, "link to " + peer + " ended: " + e);
                }
              } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "link to " + peer + " failed: " + e);
              } finally {
                close();
              }
            });
  }

  private void dispatch(LinkMessage m, Consumer<LinkMessage> handler) {
    RelayListener r = relay;
    switch (m) {
      case LinkMessage.RelayOpened o when r != null -> r.opened(o.id(), o.identity());
      case LinkMessage.RelayFrame f when r != null -> r.frame(f.id(), f.frame());
      case LinkMessage.RelayClosed c when r != null -> r.closed(c.id());
      case LinkMessage.RelayOpened o -> send(new LinkMessage.RelayClosed(o.id()));
      case LinkMessage.RelayFrame f -> {} // no relay here: the opened was answered closed
      case LinkMessage.RelayClosed c -> {}
      default -> handler.accept(m);
    }
  }

  /** Sends a message; returns false (and closes the link) if it cannot be written. */
  public boolean send(LinkMessage m) {
    if (closed) {
      return false;
    }
    byte[] bytes = LinkCodec.encode(m);
    try {
      synchronized (out) {
        out.write(bytes);
        out.flush();
      }
      return true;
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "write to " + peer + " failed: " + e);
      close();
      return false;
    }
  }

  /** When a message last arrived, on the link's clock. */
  public long lastHeardNs() {
    return lastHeardNs;
  }

  public boolean isOpen() {
    return !closed;
  }

  public String peer() {
    return peer;
  }

  /** The address of the other side, as the socket sees it. */
  public String remoteAddress() {
    return socket.getInetAddress().getHostAddress();
  }

  // ---- the relay --------------------------------------------------------------------------------

  @Override
  public void send(long id, byte[] frame) {
    send(new LinkMessage.RelayFrame(id, frame));
  }

  @Override
  public void closed(long id) {
    send(new LinkMessage.RelayClosed(id));
  }

  /** The agent's side: a local peer connected (see {@link RelayChannel}). */
  public void opened(long id, byte[] peerIdentity) {
    send(new LinkMessage.RelayOpened(id, peerIdentity));
  }

  @Override
  public void onReceive(RelayListener listener) {
    this.relay = listener;
  }

  @Override
  public void close() {
    Runnable action;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      action = onClose;
    }
    try {
      socket.close();
    } catch (IOException e) {
      // Closing: nothing to do about it.
    }
    action.run();
  }
}
