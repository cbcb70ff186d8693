package org.jdvm.pmix.codec;

import org.jdvm.pmix.PmixStatus;

/**
 * The one failure of the wire layer: a PMIx status, the byte offset where the problem was found,
 * and what the failure poisons.
 *
 * <p>Decoding untrusted bytes either yields a value or throws this, never anything else (no {@code
 * IndexOutOfBoundsException}, no {@code OutOfMemoryError}, no hang). A failed pack throws it too,
 * with the status libpmix would return (pmix-wire.md §7), and leaves the packer as it was before
 * the call.
 *
 * <p>{@link Scope#MESSAGE}: the body of one message is bad; the connection may go on (the server
 * answers with the status). {@link Scope#CONNECTION}: framing or handshake bytes are bad, so the
 * byte stream can no longer be trusted and the connection must be closed.
 */
public final class WireException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What a failure poisons. */
  public enum Scope {
    /** One message body; later messages on the connection are unaffected. */
    MESSAGE,
    /** The whole connection: its byte stream is out of step and must be closed. */
    CONNECTION
  }

  private final int status;
  private final int offset;
  private final Scope scope;
  private final String detail;

  private WireException(int status, int offset, Scope scope, String detail) {
    super(PmixStatus.name(status) + " at byte " + offset + ": " + detail);
    this.status = status;
    this.offset = offset;
    this.scope = scope;
    this.detail = detail;
  }

  /** A failure confined to one message body. */
  public static WireException message(int status, int offset, String detail) {
    return new WireException(status, offset, Scope.MESSAGE, detail);
  }

  /** A failure that leaves the connection's byte stream unusable. */
  public static WireException connection(int status, int offset, String detail) {
    return new WireException(status, offset, Scope.CONNECTION, detail);
  }

  /**
   * This failure as a connection failure at {@code base + offset}: used when a body-level decoder
   * runs inside a handshake, where any error poisons the connection.
   */
  public WireException inConnection(int base) {
    return new WireException(status, base + offset, Scope.CONNECTION, detail);
  }

  /** The PMIx status, e.g. {@link PmixStatus#ERR_UNPACK_READ_PAST_END_OF_BUFFER}. */
  public int status() {
    return status;
  }

  /** The byte offset, from the start of the decoded slice or message, where the problem lies. */
  public int offset() {
    return offset;
  }

  /** Whether the failure poisons one message or the whole connection. */
  public Scope scope() {
    return scope;
  }

  /** Whether the connection must be closed. */
  public boolean poisonsConnection() {
    return scope == Scope.CONNECTION;
  }
}
