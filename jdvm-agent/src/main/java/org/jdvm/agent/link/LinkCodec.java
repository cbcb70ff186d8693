package org.jdvm.agent.link;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.agent.link.LinkMessage.Bye;
import org.jdvm.agent.link.LinkMessage.Challenge;
import org.jdvm.agent.link.LinkMessage.Cleanup;
import org.jdvm.agent.link.LinkMessage.Done;
import org.jdvm.agent.link.LinkMessage.Exited;
import org.jdvm.agent.link.LinkMessage.Heartbeat;
import org.jdvm.agent.link.LinkMessage.Hello;
import org.jdvm.agent.link.LinkMessage.Launch;
import org.jdvm.agent.link.LinkMessage.LaunchFailed;
import org.jdvm.agent.link.LinkMessage.Launched;
import org.jdvm.agent.link.LinkMessage.Output;
import org.jdvm.agent.link.LinkMessage.Refused;
import org.jdvm.agent.link.LinkMessage.RelayClosed;
import org.jdvm.agent.link.LinkMessage.RelayFrame;
import org.jdvm.agent.link.LinkMessage.RelayOpened;
import org.jdvm.agent.link.LinkMessage.Running;
import org.jdvm.agent.link.LinkMessage.Signal;
import org.jdvm.agent.link.LinkMessage.Stdin;
import org.jdvm.agent.link.LinkMessage.TerminateAll;
import org.jdvm.agent.link.LinkMessage.Welcome;

/**
 * The agent link's framing (docs/protocol.md "Agent link"): each message is a 4-byte big-endian
 * length, then that many bytes: a one-byte kind, then its fields in order — integers big-endian,
 * strings and byte arrays as a 4-byte length and the bytes (strings UTF-8), lists and maps as a
 * 4-byte count and their elements. The length is capped at {@link #MAX_MESSAGE_BYTES} before
 * anything is read; decoding works on the exact message, checks every declared count against the
 * bytes left before it allocates, and refuses trailing bytes. A malformed message poisons the whole
 * link ({@link Malformed}): nothing after it can be trusted to be in step.
 */
public final class LinkCodec {
  /** The longest message either side accepts (a launch's environment, a relayed PMIx frame). */
  public static final int MAX_MESSAGE_BYTES = 16 << 20;

  /** The longest handshake message, read before the other side proved anything. */
  public static final int MAX_HANDSHAKE_BYTES = 4 << 20;

  private LinkCodec() {}

  /** The link carried something that is not a message of this version; the link must close. */
  public static final class Malformed extends IOException {
    private static final long serialVersionUID = 1L;

    public Malformed(String message) {
      super(message);
    }
  }

  // ---- kinds (never renumber: they are on the wire) ---------------------------------------------

  private static final int CHALLENGE = 1;
  private static final int HELLO = 2;
  private static final int WELCOME = 3;
  private static final int REFUSED = 4;
  private static final int HEARTBEAT = 5;
  private static final int BYE = 6;
  private static final int LAUNCH = 10;
  private static final int SIGNAL = 11;
  private static final int STDIN = 12;
  private static final int CLEANUP = 13;
  private static final int TERMINATE_ALL = 14;
  private static final int LAUNCHED = 20;
  private static final int LAUNCH_FAILED = 21;
  private static final int DONE = 22;
  private static final int OUTPUT = 23;
  private static final int EXITED = 24;
  private static final int RELAY_OPENED = 30;
  private static final int RELAY_FRAME = 31;
  private static final int RELAY_CLOSED = 32;

