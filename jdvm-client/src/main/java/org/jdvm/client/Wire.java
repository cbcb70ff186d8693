package org.jdvm.client;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.NativeCredential;
import org.jdvm.pmix.frame.TagSequence;
import org.jdvm.pmix.frame.Tags;
import org.jdvm.pmix.frame.ToolConnectReply;

/**
 * The client's side of one connection (pmix-wire.md §9): the connect handshake, then framed
 * requests each on a fresh tag with its reply matched by tag, and the server's pushes on tag 0
 * (events) and tag 2 (output). One platform thread reads; writers share a lock. Replies are decoded
 * on the reading thread, in arrival order, so that what a reply registers (a spawned job) is known
 * before any later message about it is read.
 */
final class Wire {
  /** Decodes a reply body; runs on the reading thread. */
  interface Decoder<T> {
    T decode(Unpacker body) throws PmixException;
  }

  /** What the server pushes, and the end of the connection; called on the reading thread. */
  interface Listener {
    void event(Unpacker body);

    void output(Unpacker body);

    void lost(PmixException why);
  }

  private record Waiter<T>(Decoder<T> decoder, CompletableFuture<T> future) {
    void answer(Unpacker body) {
      try {
        future.complete(decoder.decode(body));
      } catch (PmixException e) {
        future.completeExceptionally(e);
      } catch (WireException e) {
        future.completeExceptionally(
            new PmixException(e.status(), "malformed reply: " + e.getMessage()));
      } catch (RuntimeException e) {
        future.completeExceptionally(e);
      }
    }
  }

  final WireFormat format;
  final Proc self;
  final Proc server;
  private final SocketChannel channel;
  private final Object writeLock = new Object();
  private final TagSequence tags = TagSequence.connector();
  private final Map<Integer, Waiter<?>> waiting = new ConcurrentHashMap<>();
  private volatile Listener listener;
  private volatile PmixException lost;
  private volatile boolean closing;

  private Wire(SocketChannel channel, WireFormat format, Proc self, Proc server) {
    this.channel = channel;
    this.exitHook = new Thread(this::exiting, "jdvm-client-exit");
    this.format = format;
    this.self = self;
    this.server = server;
  }

  /**
   * Connects and completes the handshake.
   *
   * @param proc the identity given (a tool's chosen namespace, or a launched process); {@code null}
   *     asks the DVM to mint a tool namespace
   * @param blob the connect blob's infos (credentials)
   */
  static Wire open(Contact contact, ConnectFlag flag, Proc proc, List<Info> blob, WireFormat format)
      throws PmixException {
    return open(contact, flag, proc, blob, format, null);
  }

  /**
   * As {@link #open(Contact, ConnectFlag, Proc, List, WireFormat)}; with a {@code proofKey} the
   * server must prove it holds that key before anything more is sent (docs/protocol.md "Who the DVM
   * is"), else the connection is dropped and the DVM deemed unreachable.
   */
  static Wire open(
      Contact contact,
      ConnectFlag flag,
      Proc proc,
      List<Info> blob,
      WireFormat format,
      byte[] proofKey)
      throws PmixException {
    String nonce = null;
    if (proofKey != null) {
      nonce = java.util.HexFormat.of().formatHex(nonce16());
      blob = new ArrayList<>(blob);
      blob.add(Info.of(JdvmProtocol.CHALLENGE, Value.string(nonce)));
    }
    SocketChannel channel = dial(contact, flag);
    try {
      writeFully(channel, ByteBuffer.wrap(connectRequest(flag, proc, blob, format).encode()));
      Names names = readConnectReply(channel, flag, proc);
      if (nonce != null) {
        checkProof(channel, contact, proofKey, nonce);
      }
      return new Wire(channel, format, names.self(), names.server());
    } catch (EOFException e) {
      close(channel);
      throw new PmixException(
          PmixStatus.ERR_NO_PERMISSIONS,
          "permission denied: the DVM closed the connection at the handshake (another user's"
              + " DVM, a wrong credential, or a namespace already in use)");
    } catch (IOException e) {
      close(channel);
      throw new PmixException(PmixStatus.ERR_UNREACH, "handshake failed: " + e.getMessage(), e);
    } catch (WireException e) {
      close(channel);
      throw new PmixException(e.status(), "bad handshake reply: " + e.getMessage());
    } catch (PmixException | RuntimeException e) {
      close(channel);
      throw e;
    }
  }

  /** The connect request this process sends: native credential, its name if the flag carries it. */
  private static ConnectRequest connectRequest(
      ConnectFlag flag, Proc proc, List<Info> blob, WireFormat format) {
    long[] ids = ids();
    return new ConnectRequest(
        ConnectRequest.PSEC_NATIVE,
        new NativeCredential(ids[0], ids[1]).encode(),
        flag,
        flag.carriesUidGid() ? ids[0] : ConnectRequest.ABSENT,
        flag.carriesUidGid() ? ids[1] : ConnectRequest.ABSENT,
        flag.carriesProc() ? proc : null,
        "4.2.2",
        format.component().wireName(),
        format.bufferType(),
        ConnectRequest.GDS_HASH,
        blob,
        false);
  }

