package org.jdvm.pmix.body;

import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;

/**
 * SPAWNNB's reply: {@code STATUS | STRING nspace}, the namespace NULL unless the spawn succeeded
 * (libpmix's caller unpacks both whatever the status).
 *
 * @param status the answer
 * @param nspace the new job's namespace; {@code null} for none
 */
public record SpawnReply(int status, String nspace) {
  /** The whole body. */
  public byte[] write(WireFormat format) {
    return new Packer(format).packStatus(status).packString(nspace).toByteArray();
  }

  /** The whole body: the status and the namespace. */
  public static SpawnReply read(Unpacker in) {
    int status = in.unpackStatus();
    return new SpawnReply(status, in.unpackString());
  }
}
