package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * PUBLISHNB (docs/wireup.md §c.4): {@code CMD 6 | UINT32 effective uid | SIZE n | INFO×n}, the
 * infos being the data followed by the directives ({@code pmix.range}, {@code pmix.persist}, ...).
 * Answered with a {@link StatusReply}.
 *
 * @param uid the effective uid the caller claims
 * @param infos the data and the directives, as they came
 */
public record PublishRequest(long uid, List<Info> infos) {
  public static final int COMMAND = Commands.PUBLISHNB_CMD;

  public PublishRequest {
    infos = List.copyOf(infos);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format)
        .packCommand(COMMAND)
        .packInteger(DataType.UINT32, uid)
        .packInfos(infos)
        .toByteArray();
  }

  /** The body after its command; bytes after the infos are left unread. */
  public static <X extends Exception> PublishRequest read(Unpacker in, Checks<X> checks) throws X {
    long uid = in.unpackInteger(DataType.UINT32);
    return new PublishRequest(uid, Fields.readInfos(in, checks));
  }
}
