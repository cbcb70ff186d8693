package org.jdvm.pmix.frame;

import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.codec.WireException;

/**
 * The credential of the {@code native} psec module over TCP (pmix-wire.md §9.3): the connector's
 * uid and gid as raw host-order (little-endian) uint32s, eight bytes. It proves nothing by itself;
 * a server must check it against what the socket tells it.
 *
 * @param uid an unsigned 32-bit uid
 * @param gid an unsigned 32-bit gid
 */
public record NativeCredential(long uid, long gid) {
  public static final int BYTES = 8;

  public NativeCredential {
    if (uid < 0 || uid > 0xFFFF_FFFFL || gid < 0 || gid > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("uid and gid are unsigned 32-bit values");
    }
  }

  public ByteObject encode() {
    byte[] b = new byte[BYTES];
    Bytes.putIntLE(b, 0, (int) uid);
    Bytes.putIntLE(b, 4, (int) gid);
    return ByteObject.of(b);
  }

  /**
   * @throws WireException (connection, {@code PMIX_ERR_INVALID_CRED}) unless exactly eight bytes
   */
  public static NativeCredential decode(ByteObject credential) {
    if (credential.size() != BYTES) {
      throw WireException.connection(
          PmixStatus.ERR_INVALID_CRED,
          0,
          "a native credential has 8 bytes, not " + credential.size());
    }
    byte[] b = credential.toByteArray();
    return new NativeCredential(
        Integer.toUnsignedLong(Bytes.getIntLE(b, 0)), Integer.toUnsignedLong(Bytes.getIntLE(b, 4)));
  }
}
