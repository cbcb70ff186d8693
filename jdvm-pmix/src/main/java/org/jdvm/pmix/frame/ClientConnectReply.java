package org.jdvm.pmix.frame;

import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.codec.WireException;

/**
 * The server's answer to a client's connect message (flags SIMPLE_CLIENT and SINGLETON_CLIENT,
 * pmix-wire.md §9.3): a big-endian status and, on success, the big-endian index the client will put
 * in its headers. On any other status nothing follows and the connection ends; {@code
 * PMIX_ERR_READY_FOR_HANDSHAKE} would start a psec exchange, which jdvm never asks for.
 *
 * @param pindex the client's index, or -1 when the status is not success
 */
public record ClientConnectReply(int status, int pindex) {
  public static ClientConnectReply accepted(int pindex) {
    return new ClientConnectReply(PmixStatus.SUCCESS, pindex);
  }

  public static ClientConnectReply refused(int status) {
    if (status == PmixStatus.SUCCESS) {
      throw new IllegalArgumentException("a refusal needs an error status");
    }
    return new ClientConnectReply(status, -1);
  }

  public boolean isAccepted() {
    return status == PmixStatus.SUCCESS;
  }

  /** Four bytes of status, and four of pindex on success. */
  public byte[] encode() {
    HandshakeWriter w = new HandshakeWriter().u32(status);
    if (isAccepted()) {
      w.u32(pindex);
    }
    return w.toByteArray();
  }

  /**
   * The reply in {@code bytes}, which must hold exactly what the status implies.
   *
   * @throws WireException (connection) for too few or too many bytes
   */
  public static ClientConnectReply decode(byte[] bytes) {
    HandshakeReader r = new HandshakeReader(bytes, 0, bytes.length);
    int status = r.u32();
    int pindex = status == PmixStatus.SUCCESS ? r.u32() : -1;
    if (r.remaining() != 0 && status != PmixStatus.ERR_READY_FOR_HANDSHAKE) {
      throw r.failure(PmixStatus.ERR_BAD_PARAM, r.remaining() + " bytes after the reply");
    }
    return new ClientConnectReply(status, pindex);
  }
}
