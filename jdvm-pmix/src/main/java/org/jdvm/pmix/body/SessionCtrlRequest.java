package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * SESSION_CTRL ({@code PMIx_Session_control}): {@code CMD | UINT32 session id | SIZE n | INFO×n}.
 * Answered with an {@link InfosReply}. (Named for its command: the Java client's {@code
 * SessionControlRequest} is what a caller builds one from.)
 *
 * @param sessionId the session acted on
 * @param directives what to do to it
 */
public record SessionCtrlRequest(long sessionId, List<Info> directives) {
  public static final int COMMAND = Commands.SESSION_CTRL_CMD;

  public SessionCtrlRequest {
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format)
        .packCommand(COMMAND)
        .packInteger(DataType.UINT32, sessionId)
        .packInfos(directives)
        .toByteArray();
  }

  /** The body after its command; bytes after the infos are left unread. */
  public static <X extends Exception> SessionCtrlRequest read(Unpacker in, Checks<X> checks)
      throws X {
    long sessionId = in.unpackInteger(DataType.UINT32);
    return new SessionCtrlRequest(sessionId, Fields.readInfos(in, checks));
  }
}
