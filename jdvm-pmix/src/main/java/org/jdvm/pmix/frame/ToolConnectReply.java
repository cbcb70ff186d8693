package org.jdvm.pmix.frame;

import java.util.Objects;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.codec.WireException;

/**
 * The server's answer to a tool, launcher or scheduler (pmix-wire.md §9.3): a big-endian status; on
 * success, the identity the server assigned (only if the connector asked, {@link
 * ConnectFlag#needsId()}) as a fixed 256-byte NUL-padded nspace and a big-endian rank, then the
 * server's own nspace and rank in the same form, then the big-endian status of the security
 * handshake ({@code PMIX_ERR_READY_FOR_HANDSHAKE} would start a psec exchange jdvm never asks for).
 * On an error status nothing follows.
 *
 * @param assigned the identity given to the connector, or {@code null} if it did not ask
 * @param server the server's nspace and rank; {@code null} only on an error status
 */
public record ToolConnectReply(int status, Proc assigned, Proc server, int securityStatus) {
  /** The width of an nspace field: {@code PMIX_MAX_NSLEN} + 1. */
  public static final int NSPACE_FIELD_BYTES = Proc.MAX_NSLEN + 1;

  public ToolConnectReply {
    if (status == PmixStatus.SUCCESS) {
      Objects.requireNonNull(server, "server");
    }
  }

  public static ToolConnectReply accepted(Proc assigned, Proc server) {
    return new ToolConnectReply(PmixStatus.SUCCESS, assigned, server, PmixStatus.SUCCESS);
  }

  public static ToolConnectReply refused(int status) {
    if (status == PmixStatus.SUCCESS) {
      throw new IllegalArgumentException("a refusal needs an error status");
    }
    return new ToolConnectReply(status, null, null, PmixStatus.SUCCESS);
  }

  public boolean isAccepted() {
    return status == PmixStatus.SUCCESS;
  }

  public byte[] encode() {
    HandshakeWriter w = new HandshakeWriter().u32(status);
    if (!isAccepted()) {
      return w.toByteArray();
    }
    if (assigned != null) {
      w.fixedProc(assigned, NSPACE_FIELD_BYTES);
    }
    return w.fixedProc(server, NSPACE_FIELD_BYTES).u32(securityStatus).toByteArray();
  }

  /**
   * The reply in {@code bytes}.
   *
   * @param idRequested whether the connector's flag asked for an identity, which decides whether
   *     the reply holds one (the bytes do not say)
   * @throws WireException (connection) for too few or too many bytes or an unterminated nspace
   */
  public static ToolConnectReply decode(byte[] bytes, boolean idRequested) {
    HandshakeReader r = new HandshakeReader(bytes, 0, bytes.length);
    int status = r.u32();
    if (status != PmixStatus.SUCCESS) {
      expectEnd(r);
      return new ToolConnectReply(status, null, null, PmixStatus.SUCCESS);
    }
    Proc assigned = idRequested ? new Proc(r.fixedNspace(NSPACE_FIELD_BYTES), r.u32()) : null;
    Proc server = new Proc(r.fixedNspace(NSPACE_FIELD_BYTES), r.u32());
    int security = r.u32();
    if (security != PmixStatus.ERR_READY_FOR_HANDSHAKE) {
      expectEnd(r);
    }
    return new ToolConnectReply(status, assigned, server, security);
  }

  private static void expectEnd(HandshakeReader r) {
    if (r.remaining() != 0) {
      throw r.failure(PmixStatus.ERR_BAD_PARAM, r.remaining() + " bytes after the reply");
    }
  }
}