  /** Who this process is on the wire, and the server's own name ({@code null} for a client). */
  private record Names(Proc self, Proc server) {}

  /**
   * The server's answer to the connect: who this process is now and, for a tool, the server's own
   * name ({@code null} for a client); a refusal throws its status.
   */
  private static Names readConnectReply(SocketChannel channel, ConnectFlag flag, Proc proc)
      throws IOException, PmixException {
    if (flag.getsClientReply()) {
      ClientConnectReply reply = ClientConnectReply.decode(readFully(channel, 8));
      if (!reply.isAccepted()) {
        throw refused(reply.status());
      }
      return new Names(proc, null);
    }
    int fields = (flag.needsId() ? 2 : 1) * (ToolConnectReply.NSPACE_FIELD_BYTES + 4);
    ToolConnectReply reply =
        ToolConnectReply.decode(readFully(channel, 4 + fields + 4), flag.needsId());
    if (!reply.isAccepted()) {
      throw refused(reply.status());
    }
    return new Names(flag.needsId() ? reply.assigned() : proc, reply.server());
  }

  /**
   * 16 bytes from the kernel's random source. Read straight from {@code /dev/urandom}: seeding a
   * {@link java.security.SecureRandom} costs a fresh {@code jdvm run} about 10 ms of its start-up;
   * the JDK's own generator is the fallback where the device cannot be read.
   */
  private static byte[] nonce16() {
    byte[] n = new byte[16];
    try (java.io.InputStream in = new java.io.FileInputStream("/dev/urandom")) {
      if (in.readNBytes(n, 0, n.length) == n.length) {
        return n;
      }
    } catch (IOException e) {
      // fall through to the JDK's generator
    }
    new java.security.SecureRandom().nextBytes(n);
    return n;
  }

