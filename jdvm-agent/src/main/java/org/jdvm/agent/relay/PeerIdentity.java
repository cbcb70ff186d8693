package org.jdvm.agent.relay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jdvm.agent.link.RelayChannel;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;

/**
 * Who a node agent's local peer is, as the agent authenticated it and vouches for it to the
 * controller: the identity bytes of {@link RelayChannel.RelayListener#opened} (docs/protocol.md
 * "Node agents").
 *
 * <p>Encoding, big-endian: version byte 1; kind byte (0 client, 1 tool, 2 simple PMI peer); a byte
 * 1 when a process follows (a client always; a tool that chose its name), then its namespace (u8
 * length, at most {@link Proc#MAX_NSLEN} bytes of UTF-8) and rank (u32); uid and gid (u32 each;
 * {@code 0xFFFFFFFF} for unknown); pid (u64, 0 for unknown); the wire component's handshake name
 * (u8 length, at most 16 bytes) and the buffer type's handshake code (u8). {@link #decode} takes
 * exactly these bytes and nothing else.
 *
 * @param kind a launched process (or a helper acting for one), or a tool
 * @param proc the process it acts for; for a tool the name it chose, {@code null} for a new one
 * @param uid the uid owning its socket on the agent's host, -1 when unknown
 * @param gid that process's gid, -1 when unknown
 * @param pid the process holding its socket, 0 when unknown
 * @param format its wire format, as it announced it in its handshake
 */
public record PeerIdentity(Kind kind, Proc proc, long uid, long gid, long pid, WireFormat format) {
  /** What the peer is. */
  public enum Kind {
    CLIENT,
    TOOL,
    /** A simple PMI peer (docs/protocol.md "Simple PMI"): its frames are lines, not PMIx. */
    PMI
  }

  private static final int VERSION = 1;
  private static final int MAX_COMPONENT_BYTES = 16;

  public PeerIdentity {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(format, "format");
    if (kind != Kind.TOOL) {
      Objects.requireNonNull(proc, "a client's proc");
    }
    if (proc != null && proc.nspace().getBytes(StandardCharsets.UTF_8).length > Proc.MAX_NSLEN) {
      throw new IllegalArgumentException("a namespace longer than " + Proc.MAX_NSLEN + " bytes");
    }
    if (uid < -1 || uid > 0xFFFF_FFFEL || gid < -1 || gid > 0xFFFF_FFFEL || pid < 0) {
      throw new IllegalArgumentException("uid, gid or pid out of range");
    }
  }

  /** The namespace it acts for; {@code null} for a tool that asked for a new one. */
  public String nspace() {
    return proc == null ? null : proc.nspace();
  }

  public byte[] encode() {
    byte[] ns = proc == null ? new byte[0] : proc.nspace().getBytes(StandardCharsets.UTF_8);
    byte[] component = format.component().wireName().getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocate(3 + (proc == null ? 0 : 1 + ns.length + 4) + 16 + 2 + 16);
    b.put((byte) VERSION).put((byte) kind.ordinal()).put((byte) (proc == null ? 0 : 1));
    if (proc != null) {
      b.put((byte) ns.length).put(ns).putInt(proc.rank());
    }
    b.putInt((int) uid).putInt((int) gid).putLong(pid);
    b.put((byte) component.length).put(component).put((byte) format.bufferType().code());
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  /**
   * The identity these bytes encode.
   *
   * @throws IllegalArgumentException for anything but exactly one well-formed identity
   */
  public static PeerIdentity decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    try {
      if (b.get() != VERSION) {
        throw new IllegalArgumentException("not a version-1 peer identity");
      }
      int k = b.get();
      if (k < 0 || k >= Kind.values().length) {
        throw new IllegalArgumentException("unknown peer kind " + k);
      }
      int hasProc = b.get();
      if (hasProc != 0 && hasProc != 1) {
        throw new IllegalArgumentException("bad process marker " + hasProc);
      }
      Proc proc = null;
      if (hasProc == 1) {
        String ns = text(b, Proc.MAX_NSLEN, StandardCharsets.UTF_8);
        proc = new Proc(ns, b.getInt());
      }
      long uid = id(b.getInt());
      long gid = id(b.getInt());
      long pid = b.getLong();
      WireComponent component =
          WireComponent.fromWireName(text(b, MAX_COMPONENT_BYTES, StandardCharsets.US_ASCII));
      BufferType buffer = BufferType.fromCode(b.get() & 0xFF);
      if (component == null || buffer == null) {
        throw new IllegalArgumentException("a wire format jdvm does not speak");
      }
      if (b.hasRemaining()) {
        throw new IllegalArgumentException(b.remaining() + " bytes after the identity");
      }
      return new PeerIdentity(
          Kind.values()[k], proc, uid, gid, pid, new WireFormat(component, buffer));
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated peer identity");
    }
  }

  private static long id(int raw) {
    return raw == -1 ? -1 : Integer.toUnsignedLong(raw);
  }

  private static String text(ByteBuffer b, int max, java.nio.charset.Charset charset) {
    int n = b.get() & 0xFF;
    if (n > max || n > b.remaining()) {
      throw new IllegalArgumentException("a string of " + n + " bytes");
    }
    byte[] s = new byte[n];
    b.get(s);
    return new String(s, charset);
  }
}
