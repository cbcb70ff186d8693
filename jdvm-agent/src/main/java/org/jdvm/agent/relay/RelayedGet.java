package org.jdvm.agent.relay;

import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Checks;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.body.GetRequest;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * A get a relay may answer alone ({@link LocalModex}, {@link GetCache}): one named rank's key, read
 * from a client's frame; anything else (a wildcard rank, a namespace-wide get, what cannot be read)
 * goes to the controller, which answers it.
 */
record RelayedGet(Proc target, String key) {
  /** The get in {@code frame}, or {@code null} when it is not one a relay answers alone. */
  static RelayedGet read(WireFormat format, byte[] frame) {
    try {
      Unpacker in = Frames.body(format, frame);
      if (in == null || in.unpackCommand() != GetRequest.COMMAND) {
        return null;
      }
      GetRequest get = GetRequest.read(in, Checks.NONE);
      if (get.nspace() == null || in.hasRemaining() || get.rank() == Proc.RANK_WILDCARD) {
        return null;
      }
      return new RelayedGet(get.target(), get.key());
    } catch (WireException | IllegalArgumentException e) {
      return null;
    }
  }
}