  /** The message as it goes on the wire, length prefix included. */
  public static byte[] encode(LinkMessage m) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    DataOutputStream out = new DataOutputStream(bytes);
    try {
      out.writeInt(0);
      body(m, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    byte[] frame = bytes.toByteArray();
    int length = frame.length - 4;
    if (length > MAX_MESSAGE_BYTES) {
      throw new IllegalArgumentException(
          "a link message of " + length + " bytes is above " + MAX_MESSAGE_BYTES);
    }
    ByteBuffer.wrap(frame).putInt(0, length);
    return frame;
  }

  /** Writes one message. */
  public static void write(LinkMessage m, OutputStream out) throws IOException {
    out.write(encode(m));
  }

  /**
   * Reads one message, blocking.
   *
   * @throws EOFException at the end of the stream, between messages or inside one
   * @throws Malformed if the bytes are not a message
   */
  public static LinkMessage read(InputStream in) throws IOException {
    return read(in, MAX_MESSAGE_BYTES);
  }

  /** Reads one message of at most {@code maxBytes} (a handshake's, from a peer not yet proved). */
  public static LinkMessage read(InputStream in, int maxBytes) throws IOException {
    DataInputStream data = new DataInputStream(in);
    int length = data.readInt();
    if (length < 1 || length > maxBytes) {
      throw new Malformed("a link message declares " + length + " bytes");
    }
    byte[] body = new byte[length];
    data.readFully(body);
    return decode(ByteBuffer.wrap(body));
  }

  /** Decodes one message body (without the length prefix), exactly. */
  public static LinkMessage decode(ByteBuffer b) throws Malformed {
    try {
      LinkMessage m = decodeBody(b);
      if (b.hasRemaining()) {
        throw new Malformed(b.remaining() + " bytes after a link message");
      }
      return m;
    } catch (BufferUnderflowException e) {
      throw new Malformed("a link message ends early");
    }
  }

  private static void body(LinkMessage m, DataOutputStream o) throws IOException {
    switch (m) {
      case Challenge c -> {
        o.writeByte(CHALLENGE);
        o.writeInt(c.version());
        bytes(o, c.nonce());
      }
      case Hello h -> {
        o.writeByte(HELLO);
        o.writeInt(h.version());
        string(o, h.host());
        string(o, h.node());
        o.writeInt(h.slots());
        map(o, h.resources());
        running(o, h.running());
        o.writeInt(h.ended().size());
        for (Exited x : h.ended()) {
          string(o, x.nspace());
          o.writeInt(x.rank());
          o.writeInt(x.exitCode());
          o.writeInt(x.signal());
        }
        bytes(o, h.nonce());
        bytes(o, h.proof());
      }
      case Welcome w -> {
        o.writeByte(WELCOME);
        string(o, w.node());
        o.writeLong(w.heartbeatMillis());
        o.writeInt(w.missedHeartbeats());
        running(o, w.keep());
        bytes(o, w.proof());
      }
      case Refused r -> {
        o.writeByte(REFUSED);
        string(o, r.reason());
      }
      case Heartbeat h -> {
        o.writeByte(HEARTBEAT);
        o.writeLong(h.sequence());
      }
      case Bye b -> {
        o.writeByte(BYE);
        string(o, b.reason());
      }
      case Launch l -> {
        o.writeByte(LAUNCH);
        o.writeLong(l.requestId());
        string(o, l.nspace());
        o.writeInt(l.rank());
        strings(o, l.argv());
        map(o, l.environment());
        string(o, l.workingDirectory());
        o.writeBoolean(l.stdin());
        o.writeBoolean(l.mergeStderr());
      }
      case Signal s -> {
        o.writeByte(SIGNAL);
        string(o, s.nspace());
        o.writeInt(s.rank());
        o.writeInt(s.signal());
      }
      case Stdin s -> {
        o.writeByte(STDIN);
        o.writeLong(s.requestId());
        string(o, s.nspace());
        o.writeInt(s.rank());
        bytes(o, s.chunk());
        o.writeLong(s.maxWaitMillis());
      }
      case Cleanup c -> {
        o.writeByte(CLEANUP);
        o.writeLong(c.requestId());
        string(o, c.nspace());
        string(o, c.path());
        o.writeBoolean(c.directory());
        o.writeBoolean(c.recursive());
        o.writeBoolean(c.leaveTop());
        o.writeBoolean(c.emptyOnly());
        strings(o, c.ignore());
        o.writeBoolean(c.keep());
      }
      case TerminateAll t -> {
        o.writeByte(TERMINATE_ALL);
        o.writeLong(t.requestId());
        o.writeLong(t.graceMillis());
      }
      case Launched l -> {
        o.writeByte(LAUNCHED);
        o.writeLong(l.requestId());
        o.writeLong(l.pid());
      }
      case LaunchFailed f -> {
        o.writeByte(LAUNCH_FAILED);
        o.writeLong(f.requestId());
        string(o, f.kind());
        string(o, f.message());
      }
      case Done d -> {
        o.writeByte(DONE);
        o.writeLong(d.requestId());
        string(o, d.error());
      }
      case Output out -> {
        o.writeByte(OUTPUT);
        string(o, out.nspace());
        o.writeInt(out.rank());
        o.writeBoolean(out.stderr());
        bytes(o, out.chunk());
      }
      case Exited e -> {
        o.writeByte(EXITED);
        string(o, e.nspace());
        o.writeInt(e.rank());
        o.writeInt(e.exitCode());
        o.writeInt(e.signal());
      }
      case RelayOpened r -> {
        o.writeByte(RELAY_OPENED);
        o.writeLong(r.id());
        bytes(o, r.identity());
      }
      case RelayFrame r -> {
        o.writeByte(RELAY_FRAME);
        o.writeLong(r.id());
        bytes(o, r.frame());
      }
      case RelayClosed r -> {
        o.writeByte(RELAY_CLOSED);
        o.writeLong(r.id());
      }
    }
  }

  private static LinkMessage decodeBody(ByteBuffer b) throws Malformed {
    int kind = b.get() & 0xff;
    return switch (kind) {
      case CHALLENGE -> new Challenge(b.getInt(), bytes(b));
      case HELLO ->
          new Hello(
              b.getInt(),
              string(b),
              string(b),
              b.getInt(),
              map(b),
              running(b),
              ended(b),
              bytes(b),
              bytes(b));
      case WELCOME -> new Welcome(string(b), b.getLong(), b.getInt(), running(b), bytes(b));
      case REFUSED -> new Refused(string(b));
      case HEARTBEAT -> new Heartbeat(b.getLong());
      case BYE -> new Bye(string(b));
      case LAUNCH ->
          new Launch(
              b.getLong(), string(b), b.getInt(), strings(b), map(b), string(b), bool(b), bool(b));
      case SIGNAL -> new Signal(string(b), b.getInt(), b.getInt());
      case STDIN -> new Stdin(b.getLong(), string(b), b.getInt(), bytes(b), b.getLong());
      case CLEANUP ->
          new Cleanup(
              b.getLong(),
              string(b),
              string(b),
              bool(b),
              bool(b),
              bool(b),
              bool(b),
              strings(b),
              bool(b));
      case TERMINATE_ALL -> new TerminateAll(b.getLong(), b.getLong());
      case LAUNCHED -> new Launched(b.getLong(), b.getLong());
      case LAUNCH_FAILED -> new LaunchFailed(b.getLong(), string(b), string(b));
      case DONE -> new Done(b.getLong(), string(b));
      case OUTPUT -> new Output(string(b), b.getInt(), bool(b), bytes(b));
      case EXITED -> new Exited(string(b), b.getInt(), b.getInt(), b.getInt());
      case RELAY_OPENED -> new RelayOpened(b.getLong(), bytes(b));
      case RELAY_FRAME -> new RelayFrame(b.getLong(), bytes(b));
      case RELAY_CLOSED -> new RelayClosed(b.getLong());
      default -> throw new Malformed("unknown link message kind " + kind);
    };
  }

  // ---- fields ----------------------------------------------------------------------------------

  private static void bytes(DataOutputStream o, byte[] v) throws IOException {
    o.writeInt(v.length);
    o.write(v);
  }

  private static void string(DataOutputStream o, String v) throws IOException {
    bytes(o, v.getBytes(StandardCharsets.UTF_8));
  }

  private static void strings(DataOutputStream o, List<String> v) throws IOException {
    o.writeInt(v.size());
    for (String s : v) {
      string(o, s);
    }
  }

  private static void map(DataOutputStream o, Map<String, String> v) throws IOException {
    o.writeInt(v.size());
    for (Map.Entry<String, String> e : v.entrySet()) {
      string(o, e.getKey());
      string(o, e.getValue());
    }
  }

  private static void running(DataOutputStream o, List<Running> v) throws IOException {
    o.writeInt(v.size());
    for (Running r : v) {
      string(o, r.nspace());
      o.writeInt(r.rank());
      o.writeLong(r.pid());
    }
  }

  private static boolean bool(ByteBuffer b) throws Malformed {
    byte v = b.get();
    if (v != 0 && v != 1) {
      throw new Malformed("a boolean of value " + v);
    }
    return v == 1;
  }

  /** A declared count of elements at least {@code minBytes} each, checked against what is left. */
  private static int count(ByteBuffer b, int minBytes) throws Malformed {
    int n = b.getInt();
    if (n < 0 || (long) n * minBytes > b.remaining()) {
      throw new Malformed("a count of " + n + " with " + b.remaining() + " bytes left");
    }
    return n;
  }

  private static byte[] bytes(ByteBuffer b) throws Malformed {
    byte[] v = new byte[count(b, 1)];
    b.get(v);
    return v;
  }

  private static String string(ByteBuffer b) throws Malformed {
    return new String(bytes(b), StandardCharsets.UTF_8);
  }

  private static List<String> strings(ByteBuffer b) throws Malformed {
    int n = count(b, 4);
    List<String> v = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      v.add(string(b));
    }
    return v;
  }

  private static Map<String, String> map(ByteBuffer b) throws Malformed {
    int n = count(b, 8);
    Map<String, String> v = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = string(b);
      if (v.put(key, string(b)) != null) {
        throw new Malformed("the key " + key + " twice in one map");
      }
    }
    return v;
  }

  private static List<Exited> ended(ByteBuffer b) throws Malformed {
    int n = count(b, 16);
    List<Exited> v = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      v.add(new Exited(string(b), b.getInt(), b.getInt(), b.getInt()));
    }
    return v;
  }

  private static List<Running> running(ByteBuffer b) throws Malformed {
    int n = count(b, 16);
    List<Running> v = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      v.add(new Running(string(b), b.getInt(), b.getLong()));
    }
    return v;
  }
}
