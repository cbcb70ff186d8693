package org.jdvm.pmix.body;

import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;

/**
 * A reply that is one {@code STATUS}: what COMMIT, FENCENB, PUBLISHNB, UNPUBLISHNB, DISCONNECTNB,
 * LOG, IOF_PUSH, FINALIZE and the others answer, and the shape every error reply takes when the
 * server answers at once (docs/wireup.md §c, "Errors").
 */
public record StatusReply(int status) {
  public byte[] write(WireFormat format) {
    return new Packer(format).packStatus(status).toByteArray();
  }

  /** Reads the status; what follows it, if anything, is left for the caller. */
  public static StatusReply read(Unpacker in) {
    return new StatusReply(in.unpackStatus());
  }
}
