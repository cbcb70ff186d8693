package org.jdvm.pmix.frame;

import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.codec.WireException;

/**
 * The 16-byte header in front of every message ({@code pmix_ptl_hdr_t}, pmix-wire.md §9.2): the
 * sender's peer index, the tag that pairs a reply with its request, the body length, and four bytes
 * of padding that 64-bit peers always send.
 *
 * <p>Steady-state headers are big-endian. The one exception is the connect message's header, which
 * libpmix writes in host order (little-endian on every platform jdvm runs on): see {@link
 * #decodeConnect} and {@link #encodeConnect}.
 *
 * <p>The body length is checked against the limit before anything is buffered: a header that
 * announces more is a {@link WireException} that poisons the connection, since the stream can no
 * longer be followed.
 *
 * @param pindex the sender's index in the server's peer array (-1 in a connect message)
 * @param tag an unsigned 32-bit tag ({@link Tags})
 * @param nbytes the unsigned 32-bit length of the body that follows
 */
public record FrameHeader(int pindex, int tag, int nbytes) {
  /** Header size on every 64-bit peer: pindex, tag, nbytes and padding, four bytes each. */
  public static final int BYTES = 16;

  /** libpmix's default {@code ptl_base_max_msg_size}: 32 MiB. */
  public static final int MAX_MESSAGE_BYTES = 32 << 20;

  /** The largest connect payload libpmix accepts ({@code PMIX_MAX_CRED_SIZE}): 128 KiB. */
  public static final int MAX_CONNECT_BYTES = 128 << 10;

  /** The header of a request or reply with a body of {@code nbytes}. */
  public static FrameHeader of(int pindex, int tag, int nbytes) {
    return new FrameHeader(pindex, tag, nbytes);
  }

  /** The body length as a non-negative long. */
  public long bodyLength() {
    return Integer.toUnsignedLong(nbytes);
  }

  /** Writes the big-endian header at {@code offset}. */
  public void encode(byte[] dst, int offset) {
    Bytes.putIntBE(dst, offset, pindex);
    Bytes.putIntBE(dst, offset + 4, tag);
    Bytes.putIntBE(dst, offset + 8, nbytes);
    Bytes.putIntBE(dst, offset + 12, 0);
  }

  public byte[] encode() {
    byte[] header = new byte[BYTES];
    encode(header, 0);
    return header;
  }

  /** A big-endian header whose body may be at most {@link #MAX_MESSAGE_BYTES}. */
  public static FrameHeader decode(byte[] src, int offset) {
    return decode(src, offset, MAX_MESSAGE_BYTES);
  }

  /**
   * A big-endian header; the padding is ignored.
   *
   * @param maxBodyBytes the largest body this connection accepts
   * @throws WireException (connection) if fewer than 16 bytes are given or the body is too large
   */
  public static FrameHeader decode(byte[] src, int offset, int maxBodyBytes) {
    checkLength(src, offset);
    FrameHeader h =
        new FrameHeader(
            Bytes.getIntBE(src, offset),
            Bytes.getIntBE(src, offset + 4),
            Bytes.getIntBE(src, offset + 8));
    h.checkBody(maxBodyBytes);
    return h;
  }

  /** The host-order (little-endian) header of a connect message: pindex -1, tag UINT32_MAX. */
  public static byte[] encodeConnect(int payloadBytes) {
    byte[] header = new byte[BYTES];
    Bytes.putIntLE(header, 0, -1);
    Bytes.putIntLE(header, 4, Tags.CONNECT);
    Bytes.putIntLE(header, 8, payloadBytes);
    return header;
  }

  /**
   * The host-order header of a connect message. Its payload may be at most {@link
   * #MAX_CONNECT_BYTES}; anything but pindex -1 and tag UINT32_MAX is not a connect message.
   */
  public static FrameHeader decodeConnect(byte[] src, int offset) {
    checkLength(src, offset);
    FrameHeader h =
        new FrameHeader(
            Bytes.getIntLE(src, offset),
            Bytes.getIntLE(src, offset + 4),
            Bytes.getIntLE(src, offset + 8));
    if (h.pindex != -1 || h.tag != Tags.CONNECT) {
      throw WireException.connection(
          PmixStatus.ERR_BAD_PARAM,
          0,
          "not a connect header: pindex " + h.pindex + ", tag " + Integer.toUnsignedString(h.tag));
    }
    h.checkBody(MAX_CONNECT_BYTES);
    return h;
  }

  private static void checkLength(byte[] src, int offset) {
    if (offset < 0 || src.length - offset < BYTES) {
      throw WireException.connection(
          PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER,
          Math.max(0, src.length - Math.max(offset, 0)),
          "a header needs " + BYTES + " bytes");
    }
  }

  private void checkBody(int maxBodyBytes) {
    if (bodyLength() > maxBodyBytes) {
      throw WireException.connection(
          PmixStatus.ERR_OUT_OF_RESOURCE,
          8,
          "a body of " + bodyLength() + " bytes exceeds the limit of " + maxBodyBytes);
    }
  }

  @Override
  public String toString() {
    return "FrameHeader[pindex="
        + pindex
        + ", tag="
        + Integer.toUnsignedString(tag)
        + ", nbytes="
        + bodyLength()
        + "]";
  }
}