  /** Reads the server's answer to the challenge; anything but the right one ends the connection. */
  private static void checkProof(SocketChannel channel, Contact contact, byte[] key, String nonce)
      throws IOException, PmixException {
    byte[] expected;
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
      expected =
          mac.doFinal(
              (JdvmProtocol.PROOF_PREFIX + nonce)
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
    byte[] got;
    try {
      got = readFully(channel, JdvmProtocol.PROOF_BYTES);
    } catch (EOFException e) {
      got = new byte[0];
    }
    if (!java.security.MessageDigest.isEqual(expected, got)) {
      String where = where(channel, contact);
      close(channel);
      throw new PmixException(
          PmixStatus.ERR_UNREACH,
          "the server at "
              + where
              + " could not prove it is the DVM"
              + (contact.dir() == null ? "" : " of " + contact.dir())
              + "; nothing was sent to it");
    }
  }

  private static String where(SocketChannel channel, Contact contact) {
    try {
      java.net.SocketAddress a = channel.getRemoteAddress();
      if (a instanceof UnixDomainSocketAddress u) {
        return u.getPath().toString();
      }
    } catch (IOException e) {
      // cannot tell: name the TCP address
    }
    return contact.tcp().getHostString() + ":" + contact.tcp().getPort();
  }

  private static PmixException refused(int status) {
    return new PmixException(status, "the DVM refused the connection");
  }

  /**
   * The Unix socket for a tool or scheduler when the DVM has one ({@link Contact#unixDial}),
   * loopback TCP otherwise. A launched process ({@link ConnectFlag#SIMPLE_CLIENT}) keeps TCP: on
   * the Unix socket the kernel names its uid but not which process of the job it is, so it would
   * have to present {@code jdvm.cred} (docs/protocol.md "Who a peer is").
   */
  private static SocketChannel dial(Contact contact, ConnectFlag flag) throws PmixException {
    try {
      if (contact.unixDial(flag != ConnectFlag.SIMPLE_CLIENT)) {
        return SocketChannel.open(UnixDomainSocketAddress.of(contact.unixSocket()));
      }
      SocketChannel tcp = SocketChannel.open(contact.tcp());
      tcp.setOption(StandardSocketOptions.TCP_NODELAY, true);
      return tcp;
    } catch (IOException e) {
      throw new PmixException(
          PmixStatus.ERR_UNREACH, "cannot reach the DVM at " + contact.uri() + ": " + e, e);
    }
  }

  /** This process's uid and gid, for the {@code native} credential (the DVM ignores it). */
  static long[] ids() {
    try {
      Path self = Path.of("/proc/self");
      return new long[] {
        ((Number) Files.getAttribute(self, "unix:uid")).longValue(),
        ((Number) Files.getAttribute(self, "unix:gid")).longValue()
      };
    } catch (IOException | UnsupportedOperationException e) {
      return new long[] {0, 0};
    }
  }

  /**
   * Starts reading; from now on pushes go to {@code l}. A shutdown hook closes the socket if the
   * program exits without closing the client: HotSpot's exit waits up to 300 ms for threads blocked
   * in native code, such as a read on a socket, and the CLI must not pay that.
   */
  void start(Listener l) {
    this.listener = l;
    Thread t = new Thread(this::readLoop, "jdvm-client-reader");
    t.setDaemon(true);
    t.start();
    try {
      Runtime.getRuntime().addShutdownHook(exitHook);
    } catch (IllegalStateException e) {
      close();
    }
  }

  private final Thread exitHook;
  private final List<Runnable> beforeExit = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** An action the exit hook runs before it closes the socket ({@code JdvmClient.onExit}). */
  void beforeExit(Runnable action) {
    beforeExit.add(action);
  }

  /**
   * The exit hook: the registered actions, then the socket. One hook does both, in this order, so
   * an action that must reach the DVM (ending a job on Ctrl-C) never races the closing socket.
   */
  private void exiting() {
    for (Runnable a : beforeExit) {
      try {
        a.run();
      } catch (RuntimeException e) {
        // An exit action that fails must not keep the others, or the close, from running.
      }
    }
    close(channel);
  }

  /** Sends a request and decodes its reply on the reading thread. */
  <T> CompletableFuture<T> call(byte[] body, Decoder<T> decoder) {
    CompletableFuture<T> future = new CompletableFuture<>();
    PmixException gone = lost;
    if (gone != null) {
      future.completeExceptionally(gone);
      return future;
    }
    int tag;
    synchronized (writeLock) {
      tag = tags.next();
      waiting.put(tag, new Waiter<>(decoder, future));
      try {
        send(tag, body);
      } catch (IOException e) {
        waiting.remove(tag);
        future.completeExceptionally(
            new PmixException(PmixStatus.ERR_UNREACH, "send failed: " + e.getMessage(), e));
        return future;
      }
    }
    if (lost != null && waiting.remove(tag) != null) {
      future.completeExceptionally(lost);
    }
    return future;
  }

  /** Sends a request that gets no reply (DEREGEVENTS); it still uses up a tag, as libpmix's. */
  void sendOneWay(byte[] body) throws PmixException {
    synchronized (writeLock) {
      try {
        send(tags.next(), body);
      } catch (IOException e) {
        throw new PmixException(PmixStatus.ERR_UNREACH, "send failed: " + e.getMessage(), e);
      }
    }
  }

  private void send(int tag, byte[] body) throws IOException {
    byte[] header = new byte[FrameHeader.BYTES];
    FrameHeader.of(0, tag, body.length).encode(header, 0);
    ByteBuffer[] both = {ByteBuffer.wrap(header), ByteBuffer.wrap(body)};
    long total = header.length + (long) body.length;
    long written = 0;
    while (written < total) {
      written += channel.write(both);
    }
  }

  private void readLoop() {
    PmixException why;
    try {
      while (true) {
        FrameHeader h = FrameHeader.decode(readFully(channel, FrameHeader.BYTES), 0);
        byte[] body = readFully(channel, h.nbytes());
        Unpacker in = new Unpacker(format, body);
        if (h.tag() == Tags.NOTIFY) {
          listener.event(in);
        } else if (h.tag() == Tags.IOF) {
          listener.output(in);
        } else {
          Waiter<?> w = waiting.remove(h.tag());
          if (w != null) {
            w.answer(in);
          }
        }
      }
    } catch (EOFException e) {
      why = new PmixException(PmixStatus.ERR_LOST_CONNECTION_TO_SERVER, "the DVM closed");
    } catch (IOException e) {
      if (closing && waiting.isEmpty()) {
        lost = new PmixException(PmixStatus.ERR_LOST_CONNECTION_TO_SERVER, "closed");
        listener.lost(lost);
        return;
      }
      why = new PmixException(PmixStatus.ERR_LOST_CONNECTION_TO_SERVER, e.getMessage(), e);
    } catch (WireException e) {
      why = new PmixException(e.status(), "broken frame from the DVM: " + e.getMessage());
    }
    lost = why;
    close(channel);
    for (Integer tag : new ArrayList<>(waiting.keySet())) {
      Waiter<?> w = waiting.remove(tag);
      if (w != null) {
        w.future().completeExceptionally(why);
      }
    }
    listener.lost(why);
  }

  boolean isOpen() {
    return lost == null && channel.isOpen();
  }

  void close() {
    closing = true;
    close(channel);
    try {
      Runtime.getRuntime().removeShutdownHook(exitHook);
    } catch (IllegalStateException e) {
      // The JVM is exiting: the hook runs or has run, and closing twice is harmless.
    }
  }

  private static void close(SocketChannel c) {
    try {
      c.close();
    } catch (IOException e) {
      // Nothing to do about a failing close.
    }
  }

  private static void writeFully(SocketChannel c, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      c.write(b);
    }
  }

  private static byte[] readFully(SocketChannel c, int n) throws IOException {
    byte[] bytes = new byte[n];
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      if (c.read(b) < 0) {
        throw new EOFException();
      }
    }
    return bytes;
  }
}
