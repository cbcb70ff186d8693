package org.jdvm.endpoint.serve;

import org.jdvm.pmix.body.InfosReply;
import org.jdvm.pmix.body.SpawnReply;
import org.jdvm.pmix.body.StatusReply;
import org.jdvm.pmix.codec.Packer;

/**
 * How one PMIx command is served: read its body from the {@link Exchange}, then answer through it
 * (at once, or when the DVM answers). A {@link BadRequest} thrown here is answered with its status
 * in the command's {@link ErrorShape}; nothing was submitted.
 */
@FunctionalInterface
public interface Operation {
  void serve(Exchange x) throws BadRequest;

  /**
   * The body of an error reply, shaped as the command's libpmix caller unpacks a reply (research
   * notes: a caller reads its payload only after SUCCESS, but unpacks the fields it expects first).
   */
  enum ErrorShape {
    /** {@code STATUS}. */
    STATUS,
    /** {@code STATUS | STRING NULL}: SPAWNNB. */
    STATUS_NSPACE,
    /** {@code STATUS | SIZE 0}: QUERY, ALLOC, JOB_CONTROL, SESSION_CTRL. */
    STATUS_INFOS,
    /** No reply at all: libpmix does not wait (DEREGEVENTS). */
    NONE;

    /** The error reply, or {@code null} for {@link #NONE}. */
    byte[] error(Packer p, int status) {
      return switch (this) {
        case STATUS -> new StatusReply(status).write(p.format());
        case STATUS_NSPACE -> new SpawnReply(status, null).write(p.format());
        case STATUS_INFOS -> InfosReply.status(status).write(p.format());
        case NONE -> null;
      };
    }
  }
}
