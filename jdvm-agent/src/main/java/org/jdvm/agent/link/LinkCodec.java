package org.jdvm.agent.link;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
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
import org.jdvm.agent.link.LinkMessage.OutputCredit;
import org.jdvm.agent.link.LinkMessage.Refused;
import org.jdvm.agent.link.LinkMessage.RelayClosed;
import org.jdvm.agent.link.LinkMessage.RelayFrame;
import org.jdvm.agent.link.LinkMessage.RelayOpened;
import org.jdvm.agent.link.LinkMessage.Signal;
import org.jdvm.agent.link.LinkMessage.Stdin;
import org.jdvm.agent.link.LinkMessage.TerminateAll;
import org.jdvm.agent.link.LinkMessage.Welcome;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;

/**
 * The agent link's framing (docs/protocol.md "Agent link"): each message is a 4-byte big-endian
 * length, then that many bytes: a one-byte kind, then the message's record in the generic record
 * codec's layout without presence bytes ({@link RecordCodec#writeRequired}) — its components in
 * order: integers big-endian, booleans one byte, strings and byte arrays as a 4-byte length and the
 * bytes, lists and maps as a 4-byte count and their items, a nested record as its components. No
 * layout is written here: a message's is its record's. The length is capped at {@link
 * #MAX_MESSAGE_BYTES} before anything is read; decoding works on the exact message, checks every
 * declared count against the bytes left before it allocates, and refuses trailing bytes. A
 * malformed message poisons the whole link ({@link Malformed}): nothing after it can be trusted to
 * be in step.
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

  /** Each message's kind on the wire (never renumber one). */
  private static final Map<Class<? extends LinkMessage>, Integer> KINDS =
      Map.ofEntries(
          Map.entry(Challenge.class, 1),
          Map.entry(Hello.class, 2),
          Map.entry(Welcome.class, 3),
          Map.entry(Refused.class, 4),
          Map.entry(Heartbeat.class, 5),
          Map.entry(Bye.class, 6),
          Map.entry(Launch.class, 10),
          Map.entry(Signal.class, 11),
          Map.entry(Stdin.class, 12),
          Map.entry(Cleanup.class, 13),
          Map.entry(TerminateAll.class, 14),
          Map.entry(OutputCredit.class, 15),
          Map.entry(Launched.class, 20),
          Map.entry(LaunchFailed.class, 21),
          Map.entry(Done.class, 22),
          Map.entry(Output.class, 23),
          Map.entry(Exited.class, 24),
          Map.entry(RelayOpened.class, 30),
          Map.entry(RelayFrame.class, 31),
          Map.entry(RelayClosed.class, 32));

  /** The message of each kind, {@code null} where a number is no kind. */
  private static final Class<?>[] TYPES = types();

  private static Class<?>[] types() {
    Class<?>[] types = new Class<?>[256];
    for (Class<?> c : LinkMessage.class.getPermittedSubclasses()) {
      Integer kind = KINDS.get(c);
      if (kind == null) {
        throw new IllegalStateException("the link message " + c.getSimpleName() + " has no kind");
      }
      types[kind] = c;
    }
    return types;
  }

  /** The message as it goes on the wire, length prefix included. */
  public static byte[] encode(LinkMessage m) {
    Bytes.Out out = new Bytes.Out(64);
    out.i32(0).u8(KINDS.get(m.getClass()));
    RecordCodec.writeRequired(out, m.getClass(), m);
    int length = out.size() - 4;
    if (length > MAX_MESSAGE_BYTES) {
      throw new IllegalArgumentException(
          "a link message of " + length + " bytes is above " + MAX_MESSAGE_BYTES);
    }
    out.i32At(0, length);
    return out.toByteArray();
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
    return decode(new Bytes.In(body));
  }

  /** Decodes one message body (without the length prefix), exactly, consuming the buffer. */
  public static LinkMessage decode(ByteBuffer b) throws Malformed {
    Bytes.In in;
    if (b.hasArray()) {
      in = new Bytes.In(b.array(), b.arrayOffset() + b.position(), b.remaining());
    } else {
      byte[] copy = new byte[b.remaining()];
      b.duplicate().get(copy);
      in = new Bytes.In(copy);
    }
    LinkMessage m = decode(in);
    b.position(b.limit());
    return m;
  }

  private static LinkMessage decode(Bytes.In in) throws Malformed {
    try {
      int kind = in.u8();
      Class<?> type = TYPES[kind];
      if (type == null) {
        throw new Malformed("unknown link message kind " + kind);
      }
      LinkMessage m = (LinkMessage) RecordCodec.readRequired(in, type);
      if (in.remaining() > 0) {
        throw new Malformed(in.remaining() + " bytes after a link message");
      }
      return m;
    } catch (Bytes.Corrupt e) {
      throw new Malformed("a link message does not decode: " + e.getMessage());
    }
  }
}
