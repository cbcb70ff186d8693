package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * NOTIFY from a peer ({@code PMIx_Notify_event}): {@code CMD 12 | STATUS code | DATA_RANGE | SIZE n
 * | INFO×n}. Answered with a {@link StatusReply}. (What the server then pushes to the peers the
 * range covers is another layout: {@code STATUS | PROC source | SIZE n | INFO×n | DATA_RANGE}.)
 *
 * @param status the event's code
 * @param range the {@code pmix_data_range_t}, as it came (a range PMIx does not define reaches no
 *     one)
 * @param infos the event's infos
 */
public record NotifyRequest(int status, int range, List<Info> infos) {
  public static final int COMMAND = Commands.NOTIFY_CMD;

  public NotifyRequest {
    infos = List.copyOf(infos);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format)
        .packCommand(COMMAND)
        .packStatus(status)
        .packInteger(DataType.DATA_RANGE, range)
        .packInfos(infos)
        .toByteArray();
  }

  /** The body after its command; bytes after the infos are left unread. */
  public static <X extends Exception> NotifyRequest read(Unpacker in, Checks<X> checks) throws X {
    int status = in.unpackStatus();
    int range = (int) in.unpackInteger(DataType.DATA_RANGE);
    return new NotifyRequest(status, range, Fields.readInfos(in, checks));
  }
}
