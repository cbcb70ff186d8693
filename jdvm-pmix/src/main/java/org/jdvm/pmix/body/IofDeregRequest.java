package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * IOF_DEREG ({@code PMIx_IOF_deregister}): {@code CMD | SIZE n | INFO×n | SIZE server id}, the id
 * an IOF_PULL's reply gave. Answered with a {@link StatusReply}.
 *
 * @param directives the infos, as they came
 * @param serverId the registration to end
 */
public record IofDeregRequest(List<Info> directives, long serverId) {
  public static final int COMMAND = Commands.IOF_DEREG_CMD;

  public IofDeregRequest {
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format)
        .packCommand(COMMAND)
        .packInfos(directives)
        .packSize(serverId)
        .toByteArray();
  }

  /** The body after its command; bytes after the id are left unread. */
  public static <X extends Exception> IofDeregRequest read(Unpacker in, Checks<X> checks) throws X {
    List<Info> directives = Fields.readInfos(in, checks);
    return new IofDeregRequest(directives, in.unpackSize());
  }
}
