package org.jdvm.pmix.frame;

import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * The connect message a client, tool, launcher or scheduler sends first (pmix-wire.md §9.3): the
 * host-order header, then, without bfrops encoding, the psec module's name, the credential, the
 * {@link ConnectFlag} and its identity fields, the library version, the bfrops component, the
 * buffer type and the gds module, and last an optional blob of infos packed in the connector's own
 * format (one SIZE unit and one INFO unit).
 *
 * <p>libpmix 4.2.2 over-counts the blob and sends one extra 0x00 after it (or in its place); that
 * byte is tolerated on input and reproduced on output when {@link #trailingZero} is set, so the
 * captured bytes round-trip exactly. Every decoding failure poisons the connection.
 *
 * @param psec the security module, e.g. {@code native}
 * @param credential what the psec module sends; for {@code native} over TCP, {@link
 *     NativeCredential}
 * @param uid the big-endian uid after the flag, or {@link #ABSENT} when the flag carries none
 * @param gid likewise
 * @param proc the connector's nspace and rank, or {@code null} when the flag carries none
 * @param version the connector's library version, e.g. {@code 4.2.2rc2}
 * @param bfrops the connector's bfrops component name, e.g. {@code v41}
 * @param bufferType the buffer type every later body on the connection uses
 * @param gds the gds module, e.g. {@code hash}
 * @param infos the blob's infos; empty when there is no blob
 * @param trailingZero whether a single 0x00 follows the blob (4.2.2's over-count)
 */
public record ConnectRequest(
    String psec,
    ByteObject credential,
    ConnectFlag flag,
    long uid,
    long gid,
    Proc proc,
    String version,
    String bfrops,
    BufferType bufferType,
    String gds,
    List<Info> infos,
    boolean trailingZero) {
  /** The value of {@link #uid} and {@link #gid} when the flag carries none. */
  public static final long ABSENT = -1;

  public static final String PSEC_NATIVE = "native";
  public static final String GDS_HASH = "hash";

  public ConnectRequest {
    Objects.requireNonNull(psec, "psec");
    Objects.requireNonNull(credential, "credential");
    Objects.requireNonNull(flag, "flag");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(bfrops, "bfrops");
    Objects.requireNonNull(bufferType, "bufferType");
    Objects.requireNonNull(gds, "gds");
    infos = List.copyOf(infos);
    if (flag.carriesUidGid() != (uid != ABSENT) || flag.carriesUidGid() != (gid != ABSENT)) {
      throw new IllegalArgumentException(
          flag + (flag.carriesUidGid() ? " needs" : " has no") + " uid and gid");
    }
    if (uid < ABSENT || uid > 0xFFFF_FFFFL || gid < ABSENT || gid > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("uid and gid are unsigned 32-bit values");
    }
    if (flag.carriesProc() != (proc != null)) {
      throw new IllegalArgumentException(
          flag + (flag.carriesProc() ? " needs" : " has no") + " proc");
    }
  }

  /**
   * What a process the server launched sends (flag SIMPLE_CLIENT): its own nspace and rank, the
   * {@code native} credential, no info blob, no trailing byte (as master writes it).
   *
   * @param version the library version to announce, e.g. {@code "4.2.2"} to a 4.2.x server
   */
  public static ConnectRequest simpleClient(
      Proc proc, NativeCredential credential, WireFormat format, String version) {
    return new ConnectRequest(
        PSEC_NATIVE,
        credential.encode(),
        ConnectFlag.SIMPLE_CLIENT,
        ABSENT,
        ABSENT,
        proc,
        version,
        format.component().wireName(),
        format.bufferType(),
        GDS_HASH,
        List.of(),
        false);
  }

  /**
   * What a self-started tool sends (flag TOOL_NEEDS_ID): its uid and gid, the {@code native}
   * credential, and the infos it wants the server to know (its command line, pid, ...).
   */
  public static ConnectRequest toolNeedingId(
      NativeCredential credential, WireFormat format, String version, List<Info> infos) {
    return new ConnectRequest(
        PSEC_NATIVE,
        credential.encode(),
        ConnectFlag.TOOL_NEEDS_ID,
        credential.uid(),
        credential.gid(),
        null,
        version,
        format.component().wireName(),
        format.bufferType(),
        GDS_HASH,
        infos,
        false);
  }

  /**
   * The format bodies on this connection use: the announced component and buffer type. The whole
   * flex family ({@code v4}, {@code v41}, {@code v51}) is read as {@code v41}, {@code v61} as
   * itself.
   *
   * @throws WireException (connection, {@code PMIX_ERR_NOT_SUPPORTED}) for the older families
   */
  public WireFormat wireFormat() {
    return new WireFormat(componentOf(bfrops, 0), bufferType);
  }

  private static WireComponent componentOf(String bfrops, int offset) {
    return switch (bfrops) {
      case "v4", "v41", "v51" -> WireComponent.V41;
      case "v61" -> WireComponent.V61;
      default ->
          throw WireException.connection(
              PmixStatus.ERR_NOT_SUPPORTED, offset, "bfrops component \"" + bfrops + "\"");
    };
  }

  /** The whole message: the host-order header, then the payload. */
  public byte[] encode() {
    byte[] payload = encodePayload();
    byte[] message = new byte[FrameHeader.BYTES + payload.length];
    System.arraycopy(FrameHeader.encodeConnect(payload.length), 0, message, 0, FrameHeader.BYTES);
    System.arraycopy(payload, 0, message, FrameHeader.BYTES, payload.length);
    return message;
  }

  /** The payload after the header. */
  public byte[] encodePayload() {
    HandshakeWriter w = new HandshakeWriter().cstring(psec);
    w.u32(credential.size()).bytes(credential.toByteArray()).u8(flag.code());
    if (flag.carriesUidGid()) {
      w.u32((int) uid).u32((int) gid);
    }
    if (flag.carriesProc()) {
      w.cstring(proc.nspace()).u32(proc.rank());
    }
    w.cstring(version).cstring(bfrops).u8(bufferType.code()).cstring(gds);
    if (!infos.isEmpty()) {
      w.bytes(new Packer(wireFormat()).packInfos(infos).toByteArray());
    }
    if (trailingZero) {
      w.u8(0);
    }
    return w.toByteArray();
  }

  /**
   * A whole connect message: its header's length must match the bytes that follow.
   *
   * @throws WireException (connection) for anything malformed
   */
  public static ConnectRequest decode(byte[] message) {
    FrameHeader header = FrameHeader.decodeConnect(message, 0);
    if (header.bodyLength() != message.length - FrameHeader.BYTES) {
      throw WireException.connection(
          PmixStatus.ERR_BAD_PARAM,
          8,
          "header announces "
              + header.bodyLength()
              + " bytes, "
              + (message.length - 16)
              + " follow");
    }
    try {
      return decodePayload(message, FrameHeader.BYTES, message.length - FrameHeader.BYTES);
    } catch (WireException e) {
      throw e.inConnection(FrameHeader.BYTES);
    }
  }

  /** The payload of a connect message, as read after its header. */
  public static ConnectRequest decodePayload(byte[] bytes, int offset, int length) {
    HandshakeReader r = new HandshakeReader(bytes, offset, length);
    String psec = r.cstring("the psec name");
    ByteObject credential =
        ByteObject.of(r.bytes(Integer.toUnsignedLong(r.u32()), "the credential"));
    int flagAt = r.position();
    ConnectFlag flag = ConnectFlag.fromCode(r.u8());
    if (flag == null) {
      throw WireException.connection(PmixStatus.ERR_BAD_PARAM, flagAt, "unknown connect flag");
    }
    long uid = flag.carriesUidGid() ? Integer.toUnsignedLong(r.u32()) : ABSENT;
    long gid = flag.carriesUidGid() ? Integer.toUnsignedLong(r.u32()) : ABSENT;
    Proc proc = flag.carriesProc() ? new Proc(r.cstring("the nspace"), r.u32()) : null;
    String version = r.cstring("the version");
    if (r.remaining() == 0) {
      throw r.failure(PmixStatus.ERR_NOT_SUPPORTED, "a PMIx 2.0 peer (" + version + ")");
    }
    int bfropsAt = r.position();
    String bfrops = r.cstring("the bfrops name");
    int typeAt = r.position();
    BufferType bufferType = BufferType.fromCode(r.u8());
    if (bufferType == null) {
      throw WireException.connection(PmixStatus.ERR_BAD_PARAM, typeAt, "unknown buffer type");
    }
    String gds = r.cstring("the gds name");
    WireFormat format = new WireFormat(componentOf(bfrops, bfropsAt), bufferType);
    Blob blob = readBlob(r, bytes, format);
    return new ConnectRequest(
        psec,
        credential,
        flag,
        uid,
        gid,
        proc,
        version,
        bfrops,
        bufferType,
        gds,
        blob.infos,
        blob.trailingZero);
  }

  private record Blob(List<Info> infos, boolean trailingZero) {}

  /** Whatever follows the gds name: nothing, 4.2.2's lone 0x00, or SIZE + INFO units (+ 0x00). */
  private static Blob readBlob(HandshakeReader r, byte[] bytes, WireFormat format) {
    if (r.remaining() == 0) {
      return new Blob(List.of(), false);
    }
    if (r.remaining() == 1 && bytes[r.absolute()] == 0) {
      return new Blob(List.of(), true);
    }
    int base = r.position();
    Unpacker unpacker = new Unpacker(format, bytes, r.absolute(), r.remaining());
    List<Info> infos;
    try {
      infos = unpacker.unpackInfos();
    } catch (WireException e) {
      throw e.inConnection(base);
    }
    r.skip(unpacker.position());
    if (r.remaining() == 0) {
      return new Blob(infos, false);
    }
    if (r.remaining() == 1 && bytes[r.absolute()] == 0) {
      return new Blob(infos, true);
    }
    throw r.failure(PmixStatus.ERR_BAD_PARAM, r.remaining() + " bytes after the info blob");
  }
}
